/** What the tracker needs to know about a file to tell whether it changed. */
export interface FileSignature {
  readonly size: number;
  readonly mtimeMs: number;
  /** Changes on every atomic replace (temp file + rename), so a rewrite is always seen. */
  readonly ino: number;
}

export interface DirectoryEntry {
  readonly name: string;
  readonly signature: FileSignature;
}

/** A change seen under a watched directory: the entry name, or undefined when unknown. */
export type WatchListener = (name: string | undefined) => void;

/**
 * The tracker's view of a file system. Paths are absolute, '/'-separated. Shaped to the
 * tracker's needs (DESIGN.md "Tracker model"): atomic whole-file replacement, append-only
 * logs, exclusive creation for ids, directory scans with change signatures, and a watch.
 */
export interface FileSystem {
  /** Reads a UTF-8 file, or undefined when it does not exist. */
  readText(path: string): Promise<string | undefined>;
  /** Reads bytes [start, end) of a UTF-8 file as text ('' past the end or when missing). */
  readTextRange(path: string, start: number, end?: number): Promise<string>;
  /** Replaces a file atomically: readers see the old or the new content, never a mix. */
  writeAtomic(path: string, content: string): Promise<void>;
  /** Creates a file only when absent; false when it already exists. */
  createExclusive(path: string, content: string): Promise<boolean>;
  /** Appends text (one write call) creating the file when absent. */
  append(path: string, content: string): Promise<void>;
  /** Removes a file; a missing file is not an error. */
  remove(path: string): Promise<void>;
  /** The signature of a file, or undefined when it does not exist. */
  stat(path: string): Promise<FileSignature | undefined>;
  /** Whether a directory exists at path. */
  isDirectory(path: string): Promise<boolean>;
  /** Files (not directories) directly in dir with their signatures; [] when dir is missing. */
  scan(dir: string): Promise<DirectoryEntry[]>;
  /** Creates a directory and its parents. */
  ensureDir(path: string): Promise<void>;
  /** Watches a directory's direct entries; returns the function that stops watching. */
  watch(dir: string, listener: WatchListener): () => void;
}
