import { watch as fsWatch, statSync, type FSWatcher } from 'node:fs';
import { appendFile, mkdir, open, readFile, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { DirectoryEntry, FileSignature, FileSystem, WatchListener } from '../../ports/file-system.js';

const SCAN_CHUNK = 2000;

/**
 * The FileSystem port over node:fs. Atomic replacement writes a temp file in the same
 * directory and renames it over the target (atomic on POSIX), so a crash leaves the old or
 * the new file, never a torn one. `durable` adds fsync before the rename for power-loss safety.
 */
export class NodeFileSystem implements FileSystem {
  constructor(private readonly options: { durable?: boolean } = {}) {}

  async readText(path: string): Promise<string | undefined> {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async readTextRange(path: string, start: number, end?: number): Promise<string> {
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (isMissing(error)) return '';
      throw error;
    }
    try {
      const size = end ?? (await handle.stat()).size;
      const length = Math.max(0, size - start);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, start);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  }

  async writeAtomic(path: string, content: string): Promise<void> {
    const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      if (this.options.durable) {
        const handle = await open(temp, 'w');
        try {
          await handle.writeFile(content, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
      } else {
        await writeFile(temp, content, 'utf8');
      }
      await rename(temp, path);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      if (isMissing(error)) {
        await mkdir(dirname(path), { recursive: true });
        return this.writeAtomic(path, content);
      }
      throw error;
    }
  }

  async createExclusive(path: string, content: string): Promise<boolean> {
    try {
      await writeFile(path, content, { encoding: 'utf8', flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      if (isMissing(error)) {
        await mkdir(dirname(path), { recursive: true });
        return this.createExclusive(path, content);
      }
      throw error;
    }
  }

  async append(path: string, content: string): Promise<void> {
    try {
      await appendFile(path, content, 'utf8');
    } catch (error) {
      if (!isMissing(error)) throw error;
      await mkdir(dirname(path), { recursive: true });
      await appendFile(path, content, 'utf8');
    }
  }

  async remove(path: string): Promise<void> {
    await unlink(path).catch((error) => {
      if (!isMissing(error)) throw error;
    });
  }

  async stat(path: string): Promise<FileSignature | undefined> {
    try {
      const s = await stat(path);
      return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async isDirectory(path: string): Promise<boolean> {
    try {
      return (await stat(path)).isDirectory();
    } catch {
      return false;
    }
  }

  /** Stats in synchronous chunks (far cheaper than one promise per file at 100k files). */
  async scan(dir: string): Promise<DirectoryEntry[]> {
    let names: string[];
    try {
      names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const out: DirectoryEntry[] = [];
    for (let i = 0; i < names.length; i += SCAN_CHUNK) {
      for (const name of names.slice(i, i + SCAN_CHUNK)) {
        const s = statSync(`${dir}/${name}`, { throwIfNoEntry: false });
        if (s?.isFile()) out.push({ name, signature: { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino } });
      }
      if (i + SCAN_CHUNK < names.length) await new Promise((resolve) => setImmediate(resolve));
    }
    return out;
  }

  async ensureDir(path: string): Promise<void> {
    await mkdir(path, { recursive: true });
  }

  watch(dir: string, listener: WatchListener): () => void {
    let watcher: FSWatcher | undefined;
    try {
      watcher = fsWatch(dir, { persistent: false }, (_event, name) => listener(name ?? undefined));
      watcher.on('error', () => listener(undefined));
    } catch {
      return () => undefined;
    }
    return () => watcher?.close();
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}
