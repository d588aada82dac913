/**
 * What the tracker needs to know about a file to tell whether it changed. Taken without
 * following a final symbolic link (lstat), so a link is described as itself.
 */
export interface FileSignature {
  readonly size: number;
  readonly mtimeMs: number;
  /** Changes on every atomic replace (temp file + rename), so a rewrite is always seen. */
  readonly ino: number;
  /**
   * The status change time: set by the kernel on every write and never settable by a caller,
   * so an in-place edit whose modification time was put back (`touch -r`) is still seen.
   */
  readonly ctimeMs: number;
  /**
   * Absent for a regular file. Otherwise what the node is: a symbolic link, a directory, or
   * 'other' (a FIFO, socket or device), which the tracker refuses to read or write through
   * (docs/TRACKER.md "What pm reads and writes").
   */
  readonly kind?: 'symlink' | 'directory' | 'other';
}

/**
 * How a file the tracker owns (an item, a history log, a task record) is read: a regular file
 * only, never through a final symbolic link, never blocking on a FIFO, and at most `maxBytes`
 * (checked before the body is read). A refusal throws RefusedFileError (docs/TRACKER.md "What
 * pm reads and writes").
 */
export interface OwnFileRead {
  readonly maxBytes: number;
}

export interface DirectoryEntry {
  readonly name: string;
  readonly signature: FileSignature;
}

/** What a directory entry is, seen without following links (lstat semantics). */
export type FileNodeKind = 'file' | 'directory' | 'symlink' | 'other';

/**
 * One node's metadata, read without opening its body. `size` is the byte length for a file
 * (for links and directories it is whatever the platform reports and means nothing). `id`
 * names the node itself (device and inode on POSIX), so a later read can prove it opened the
 * very node that was listed, not a link or another file put in its place. It names the node,
 * not its content: an in-place edit keeps the id (the reader digests what it read).
 */
export interface FileNodeInfo {
  readonly kind: FileNodeKind;
  readonly size: number;
  readonly id: string;
}

/** A direct entry of a directory listing. */
export interface FileNodeEntry extends FileNodeInfo {
  readonly name: string;
}

/** Why a link-free listing was refused. */
export type DirectoryRefusal = 'missing' | 'symlink' | 'not-a-directory' | 'changed';

/** A directory's direct entries, or why they were not listed. */
export type DirectoryListing =
  | {
      readonly status: 'listed';
      /** The listed directory's own node id. */
      readonly id: string;
      /** At most `limit` entries, in no particular order. */
      readonly entries: readonly FileNodeEntry[];
      /** True when the directory holds more than `limit` entries (the rest were not read). */
      readonly truncated: boolean;
    }
  | { readonly status: 'refused'; readonly reason: DirectoryRefusal };

/** Why a raw read was refused. */
export type RawReadRefusal = 'missing' | 'symlink' | 'not-a-file' | 'too-large' | 'changed';

/** A file's raw bytes, or why they were not read. */
export type RawFileRead =
  | { readonly status: 'read'; readonly bytes: Uint8Array }
  | { readonly status: 'refused'; readonly reason: RawReadRefusal };

/** What a raw read must find: at most `maxBytes`, and (when given) the node listed as `id`. */
export interface RawReadExpectation {
  readonly maxBytes: number;
  readonly id?: string;
  /**
   * Where to put the body: a buffer of at least `maxBytes + 1` bytes (the extra byte lets one
   * read call also prove the file ends there). The bytes returned are then a view of its start,
   * and nothing is allocated per read; without it the adapter allocates.
   */
  readonly into?: Uint8Array;
}

/** A change seen under a watched directory: the entry name, or undefined when unknown. */
export type WatchListener = (name: string | undefined) => void;

/**
 * The tracker's view of a file system. Paths are absolute, '/'-separated. Shaped to the
 * tracker's needs (docs/TRACKER.md): atomic whole-file replacement, append-only
 * logs, exclusive creation for ids, directory scans with change signatures, and a watch.
 * A failure of the storage itself (full, read-only, permission, I/O) is thrown as the domain's
 * `StorageError` with its reason; adapters translate their platform's codes at this edge.
 */
