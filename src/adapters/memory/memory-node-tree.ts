import type { FileNodeInfo } from '../../ports/file-system.js';

const MAX_LINK_HOPS = 40;

/**
 * The directory structure of MemoryFileSystem: which names each directory holds, plus the
 * nodes that are not files (directories with their ids, symbolic links, special nodes). It
 * resolves links in leading path components the way the kernel does, with the same hop limit
 * as Linux (40), and reports a final link as a link.
 */
export class MemoryNodeTree {
  private readonly children = new Map<string, Set<string>>();
  private readonly links = new Map<string, { readonly target: string; readonly id: string }>();
  private readonly specials = new Map<string, string>();
  private readonly directories = new Map<string, string>([['/', '0']]);

  /** A file's name (a link or special node at that path is replaced). */
  addFile(path: string): void {
    this.links.delete(path);
    this.specials.delete(path);
    this.link(path);
  }

  addDirectory(path: string, id: string): void {
    this.directories.set(path, id);
    this.link(path);
  }

  addLink(path: string, target: string, id: string): void {
    if (this.directories.has(path)) throw new Error(`MemoryFileSystem: ${path} is a directory`);
    this.specials.delete(path);
    this.links.set(path, { target, id });
    this.link(path);
  }

  addSpecial(path: string, id: string): void {
    if (this.directories.has(path)) throw new Error(`MemoryFileSystem: ${path} is a directory`);
    this.links.delete(path);
    this.specials.set(path, id);
    this.link(path);
  }

  /** Forgets a removed file's name (links and special nodes at that path go too). */
  forget(path: string): void {
    this.links.delete(path);
    this.specials.delete(path);
    this.children.get(parentOf(path))?.delete(nameOf(path));
  }

  /** The names directly in dir, sorted. */
  childrenOf(dir: string): string[] {
    return [...(this.children.get(dir) ?? [])].sort();
  }

  /** Metadata of a directory, link or special node at an already resolved path. */
  infoOf(path: string): FileNodeInfo | undefined {
    const link = this.links.get(path);
    if (link) return { kind: 'symlink', size: new TextEncoder().encode(link.target).length, id: link.id };
    const special = this.specials.get(path);
    if (special) return { kind: 'other', size: 0, id: special };
    const dir = this.directories.get(path);
    return dir === undefined ? undefined : { kind: 'directory', size: 0, id: dir };
  }

  /** path with every link among its leading components followed; undefined on a link loop. */
  resolveParents(path: string): string | undefined {
    return this.resolve(normalize(path), false, 0);
  }

  private resolve(path: string, followLast: boolean, hops: number): string | undefined {
    const parts = path.split('/').filter((part) => part !== '');
    let current = '/';
    for (let i = 0; i < parts.length; i++) {
      const next = join(current, parts[i]!);
      const link = i < parts.length - 1 || followLast ? this.links.get(next) : undefined;
      if (!link) {
        current = next;
        continue;
      }
      if (hops >= MAX_LINK_HOPS) return undefined;
      const resolved = this.resolve(normalize(link.target.startsWith('/') ? link.target : join(current, link.target)), true, hops + 1);
      if (resolved === undefined) return undefined;
      current = resolved;
    }
    return current;
  }

  private link(path: string): void {
    if (path === '/') return;
    const parent = parentOf(path);
    const set = this.children.get(parent) ?? new Set<string>();
    set.add(nameOf(path));
    this.children.set(parent, set);
  }
}

function join(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/';
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}
