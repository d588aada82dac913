import { closeSync, constants, fstatSync, lstatSync, openSync, opendirSync, readSync, type BigIntStats } from 'node:fs';
import type { DirectoryListing, FileNodeEntry, FileNodeInfo, FileNodeKind, RawFileRead, RawReadExpectation } from '../../ports/file-system.js';

/**
 * The FileSystem port's link-free reads over node:fs (seed 000 "Skills over MCP": symbolic
 * links are rejected at any depth and budgets are reserved from metadata first).
 *
 * How the race between listing and reading is closed:
 * - Listings lstat every entry (never stat), so a link is reported as a link.
 * - A read opens with O_NOFOLLOW (and O_NONBLOCK, so a FIFO planted in the tree cannot block
 *   the open), then checks the opened descriptor with fstat: it must be a regular file, the
 *   node the listing saw (device and inode), and no larger than the size that was reserved.
 *   The body is read to exactly that size plus one probe byte, so a file that grew after it was
 *   measured is refused without being read past its budget.
 * - Where O_NOFOLLOW does not exist (Windows), the read lstats first and then requires the
 *   opened descriptor to be that same node.
 * - A listing lstats the directory before and after reading its entries and refuses it when
 *   the two differ or it is a link.
 *
 * What remains: node has no openat()/O_NOFOLLOW per path component, so an intermediate
 * directory swapped for a link and swapped back between the two lstats of its listing is not
 * seen. Reads are still pinned to the listed node ids, so such a swap can only make the
 * listing describe other nodes; their bodies are read only when their ids match what was
 * listed, and never beyond the reserved sizes.
 */

const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const HAS_NOFOLLOW = (constants.O_NOFOLLOW ?? 0) !== 0;

function kindOf(stats: BigIntStats): FileNodeKind {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  return 'other';
}

function idOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}`;
}

function info(stats: BigIntStats): FileNodeInfo {
  return { kind: kindOf(stats), size: Number(stats.size), id: idOf(stats) };
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException)?.code;
}

function isGone(error: unknown): boolean {
  return code(error) === 'ENOENT' || code(error) === 'ENOTDIR';
}

function lstatOrUndefined(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch (error) {
    if (isGone(error)) return undefined;
    throw error;
  }
}

/** lstat of one path. */
export function inspectNode(path: string): FileNodeInfo | undefined {
  const stats = lstatOrUndefined(path);
  return stats ? info(stats) : undefined;
}

/** The direct entries of dir, lstat'ed, at most `limit` of them. */
export function listNodeEntries(dir: string, limit: number): DirectoryListing {
  const before = lstatOrUndefined(dir);
  if (!before) return { status: 'refused', reason: 'missing' };
  if (before.isSymbolicLink()) return { status: 'refused', reason: 'symlink' };
  if (!before.isDirectory()) return { status: 'refused', reason: 'not-a-directory' };
  const entries: FileNodeEntry[] = [];
  let truncated = false;
  let handle;
  try {
    handle = opendirSync(dir);
  } catch (error) {
    if (isGone(error)) return { status: 'refused', reason: 'changed' };
    throw error;
  }
  try {
    for (let dirent = handle.readSync(); dirent !== null; dirent = handle.readSync()) {
      if (entries.length >= limit) {
        truncated = true;
        break;
      }
      const stats = lstatOrUndefined(`${dir}/${dirent.name}`);
      if (stats) entries.push({ name: dirent.name, ...info(stats) });
    }
  } finally {
    handle.closeSync();
  }
  const after = lstatOrUndefined(dir);
  if (!after || !after.isDirectory() || idOf(after) !== idOf(before)) return { status: 'refused', reason: 'changed' };
  return { status: 'listed', id: idOf(before), entries, truncated };
}

function openNoFollow(path: string): number | RawFileRead {
  try {
    return openSync(path, READ_FLAGS);
  } catch (error) {
    if (isGone(error)) return { status: 'refused', reason: 'missing' };
    // O_NOFOLLOW on a link: ELOOP on Linux and macOS, EMLINK on FreeBSD.
    if (code(error) === 'ELOOP' || code(error) === 'EMLINK') return { status: 'refused', reason: 'symlink' };
    throw error;
  }
}

/** A regular file's raw bytes, never through a final link and never past `maxBytes`. */
export function readNodeBytes(path: string, expect: RawReadExpectation): RawFileRead {
  let before: BigIntStats | undefined;
  if (!HAS_NOFOLLOW) {
    before = lstatOrUndefined(path);
    if (!before) return { status: 'refused', reason: 'missing' };
    if (before.isSymbolicLink()) return { status: 'refused', reason: 'symlink' };
  }
  const fd = openNoFollow(path);
  if (typeof fd !== 'number') return fd;
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (!stats.isFile()) return { status: 'refused', reason: 'not-a-file' };
    if (expect.id !== undefined && idOf(stats) !== expect.id) return { status: 'refused', reason: 'changed' };
    if (before && idOf(before) !== idOf(stats)) return { status: 'refused', reason: 'changed' };
    const size = Number(stats.size);
    if (size > expect.maxBytes) return { status: 'refused', reason: 'too-large' };
    return readExactly(fd, size);
  } finally {
    closeSync(fd);
  }
}

function readExactly(fd: number, size: number): RawFileRead {
  const bytes = new Uint8Array(size);
  let offset = 0;
  while (offset < size) {
    const read = readSync(fd, bytes, offset, size - offset, offset);
    if (read === 0) return { status: 'refused', reason: 'changed' };
    offset += read;
  }
  const probe = new Uint8Array(1);
  if (readSync(fd, probe, 0, 1, size) !== 0) return { status: 'refused', reason: 'changed' };
  return { status: 'read', bytes };
}
