import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, promises as fsp, readFileSync, readSync, renameSync, stat as statAsync, watch as fsWatch, statSync, unlinkSync, writeFileSync, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { DirectoryEntry, DirectoryListing, FileNodeInfo, FileSignature, FileSystem, OwnFileRead, RawFileRead, RawReadExpectation, WatchListener } from '../../ports/file-system.js';
import { inspectNode, listNodeEntries, readNodeBytes } from './link-free-reads.js';
import { appendOwn, readOwn, refuseReplacing, signatureOf, truncateOwn } from './own-file-io.js';
import { nodeCrypto } from './lazy-crypto.js';
import { processStartMs } from './process-start.js';
import { asStorageError, translated } from './storage-errors.js';

// node:fs/promises is reached through `fs.promises`, loaded on first use: loading it costs a
// process start ~2 ms, and most starts never scan or fsync (start-up time, docs/BENCHMARKS.md).
const SCAN_CHUNK = 2000;

/**
 * The FileSystem port over node:fs. Atomic replacement writes a temp file in the same
 * directory and renames it over the target (atomic on POSIX), so a crash leaves the old or
 * the new file, never a torn one. `durable` adds fsync before the rename for power-loss safety.
 *
 * Reads, stats, appends and non-durable writes use synchronous calls: tracker files are small
 * and local, and one update touches about a dozen of them. A sync call costs tens of
 * microseconds where a promise round trip through libuv's thread pool costs a few hundred,
 * which took an update at 100k items from ~5 ms to ~3 ms (docs/BENCHMARKS.md). Only fsync
 * (durable mode) stays asynchronous, because it can block for milliseconds.
 */
export class NodeFileSystem implements FileSystem {
  constructor(private readonly options: { durable?: boolean } = {}) {}

  async readText(path: string, own?: OwnFileRead): Promise<string | undefined> {
    if (own) return (await translated('read', path, () => readOwn(path, own)))?.toString('utf8');
    try {
      // Decoding the Buffer is ~3x faster than readFileSync(path, 'utf8') on node 20 for a large
      // file (the 100 MB index snapshot at 100k items) and no slower for small ones.
      return readFileSync(path).toString('utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw asStorageError(error, 'read', path);
    }
  }

  async readTextRange(path: string, start: number, end?: number, own?: OwnFileRead): Promise<string> {
    if (own) return (await translated('read', path, () => readOwn(path, own, start, end)))?.toString('utf8') ?? '';
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      if (isMissing(error)) return '';
      throw asStorageError(error, 'read', path);
    }
    try {
      const size = end ?? fstatSync(fd).size;
      const length = Math.max(0, size - start);
      const buffer = Buffer.alloc(length);
      const bytesRead = length > 0 ? readSync(fd, buffer, 0, length, start) : 0;
      return buffer.subarray(0, bytesRead).toString('utf8');
    } catch (error) {
      throw asStorageError(error, 'read', path);
    } finally {
      closeSync(fd);
    }
  }

