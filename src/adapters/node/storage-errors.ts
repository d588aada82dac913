import { StorageError, type StorageFailure } from '../../domain/errors/storage-error.js';

/**
 * The platform error codes that mean the storage itself failed, and what each is to pm
 * (docs/TRACKER.md "What reaches the disk when"). Anything else (ENOENT, EEXIST, EISDIR...) is
 * the caller's to handle and is passed through unchanged.
 */
const STORAGE_CODES: Readonly<Record<string, StorageFailure>> = Object.freeze({
  ENOSPC: 'storage_full',
  EDQUOT: 'storage_full',
  EFBIG: 'storage_full',
  EROFS: 'read_only',
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
  EIO: 'storage_error',
});

/** The typed failure for a node:fs error of `action` on `path`, or the error itself when it is not a storage failure. */
export function asStorageError(error: unknown, action: string, path: string): unknown {
  if (error instanceof StorageError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = code === undefined ? undefined : STORAGE_CODES[code];
  return reason === undefined ? error : StorageError.of(reason, action, path, code!);
}

/** Runs a file operation, translating a storage failure at this edge (see {@link asStorageError}). */
export async function translated<T>(action: string, path: string, operation: () => T | Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw asStorageError(error, action, path);
  }
}
