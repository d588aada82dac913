import { RefusedFileError } from '../../domain/errors/index.js';
import type { DirectoryEntry, DirectoryListing, FileNodeEntry, FileNodeInfo, FileSignature, FileSystem, OwnFileRead, RawFileRead, RawReadExpectation, WatchListener } from '../../ports/file-system.js';
import { MemoryNodeTree } from './memory-node-tree.js';

interface Node {
  content: string;
  /** Set for files written as bytes (possibly not UTF-8); `content` is then their lossy decoding. */
  raw?: Uint8Array;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

const encoder = new TextEncoder();

/**
 * An in-memory FileSystem for unit tests and embedding. Paths are '/'-separated; directories
 * are implied by files and by ensureDir. Atomic writes get a fresh inode like a rename would.
 *
 * Symbolic links and special nodes (a FIFO or socket) are made with the `symlink` and
 * `makeSpecial` test helpers. Every call follows links in leading path components, as the
 * kernel would (a final link is reported, never followed); `stat` and `scan` describe them (and directories) by their signature's `kind`, a tracker-file read
 * (`own`), `append`, `truncate` and `writeAtomic` refuse them as the node adapter does, and any other read
 * finds nothing there. Every call that reads a body is counted in
 * `bodyReads`, so a test can prove that a decision was taken from metadata alone.
 */
export class MemoryFileSystem implements FileSystem {
  private readonly files = new Map<string, Node>();
  private readonly dirs = new Set<string>(['/']);
  private readonly tree = new MemoryNodeTree();
  private readonly watchers = new Map<string, Set<WatchListener>>();
  private readonly treeWatchers = new Map<string, Set<WatchListener>>();
  private nextIno = 1;
  private tick = 0;
  private reads = 0;

  /** Test helper: how many calls read a file body (readText, readTextRange, readBytes). */
  get bodyReads(): number {
    return this.reads;
  }

  async readText(path: string, own?: OwnFileRead): Promise<string | undefined> {
    path = this.real(path);
    this.reads++;
    if (own) this.refuseOwnRead(path, own);
    return this.files.get(path)?.content;
  }

  async readTextRange(path: string, start: number, end?: number, own?: OwnFileRead): Promise<string> {
    path = this.real(path);
    this.reads++;
    if (own) this.refuseOwnRead(path, own);
    const node = this.files.get(path);
    const bytes = node?.raw ?? encoder.encode(node?.content ?? '');
    return new TextDecoder().decode(bytes.slice(start, end));
  }

  async writeAtomic(path: string, content: string): Promise<void> {
    path = this.real(path);
    this.refuseSpecial(path, 'replace');
    this.put(path, content, true);
  }

  async createExclusive(path: string, content: string): Promise<boolean> {
    path = this.real(path);
    if (this.files.has(path) || this.specialKind(path) || this.dirs.has(trim(path))) return false;
    this.put(path, content, true);
    return true;
  }

  async append(path: string, content: string): Promise<void> {
    path = this.real(path);
    this.refuseSpecial(path, 'write');
    const node = this.files.get(path);
    this.put(path, (node?.content ?? '') + content, !node);
  }

  async truncate(path: string, size: number): Promise<void> {
    path = this.real(path);
    this.refuseSpecial(path, 'write');
    const node = this.files.get(path);
    if (!node || node.size <= size) return;
    const bytes = (node.raw ?? encoder.encode(node.content)).slice(0, size);
    this.put(path, new TextDecoder().decode(bytes), false, node.raw ? bytes : undefined);
  }

  async remove(path: string): Promise<void> {
    path = this.real(path);
    if (this.files.delete(path) || this.specialKind(path)) {
      this.tree.forget(path);
      this.notify(path);
    }
  }

  async stat(path: string): Promise<FileSignature | undefined> {
    path = this.real(path);
    const node = this.files.get(path);
    if (node) return { size: node.size, mtimeMs: node.mtimeMs, ino: node.ino, ctimeMs: node.ctimeMs };
    const kind = this.specialKind(path) ?? (this.dirs.has(trim(path)) ? 'directory' : undefined);
    return kind ? { size: 0, mtimeMs: 0, ino: Number(this.tree.infoOf(trim(path))!.id), ctimeMs: 0, kind } : undefined;
  }