export interface FileSystem {
  /**
   * Reads a UTF-8 file, or undefined when it does not exist. With `own`, only as a tracker
   * file (see {@link OwnFileRead}); without it, as any file (config, guidance, exports).
   */
  readText(path: string, own?: OwnFileRead): Promise<string | undefined>;
  /**
   * Reads bytes [start, end) of a UTF-8 file as text ('' past the end or when missing). With
   * `own`, only as a tracker file of at most `own.maxBytes` bytes (see {@link OwnFileRead}).
   */
  readTextRange(path: string, start: number, end?: number, own?: OwnFileRead): Promise<string>;
  /**
   * Replaces a file atomically: readers see the old or the new content, never a mix. Refused
   * (RefusedFileError) when path is a symbolic link or a node other than a regular file.
   */
  writeAtomic(path: string, content: string): Promise<void>;
  /** Creates a file only when absent (a link counts as present); false when it already exists. */
  createExclusive(path: string, content: string): Promise<boolean>;
  /**
   * Appends text (one write call) creating the file when absent. Never through a symbolic link
   * (dangling or not) and never into a node other than a regular file: RefusedFileError. A
   * failed append may leave part of `content` behind (a full disk takes what fits): the caller
   * cuts it back with {@link truncate} to the size it knew.
   */
  append(path: string, content: string): Promise<void>;
  /**
   * Cuts a file back to its first `size` bytes (a torn append rolled back; needs no free space).
   * A missing file is not an error.
   */
  truncate(path: string, size: number): Promise<void>;
  /** Removes a file; a missing file is not an error. */
  remove(path: string): Promise<void>;
  /** The signature of a node (lstat: a final link is not followed), or undefined when it does not exist. */
  stat(path: string): Promise<FileSignature | undefined>;
  /** Whether a directory exists at path. */
  isDirectory(path: string): Promise<boolean>;
  /**
   * The entries directly in dir with their signatures (lstat): regular files, and directories,
   * links and special nodes marked by their signature's `kind`, so the tracker can name an
   * `items/<id>.md/` directory instead of missing it; [] when dir is missing.
   */
  scan(dir: string): Promise<DirectoryEntry[]>;
  /**
   * Calls `visit` with each entry directly in dir and its signature, as {@link scan} lists them,
   * keeping none: a pass over a large directory (a sum of its signatures) without the memory
   * of its list. Nothing when dir is missing.
   */
  visitFiles(dir: string, visit: (name: string, signature: FileSignature) => void): Promise<void>;
  /** Creates a directory and its parents. */
  ensureDir(path: string): Promise<void>;
  /** Watches a directory's direct entries; returns the function that stops watching. */
  watch(dir: string, listener: WatchListener): () => void;
  /**
   * Watches everything below dir, at any depth: the listener gets the changed entry's path
   * relative to dir ('/'-separated), or undefined when unknown. A dir that does not exist (or
   * cannot be watched) is not watched: the returned stop function then does nothing.
   */
  watchTree(dir: string, listener: WatchListener): () => void;
  /**
   * Resolves once the watch events of every change made before the call have reached their
   * listeners (as far as the platform queues them at the time of the change). Absent: events
   * are delivered synchronously.
   */
  settleWatch?(): Promise<void>;
  /**
   * Removes the temporary files of atomic writes (see writeAtomic) among `names` in `dir` whose
   * writer is gone: a writer killed between creating its temp file and the rename leaves one
   * behind. A temp file of a writer that may still be running is kept, and so is one that
   * cannot be removed (a read-only checkout): the clean-up never fails the read that runs it.
   * Returns the names removed. Absent: writes leave no temporary files.
   */
  removeAbandonedTemps?(dir: string, names: readonly string[]): Promise<string[]>;

  // Link-free access for content the project does not trust (seed 000 "Skills over MCP":
  // symbolic links are rejected and budgets are reserved from metadata before a body is read).

  /** The node at path without following a final symbolic link (lstat), or undefined when missing. */
  inspect(path: string): Promise<FileNodeInfo | undefined>;
  /**
   * The direct entries of dir with their kinds and sizes, without following links and
   * without reading a body. At most `limit` entries are returned (the listing stops there, so a
   * huge directory costs no more memory than `limit` entries). Refused when dir is missing,
   * is itself a link, is not a directory, or changed while it was being listed (replaced, or
   * an entry that cannot be described: gone before its lstat, or a name that is not UTF-8).
   */
  listEntries(dir: string, options: { readonly limit: number }): Promise<DirectoryListing>;
  /**
   * A regular file's raw bytes. Never follows a link in the final component, even one put
   * there after the file was listed; refuses a body over `maxBytes` (before reading it) and,
   * when `id` is given, any node other than the one listed under that id.
   */
  readBytes(path: string, expect: RawReadExpectation): Promise<RawFileRead>;
}
