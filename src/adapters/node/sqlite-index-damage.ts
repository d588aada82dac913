import { closeSync, lstatSync, openSync, readSync } from 'node:fs';

/** The first 16 bytes of every SQLite database file (the file format's magic header string). */
const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * What kind of failure an index error is (docs/TRACKER.md "The derived index", "When the
 * index is damaged or cannot be written"):
 * - `damage`: the file is not a usable database (corrupt, not a database, a directory, an I/O
 *   error reading it): it is made anew and rebuilt from the item files;
 * - `unwritable`: the file or its directory cannot be written (read-only file system or file,
 *   no permission, a full disk, a runtime area that is not a directory): the process keeps its
 *   index in memory instead;
 * - `busy`: another process holds the database's write lock (a real writer);
 * - `other`: anything else (a bug, not the file's fault), passed on as it is.
 */
export type IndexFailure = 'damage' | 'unwritable' | 'busy' | 'other';

const DAMAGE_CODES = ['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CANTOPEN', 'SQLITE_IOERR', 'EISDIR'];
/**
 * ENOTDIR: the runtime area itself is not a directory (a file in its place), which pm does not
 * remove; ELOOP: it is a symbolic link, which pm never writes through.
 */
const UNWRITABLE_CODES = ['SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_PERM', 'EROFS', 'ENOSPC', 'EACCES', 'EPERM', 'EDQUOT', 'ENOTDIR', 'ELOOP'];

/** How an index error is told in a warning: its message, with its code in front unless the message starts with it. */
export function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message;
}

/** Classifies an error thrown by the SQLite driver or by node:fs on the index's files. */
export function indexFailure(error: unknown): IndexFailure {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'other';
  // SQLite's extended codes name their primary code first (SQLITE_READONLY_DBMOVED, SQLITE_IOERR_SHORT_READ...).
  const matches = (codes: readonly string[]) => codes.some((known) => code === known || code.startsWith(`${known}_`));
  if (matches(UNWRITABLE_CODES)) return 'unwritable';
  if (matches(DAMAGE_CODES)) return 'damage';
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_LOCKED_')) return 'busy';
  return 'other';
}

/**
 * Why the file at `path` cannot be the index, without opening it with SQLite (which would wait
 * the busy timeout on a truncated file whose log another process holds), or undefined when it
 * may be one: a directory or anything not a regular file, a file that does not start with
 * SQLite's header, or an empty file beside a write-ahead log. An empty file alone is a database
 * SQLite has not written yet (a creator's first instant), so it is left to SQLite. A missing
 * file is not damaged (it is created).
 *
 * @param logged whether this process had the file open as a valid database: then an empty
 *   file is damage even without a log (it was truncated under the process)
 */
export function indexFileDamage(path: string, logged = false): string | undefined {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isDirectory()) return 'a directory is at the index path';
  if (!stat.isFile()) return 'the index path is not a regular file';
  if (stat.size === 0) {
    if (logged || lstatSync(`${path}-wal`, { throwIfNoEntry: false })) return 'the index file is empty (truncated)';
    return undefined;
  }
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, header, 0, header.length, 0);
    if (read < header.length || header.toString('latin1') !== SQLITE_HEADER) return 'the index file is not an SQLite database';
  } finally {
    closeSync(fd);
  }
  return undefined;
}