  async isDirectory(path: string): Promise<boolean> {
    path = this.real(path);
    return this.dirs.has(trim(path));
  }

  async scan(dir: string): Promise<DirectoryEntry[]> {
    dir = this.real(dir);
    const prefix = `${trim(dir)}/`;
    const out: DirectoryEntry[] = [];
    for (const path of this.files.keys()) {
      if (!path.startsWith(prefix) || path.slice(prefix.length).includes('/')) continue;
      out.push({ name: path.slice(prefix.length), signature: (await this.stat(path))! });
    }
    for (const name of this.tree.childrenOf(trim(dir))) {
      const path = `${prefix}${name}`;
      if (this.specialKind(path) || this.dirs.has(path)) out.push({ name, signature: (await this.stat(path))! });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  async visitFiles(dir: string, visit: (name: string, signature: FileSignature) => void): Promise<void> {
    for (const { name, signature } of await this.scan(dir)) visit(name, signature);
  }

  async ensureDir(path: string): Promise<void> {
    path = this.real(path);
    this.addDirs(path);
  }

  async inspect(path: string): Promise<FileNodeInfo | undefined> {
    const resolved = this.tree.resolveParents(trim(path));
    return resolved === undefined ? undefined : this.infoOf(resolved);
  }

  async listEntries(dir: string, options: { readonly limit: number }): Promise<DirectoryListing> {
    const resolved = this.tree.resolveParents(trim(dir));
    const node = resolved === undefined ? undefined : this.infoOf(resolved);
    if (!node || resolved === undefined) return { status: 'refused', reason: 'missing' };
    if (node.kind === 'symlink') return { status: 'refused', reason: 'symlink' };
    if (node.kind !== 'directory') return { status: 'refused', reason: 'not-a-directory' };
    const names = this.tree.childrenOf(resolved);
    const entries: FileNodeEntry[] = [];
    for (const name of names.slice(0, options.limit)) {
      entries.push({ name, ...this.infoOf(resolved === '/' ? `/${name}` : `${resolved}/${name}`)! });
    }
    return { status: 'listed', id: node.id, entries, truncated: names.length > options.limit };
  }

  async readBytes(path: string, expect: RawReadExpectation): Promise<RawFileRead> {
    this.reads++;
    const resolved = this.tree.resolveParents(trim(path));
    const info = resolved === undefined ? undefined : this.infoOf(resolved);
    if (!info || resolved === undefined) return { status: 'refused', reason: 'missing' };
    if (info.kind === 'symlink') return { status: 'refused', reason: 'symlink' };
    if (info.kind !== 'file') return { status: 'refused', reason: 'not-a-file' };
    if (expect.id !== undefined && expect.id !== info.id) return { status: 'refused', reason: 'changed' };
    if (info.size > expect.maxBytes) return { status: 'refused', reason: 'too-large' };
    const node = this.files.get(resolved)!;
    const bytes = node.raw ? node.raw.slice() : encoder.encode(node.content);
    if (!expect.into || expect.into.length <= bytes.length) return { status: 'read', bytes };
    expect.into.set(bytes);
    return { status: 'read', bytes: expect.into.subarray(0, bytes.length) };
  }

  /** Test helper: writes raw bytes (which need not be UTF-8) as a file with a new inode. */
  writeBytes(path: string, bytes: Uint8Array): void {
    this.put(path, new TextDecoder().decode(bytes), true, bytes.slice());
  }

  /**
   * Test helper: rewrites a file in place (same inode) and puts its modification time back to
   * `mtimeMs`, as an editor followed by `touch -r` would; its status change time moves on.
   */
  editInPlace(path: string, content: string, mtimeMs: number): void {
    this.put(path, content, false);
    this.files.get(path)!.mtimeMs = mtimeMs;
  }

  /** Test helper: a symbolic link at `path` pointing at `target` (absolute, or relative to the link's directory). */
  symlink(target: string, path: string): void {
    const at = trim(path);
    this.files.delete(at);
    this.addDirs(parentOf(at));
    this.tree.addLink(at, target, String(this.nextIno++));
  }

  /** Test helper: a node that is neither file, directory nor link (a FIFO or a socket). */
  makeSpecial(path: string): void {
    const at = trim(path);
    this.files.delete(at);
    this.addDirs(parentOf(at));
    this.tree.addSpecial(at, String(this.nextIno++));
  }

  watch(dir: string, listener: WatchListener): () => void {
    const key = trim(dir);
    const set = this.watchers.get(key) ?? new Set();
    set.add(listener);
    this.watchers.set(key, set);
    return () => set.delete(listener);
  }

  watchTree(dir: string, listener: WatchListener): () => void {
    const key = trim(dir);
    if (!this.dirs.has(key) && key !== '/') return () => undefined;
    const set = this.treeWatchers.get(key) ?? new Set();
    set.add(listener);
    this.treeWatchers.set(key, set);
    return () => set.delete(listener);
  }

  /** Test helper: live watch listeners on `dir`, or on every directory when omitted. */
  watcherCount(dir?: string): number {
    if (dir !== undefined) return this.watchers.get(trim(dir))?.size ?? 0;
    let count = 0;
    for (const set of this.watchers.values()) count += set.size;
    for (const set of this.treeWatchers.values()) count += set.size;
    return count;
  }

  /** Test helper: every path held, sorted. */
  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  /** path with the links among its leading components followed, as the kernel resolves a path for any call (a final link is kept). */
  private real(path: string): string {
    const resolved = path.includes('/') && path !== '/' ? this.tree.resolveParents(path) : undefined;
    return resolved === undefined || resolved === trim(path) ? path : resolved;
  }

  private put(path: string, content: string, newInode: boolean, raw?: Uint8Array): void {
    const old = this.files.get(path);
    const size = raw ? raw.length : encoder.encode(content).length;
    const at = ++this.tick;
    this.files.set(path, { content, ...(raw ? { raw } : {}), size, mtimeMs: at, ctimeMs: at, ino: newInode || !old ? this.nextIno++ : old.ino });
    this.addDirs(parentOf(path));
    this.tree.addFile(path);
    this.notify(path);
  }

  private addDirs(path: string): void {
    const created: string[] = [];
    for (let p = trim(path); p && p !== '/'; p = parentOf(p)) {
      if (this.dirs.has(p)) break;
      this.dirs.add(p);
      this.tree.addDirectory(p, String(this.nextIno++));
      created.push(p);
    }
    // A new directory is an event in its parent, as mkdir is for a real watch (outermost first).
    for (const dir of created.reverse()) this.notify(dir);
  }

  /** 'symlink' or 'other' when path (unresolved) names a link or special node. */
  private specialKind(path: string): 'symlink' | 'other' | undefined {
    if (this.files.has(path)) return undefined;
    const kind = this.tree.infoOf(trim(path))?.kind;
    return kind === 'symlink' || kind === 'other' ? kind : undefined;
  }

  private refuseSpecial(path: string, doing: string): void {
    const kind = this.specialKind(path);
    if (kind === 'symlink') throw new RefusedFileError(path, 'symlink', `is a symbolic link, not a regular file; pm does not ${doing} it`);
    if (!kind && this.dirs.has(trim(path))) throw new RefusedFileError(path, 'not_a_regular_file', `is a directory, not a regular file; pm does not ${doing} it`);
    if (kind) throw new RefusedFileError(path, 'not_a_regular_file', `is a FIFO, not a regular file; pm does not ${doing} it`);
  }

  private refuseOwnRead(path: string, own: OwnFileRead): void {
    this.refuseSpecial(path, 'read');
    const size = this.files.get(path)?.size ?? 0;
    if (size > own.maxBytes) throw new RefusedFileError(path, 'too_large', `has ${size} bytes, above the ${own.maxBytes}-byte cap of such a file; pm does not read it`);
  }

  private infoOf(path: string): FileNodeInfo | undefined {
    const file = this.files.get(path);
    if (file) return { kind: 'file', size: file.size, id: String(file.ino) };
    return this.tree.infoOf(path);
  }

  private notify(path: string): void {
    const cut = path.lastIndexOf('/');
    const listeners = this.watchers.get(path.slice(0, cut) || '/');
    if (listeners) for (const listener of listeners) listener(path.slice(cut + 1));
    for (const [dir, set] of this.treeWatchers) {
      const prefix = dir === '/' ? '/' : `${dir}/`;
      if (!path.startsWith(prefix)) continue;
      for (const listener of set) listener(path.slice(prefix.length));
    }
  }
}

function trim(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/';
}
