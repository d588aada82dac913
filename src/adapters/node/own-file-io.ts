import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readSync, writeSync, type Stats } from 'node:fs';
import { RefusedFileError } from '../../domain/errors/index.js';
import type { FileSignature, OwnFileRead } from '../../ports/file-system.js';

/**
 * How the node FileSystem reads and writes the files the tracker owns (docs/TRACKER.md "What pm
 * reads and writes"): git commits symbolic links and a working tree may hold a FIFO or a
 * device under an item's name, so
 * - a read lstats first and opens only a regular file, with O_NOFOLLOW (a link put there after
 *   the lstat fails the open) and O_NONBLOCK (a FIFO put there never blocks the open), then
 *   fstats the descriptor and checks it is a regular file and the node the lstat saw, and
 *   refuses a size over the caller's cap before reading a byte;
 * - an append opens with O_NOFOLLOW | O_NONBLOCK too (a dangling link is not created through,
 *   a FIFO without a reader fails at once) and writes only into a regular file;
 * - an atomic replace refuses a target that is a link or a special node.
 */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK;
const TRUNCATE_FLAGS = constants.O_WRONLY | NOFOLLOW | NONBLOCK;
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK;

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException)?.code;
}

/** The signature of an lstat: `kind` only for what is not a regular file. */
export function signatureOf(stats: Stats): FileSignature {
  const base = { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino, ctimeMs: stats.ctimeMs };
  if (stats.isFile()) return base;
  return { ...base, kind: stats.isSymbolicLink() ? 'symlink' : stats.isDirectory() ? 'directory' : 'other' };
}

/** What a node is, in words, for a refusal's message. */
function described(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Throws the refusal for a node that is not a regular file (RefusedFileError). */
export function refuseNonRegular(path: string, stats: Stats, doing: string): void {
  if (stats.isFile()) return;
  const reason = stats.isSymbolicLink() ? 'symlink' : 'not_a_regular_file';
  throw new RefusedFileError(path, reason, `is ${described(stats)}, not a regular file; pm does not ${doing} it`);
}

function refuseOpenError(path: string, error: unknown, doing: string): never {
  // O_NOFOLLOW on a link: ELOOP on Linux and macOS, EMLINK on FreeBSD.
  if (code(error) === 'ELOOP' || code(error) === 'EMLINK') throw new RefusedFileError(path, 'symlink', `is a symbolic link, not a regular file; pm does not ${doing} it`);
  // O_NONBLOCK write-open of a FIFO nobody reads.
  if (code(error) === 'ENXIO') throw new RefusedFileError(path, 'not_a_regular_file', `is a FIFO, not a regular file; pm does not ${doing} it`);
  // A write-open of a directory.
  if (code(error) === 'EISDIR') throw new RefusedFileError(path, 'not_a_regular_file', `is a directory, not a regular file; pm does not ${doing} it`);
  throw error;
}

/** A tracker file's bytes [start, end) (end: its size), or undefined when it does not exist. */
export function readOwn(path: string, own: OwnFileRead, start = 0, end?: number): Buffer | undefined {
  const before = lstatSync(path, { throwIfNoEntry: false });
  if (!before) return undefined;
  refuseNonRegular(path, before, 'read');
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    refuseOpenError(path, error, 'read');
  }
  try {
    const stats = fstatSync(fd);
    refuseNonRegular(path, stats, 'read');
    if (stats.ino !== before.ino || stats.dev !== before.dev) throw new RefusedFileError(path, 'not_a_regular_file', 'was replaced by another node while it was opened; pm does not read it');
    if (stats.size > own.maxBytes) throw new RefusedFileError(path, 'too_large', `has ${stats.size} bytes, above the ${own.maxBytes}-byte cap of such a file; pm does not read it`);
    const stop = Math.min(end ?? stats.size, stats.size);
    const length = Math.max(0, stop - start);
    const buffer = Buffer.allocUnsafe(length);
    let offset = 0;
    while (offset < length) {
      const read = readSync(fd, buffer, offset, length - offset, start + offset);
      if (read === 0) break;
      offset += read;
    }
    return buffer.subarray(0, offset);
  } finally {
    closeSync(fd);
  }
}

/** Appends to a regular file (created when absent), never through a link nor into a special node. */
export function appendOwn(path: string, content: string): void {
  let fd: number;
  try {
    fd = openSync(path, APPEND_FLAGS, 0o666);
  } catch (error) {
    if (code(error) === 'ENOENT') throw error;
    refuseOpenError(path, error, 'write');
  }
  try {
    refuseNonRegular(path, fstatSync(fd), 'write');
    const bytes = Buffer.from(content, 'utf8');
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
  } finally {
    closeSync(fd);
  }
}

/**
 * Cuts a regular file back to its first `size` bytes (a failed append rolled back, docs/TRACKER.md
 * "What reaches the disk when"), never through a link nor on a special node. A missing file throws
 * ENOENT, for the caller to ignore.
 */
export function truncateOwn(path: string, size: number): void {
  let fd: number;
  try {
    fd = openSync(path, TRUNCATE_FLAGS);
  } catch (error) {
    if (code(error) === 'ENOENT') throw error;
    refuseOpenError(path, error, 'write');
  }
  try {
    refuseNonRegular(path, fstatSync(fd), 'write');
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

/** Refuses to replace a link or special node at path (a missing path or a regular file is fine). */
export function refuseReplacing(path: string): void {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats) refuseNonRegular(path, stats, 'replace');
}

/**
 * Refuses to create or write anything directly in `dir` when it is a symbolic link or exists as
 * anything but a directory (a missing dir is fine: it is made as a real one). For the writers
 * that reach node:fs without the FileSystem port (the write lock, the request-state keys, the
 * SQLite index), whose files sit directly in the tracker's `.runtime/` (docs/TRACKER.md "What pm
 * reads and writes").
 */
export function refuseLinkedDirectory(dir: string): void {
  const stats = lstatSync(dir, { throwIfNoEntry: false });
  if (!stats || stats.isDirectory()) return;
  if (stats.isSymbolicLink()) throw new RefusedFileError(dir, 'symlink', 'is a symbolic link, not a directory; pm writes nothing below it (the directories inside a tracker must be real directories)');
  throw new RefusedFileError(dir, 'not_a_regular_file', `is ${described(stats)}, not a directory; pm writes nothing below it`);
}
