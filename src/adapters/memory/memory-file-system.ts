import type { DirectoryEntry, FileSignature, FileSystem, WatchListener } from '../../ports/file-system.js';

interface Node {
  content: string;
  mtimeMs: number;
  ino: number;
}

/**
 * An in-memory FileSystem for unit tests and embedding. Paths are '/'-separated; directories
 * are implied by files and by ensureDir. Atomic writes get a fresh inode like a rename would.
 */
export class MemoryFileSystem implements FileSystem {
  private readonly files = new Map<string, Node>();
  private readonly dirs = new Set<string>(['/']);
  private readonly watchers = new Map<string, Set<WatchListener>>();
  private nextIno = 1;
  private tick = 0;

  async readText(path: string): Promise<string | undefined> {
    return this.files.get(path)?.content;
  }

  async readTextRange(path: string, start: number, end?: number): Promise<string> {
    const bytes = new TextEncoder().encode(this.files.get(path)?.content ?? '');
    return new TextDecoder().decode(bytes.slice(start, end));
  }

  async writeAtomic(path: string, content: string): Promise<void> {
    this.put(path, content, true);
  }

  async createExclusive(path: string, content: string): Promise<boolean> {
    if (this.files.has(path)) return false;
    this.put(path, content, true);
    return true;
  }

  async append(path: string, content: string): Promise<void> {
    const node = this.files.get(path);
    this.put(path, (node?.content ?? '') + content, !node);
  }

  async remove(path: string): Promise<void> {
    if (this.files.delete(path)) this.notify(path);
  }

  async stat(path: string): Promise<FileSignature | undefined> {
    const node = this.files.get(path);
    return node ? { size: new TextEncoder().encode(node.content).length, mtimeMs: node.mtimeMs, ino: node.ino } : undefined;
  }

  async isDirectory(path: string): Promise<boolean> {
    return this.dirs.has(trim(path));
  }

  async scan(dir: string): Promise<DirectoryEntry[]> {
    const prefix = `${trim(dir)}/`;
    const out: DirectoryEntry[] = [];
    for (const path of this.files.keys()) {
      if (!path.startsWith(prefix) || path.slice(prefix.length).includes('/')) continue;
      out.push({ name: path.slice(prefix.length), signature: (await this.stat(path))! });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  async ensureDir(path: string): Promise<void> {
    for (let p = trim(path); p && p !== '/'; p = p.slice(0, p.lastIndexOf('/')) || '/') this.dirs.add(p);
  }

  watch(dir: string, listener: WatchListener): () => void {
    const key = trim(dir);
    const set = this.watchers.get(key) ?? new Set();
    set.add(listener);
    this.watchers.set(key, set);
    return () => set.delete(listener);
  }

  /** Test helper: live watch listeners on `dir`, or on every directory when omitted. */
  watcherCount(dir?: string): number {
    if (dir !== undefined) return this.watchers.get(trim(dir))?.size ?? 0;
    let count = 0;
    for (const set of this.watchers.values()) count += set.size;
    return count;
  }

  /** Test helper: every path held, sorted. */
  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  private put(path: string, content: string, newInode: boolean): void {
    const old = this.files.get(path);
    this.files.set(path, { content, mtimeMs: ++this.tick, ino: newInode || !old ? this.nextIno++ : old.ino });
    void this.ensureDir(path.slice(0, path.lastIndexOf('/')) || '/');
    this.notify(path);
  }

  private notify(path: string): void {
    const cut = path.lastIndexOf('/');
    const listeners = this.watchers.get(path.slice(0, cut) || '/');
    if (listeners) for (const listener of listeners) listener(path.slice(cut + 1));
  }
}

function trim(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
