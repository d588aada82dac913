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

/**
 * The calls below are synchronous (a sync lstat or read costs tens of microseconds where a
 * promise round trip through libuv's pool costs hundreds), but a registry load makes tens of
 * thousands of them. So every call first checks how long the event loop has been held and,
 * past SLICE_MS, lets it run (setImmediate) before continuing: a server reloading its skills
 * keeps answering requests.
 */
const SLICE_MS = 10;
let sliceStart = performance.now();

async function yieldIfDue(): Promise<void> {
  if (performance.now() - sliceStart < SLICE_MS) return;
  await new Promise((resolve) => setImmediate(resolve));
  sliceStart = performance.now();
}

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
export async function inspectNode(path: string): Promise<FileNodeInfo | undefined> {
  await yieldIfDue();
  const stats = lstatOrUndefined(path);
  return stats ? info(stats) : undefined;
}

/** The direct entries of dir, lstat'ed, at most `limit` of them. */
export async function listNodeEntries(dir: string, limit: number): Promise<DirectoryListing> {
  await yieldIfDue();
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
      // An entry that vanished since readdir (or whose name did not survive decoding) cannot
      // be described, so the listing is refused rather than silently missing a file.
      const stats = lstatOrUndefined(`${dir}/${dirent.name}`);
      if (!stats) return { status: 'refused', reason: 'changed' };
      entries.push({ name: dirent.name, ...info(stats) });
      if (entries.length % 256 === 0) await yieldIfDue();
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
export async function readNodeBytes(path: string, expect: RawReadExpectation): Promise<RawFileRead> {
  await yieldIfDue();
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
    return readExactly(fd, size, expect.into);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads `size` bytes asking for one more. A regular file returns a short read only at its end,
 * so one read call usually yields the content and proves nothing follows it; a file that grew
 * past its measured size (or shrank) is refused.
 */
function readExactly(fd: number, size: number, into: Uint8Array | undefined): RawFileRead {
  const buffer = into && into.length > size ? into : new Uint8Array(size + 1);
  let offset = 0;
  for (;;) {
    const read = readSync(fd, buffer, offset, size + 1 - offset, offset);
    if (read === 0) break;
    offset += read;
    if (offset > size) return { status: 'refused', reason: 'changed' };
    if (offset === size) break;
  }
  if (offset !== size) return { status: 'refused', reason: 'changed' };
  return { status: 'read', bytes: buffer.subarray(0, size) };
}
