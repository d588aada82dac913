/** Joins '/'-separated path segments (the FileSystem port speaks POSIX-style paths). */
export function joinPath(...segments: string[]): string {
  return segments.join('/').replace(/\/{2,}/g, '/');
}

/** The parent directory of a '/'-separated absolute path ('/' for the root). */
export function parentPath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const index = trimmed.lastIndexOf('/');
  return index <= 0 ? '/' : trimmed.slice(0, index);
}
