import type { FileSystem } from '../../ports/file-system.js';
import { RefusedFileError } from '../errors/index.js';

const CONFINED = Symbol('pm.confinedRoot');

/**
 * The FileSystem port of one tracker whose writes never leave it through a link
 * (docs/TRACKER.md "What pm reads and writes"): before any write below `root` (replace,
 * exclusive create, append, cut back, remove, make a directory), every directory between
 * `root` and the target that already exists must be a real directory, seen without following
 * links (`inspect`, lstat). A link (`items/` pointing at another directory, a `.runtime/` linked
 * elsewhere) or another node there is refused with RefusedFileError before a byte is written;
 * the final component is the adapter's to refuse (it never writes through a link either).
 *
 * `root` itself and the directories above it are followed as the kernel resolves them: a
 * tracker kept elsewhere behind a linked `.agents/pm` is a setup a user chose. Paths outside
 * `root` (the project's `.gitattributes`, git's merge temp files) pass through unchanged.
 * Reads pass through unchanged too. What remains is the adapter's race: node has no openat(),
 * so a directory swapped for a link between this check and the write is not seen.
 */
export function confinedFileSystem(fs: FileSystem, root: string): FileSystem {
  const top = root.length > 1 ? root.replace(/\/+$/, '') : root;
  if ((fs as { [CONFINED]?: string })[CONFINED] === top) return fs;
  const check = async (path: string, self: boolean): Promise<void> => {
    if (!path.startsWith(`${top}/`)) return;
    const parts = path.slice(top.length + 1).split('/').filter((part) => part !== '');
    if (!self) parts.pop();
    let dir = top;
    for (const part of parts) {
      dir = `${dir}/${part}`;
      const node = await fs.inspect(dir);
      if (node === undefined) return;
      if (node.kind === 'symlink') throw new RefusedFileError(dir, 'symlink', 'is a symbolic link, not a directory; pm writes nothing below it (the directories inside a tracker must be real directories)');
      if (node.kind !== 'directory') throw new RefusedFileError(dir, 'not_a_regular_file', `is ${node.kind === 'file' ? 'a file' : 'a FIFO, socket or device'}, not a directory; pm writes nothing below it`);
    }
  };
  const guarded = {
    writeAtomic: async (path: string, content: string) => (await check(path, false), fs.writeAtomic(path, content)),
    createExclusive: async (path: string, content: string) => (await check(path, false), fs.createExclusive(path, content)),
    append: async (path: string, content: string) => (await check(path, false), fs.append(path, content)),
    truncate: async (path: string, size: number) => (await check(path, false), fs.truncate(path, size)),
    remove: async (path: string) => (await check(path, false), fs.remove(path)),
    ensureDir: async (path: string) => (await check(path, true), fs.ensureDir(path)),
  };
  return new Proxy(fs, {
    get(target, property) {
      if (property === CONFINED) return top;
      if (Object.hasOwn(guarded, property)) return guarded[property as keyof typeof guarded];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