  async writeAtomic(path: string, content: string): Promise<void> {
    refuseReplacing(path);
    const temp = `${path}.tmp-${process.pid}-${nodeCrypto().randomBytes(4).toString('hex')}`;
    try {
      if (this.options.durable) {
        const handle = await fsp.open(temp, 'wx');
        try {
          await handle.writeFile(content, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fsp.rename(temp, path);
      } else {
        writeFileSync(temp, content, { encoding: 'utf8', flag: 'wx' });
        renameSync(temp, path);
      }
    } catch (error) {
      await fsp.unlink(temp).catch(() => undefined);
      if (isMissing(error) && !(await isDirectoryAt(dirname(path)))) {
        await makeDirectory(dirname(path));
        return this.writeAtomic(path, content);
      }
      throw asStorageError(error, 'write', path);
    }
  }

  async createExclusive(path: string, content: string): Promise<boolean> {
    try {
      writeFileSync(path, content, { encoding: 'utf8', flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      if (isMissing(error) && !(await isDirectoryAt(dirname(path)))) {
        await makeDirectory(dirname(path));
        return this.createExclusive(path, content);
      }
      throw asStorageError(error, 'create', path);
    }
  }

  async append(path: string, content: string): Promise<void> {
    try {
      appendOwn(path, content);
    } catch (error) {
      if (!isMissing(error) || (await isDirectoryAt(dirname(path)))) throw asStorageError(error, 'append to', path);
      await makeDirectory(dirname(path));
      await translated('append to', path, () => appendOwn(path, content));
    }
  }

  async truncate(path: string, size: number): Promise<void> {
    try {
      truncateOwn(path, size);
    } catch (error) {
      if (!isMissing(error)) throw asStorageError(error, 'cut back', path);
    }
  }

  async remove(path: string): Promise<void> {
    try {
      unlinkSync(path);
    } catch (error) {
      if (!isMissing(error)) throw asStorageError(error, 'remove', path);
    }
  }

  async stat(path: string): Promise<FileSignature | undefined> {
    const s = lstatSync(path, { throwIfNoEntry: false });
    return s ? signatureOf(s) : undefined;
  }

  async isDirectory(path: string): Promise<boolean> {
    try {
      return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
    } catch {
      return false;
    }
  }

  /** Stats in synchronous chunks (far cheaper than one promise per file at 100k files). */
  async scan(dir: string): Promise<DirectoryEntry[]> {
    const out: DirectoryEntry[] = [];
    await this.visitFiles(dir, (name, signature) => out.push({ name, signature }));
    return out;
  }

  async visitFiles(dir: string, visit: (name: string, signature: FileSignature) => void): Promise<void> {
    let names: string[];
    try {
      // Names only: the lstat below tells nodes apart, and 100k Dirent objects would double the
      // memory a scan of a large tracker takes.
      names = await fsp.readdir(dir);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (let i = 0; i < names.length; i += SCAN_CHUNK) {
      for (let k = i; k < Math.min(names.length, i + SCAN_CHUNK); k++) {
        const name = names[k]!;
        const s = lstatSync(`${dir}/${name}`, { throwIfNoEntry: false });
        if (s) visit(name, signatureOf(s));
      }
      if (i + SCAN_CHUNK < names.length) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async ensureDir(path: string): Promise<void> {
    await makeDirectory(path);
  }

  async inspect(path: string): Promise<FileNodeInfo | undefined> {
    return inspectNode(path);
  }

  async listEntries(dir: string, options: { readonly limit: number }): Promise<DirectoryListing> {
    return listNodeEntries(dir, options.limit);
  }

  async readBytes(path: string, expect: RawReadExpectation): Promise<RawFileRead> {
    return readNodeBytes(path, expect);
  }

  watch(dir: string, listener: WatchListener): () => void {
    return watchWith(dir, false, listener);
  }

  watchTree(dir: string, listener: WatchListener): () => void {
    return watchWith(dir, true, listener);
  }

  /**
   * inotify queues an event when a change is made; libuv reads every queued event in the poll
   * phase in which it finds the inotify descriptor readable. Two requests completed through the
   * thread pool each resume this code from a poll phase, so by the second every event queued
   * before the call has been delivered.
   */
  async settleWatch(): Promise<void> {
    for (let round = 0; round < 2; round++) await new Promise<void>((resolve) => statAsync('/', () => resolve()));
  }

  /**
   * Temp files are named `<target>.tmp-<pid>-<random>` (writeAtomic). One is abandoned when its
   * pid names no live process, or a process that started after the file was last written (the
   * pid was reused, told from /proc on Linux); files of this process are kept.
   */
  async removeAbandonedTemps(dir: string, names: readonly string[]): Promise<string[]> {
    const removed: string[] = [];
    for (const name of names) {
      const match = TEMP_NAME.exec(name);
      if (!match) continue;
      const pid = Number(match[1]);
      const path = `${dir}/${name}`;
      const written = statSync(path, { throwIfNoEntry: false });
      if (!written || pid === process.pid || writerMayRun(pid, written.mtimeMs)) continue;
      try {
        unlinkSync(path);
        removed.push(name);
      } catch {
        // Gone already, or not removable here (a read-only checkout): a clean-up never fails the read that runs it.
      }
    }
    return removed;
  }
}

/** fs.watch (recursive on every platform node supports it for, Linux included since node 20). */
function watchWith(dir: string, recursive: boolean, listener: WatchListener): () => void {
  let watcher: FSWatcher | undefined;
  try {
    watcher = fsWatch(dir, { persistent: false, recursive }, (_event, name) => listener(name ? String(name).split('\\').join('/') : undefined));
    watcher.on('error', () => listener(undefined));
  } catch {
    return () => undefined;
  }
  return () => watcher?.close();
}

const TEMP_NAME = /\.tmp-(\d+)-[0-9a-f]+$/;

/** Whether process `pid` may be the writer of a temp file last written at `writtenMs`. */
function writerMayRun(pid: number, writtenMs: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const started = processStartMs(pid);
  // /proc's start time is accurate to about a second.
  return started === undefined || started <= writtenMs + 1000;
}

async function isDirectoryAt(path: string): Promise<boolean> {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/**
 * Creates a directory and its parents. Node's recursive mkdir reports ENOENT where the
 * kernel refused to create a missing component (a read-only mount, a directory pm may not
 * write): the first missing component is then created alone, which fails with the real reason.
 */
async function makeDirectory(path: string): Promise<void> {
  try {
    await fsp.mkdir(path, { recursive: true });
  } catch (error) {
    if (!isMissing(error)) throw asStorageError(error, 'create the directory', path);
    let missing = path;
    while (dirname(missing) !== missing && !(await isDirectoryAt(dirname(missing)))) missing = dirname(missing);
    await translated('create the directory', missing, () => {
      try {
        mkdirSync(missing);
      } catch (raced) {
        if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
      }
    });
    await translated('create the directory', path, () => fsp.mkdir(path, { recursive: true }));
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}
