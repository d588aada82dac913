import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { describeFileSystemContract } from '../file-system-contract.js';

describeFileSystemContract('MemoryFileSystem', async () => {
  const fs = new MemoryFileSystem();
  await fs.ensureDir('/root');
  return {
    fs,
    root: '/root',
    writeBytes: async (path, bytes) => fs.writeBytes(path, bytes),
    mkdir: (path) => fs.ensureDir(path),
    symlink: async (target, path) => fs.symlink(target, path),
    special: async (path) => fs.makeSpecial(path),
    removeFile: (path) => fs.remove(path),
    replaceFile: async (path, bytes) => fs.writeBytes(path, bytes),
  };
});

describe('MemoryFileSystem', () => {
  it('reports missing files like the node adapter does', async () => {
    const fs = new MemoryFileSystem();
    expect(await fs.readText('/p/x.md')).toBeUndefined();
    expect(await fs.readTextRange('/p/x.md', 0, 4)).toBe('');
    expect(await fs.stat('/p/x.md')).toBeUndefined();
    expect(await fs.scan('/p')).toEqual([]);
    await expect(fs.remove('/p/x.md')).resolves.toBeUndefined();
  });

  it('gives every atomic write a new inode and keeps the inode on append', async () => {
    const fs = new MemoryFileSystem();
    await fs.writeAtomic('/p/a.md', 'one');
    const first = (await fs.stat('/p/a.md'))!;
    await fs.writeAtomic('/p/a.md', 'two');
    const second = (await fs.stat('/p/a.md'))!;
    expect(second.ino).not.toBe(first.ino);
    expect(second.mtimeMs).toBeGreaterThan(first.mtimeMs);
    await fs.append('/p/a.md', '+');
    const third = (await fs.stat('/p/a.md'))!;
    expect(third.ino).toBe(second.ino);
    expect(third.mtimeMs).toBeGreaterThan(second.mtimeMs);
    expect(await fs.readText('/p/a.md')).toBe('two+');
  });

  it('measures sizes and ranges in UTF-8 bytes', async () => {
    const fs = new MemoryFileSystem();
    await fs.append('/p/log', 'ab€\n');
    await fs.append('/p/log', '🙂\n');
    expect((await fs.stat('/p/log'))!.size).toBe(Buffer.byteLength('ab€\n🙂\n'));
    expect(await fs.readTextRange('/p/log', 2, 5)).toBe('€');
    expect(await fs.readTextRange('/p/log', 6)).toBe('🙂\n');
    expect(await fs.readTextRange('/p/log', 100)).toBe('');
  });

  it('creates exclusively', async () => {
    const fs = new MemoryFileSystem();
    expect(await fs.createExclusive('/p/id', 'mine')).toBe(true);
    expect(await fs.createExclusive('/p/id', 'theirs')).toBe(false);
    expect(await fs.readText('/p/id')).toBe('mine');
  });

  it('scans only the direct entries of a directory, sorted by name, a directory marked by its kind', async () => {
    const fs = new MemoryFileSystem();
    await fs.writeAtomic('/p/items/b.md', 'b');
    await fs.writeAtomic('/p/items/a.md', 'a');
    await fs.writeAtomic('/p/items/sub/c.md', 'c');
    await fs.writeAtomic('/p/itemsx/d.md', 'd');
    const entries = await fs.scan('/p/items/');
    expect(entries.map((e) => e.name)).toEqual(['a.md', 'b.md', 'sub']);
    expect(entries[0]!.signature).toEqual(await fs.stat('/p/items/a.md'));
    expect(entries[2]!.signature).toMatchObject({ kind: 'directory' });
  });

  it('knows directories from ensureDir and from the files in them', async () => {
    const fs = new MemoryFileSystem();
    await fs.ensureDir('/p/q/r');
    expect(await fs.isDirectory('/p/q/r')).toBe(true);
    expect(await fs.isDirectory('/p/q')).toBe(true);
    expect(await fs.isDirectory('/p/other')).toBe(false);
    await fs.writeAtomic('/p/other/f', 'x');
    expect(await fs.isDirectory('/p/other')).toBe(true);
    expect(await fs.isDirectory('/p/other/f')).toBe(false);
  });

  it('tells watchers of a directory about writes, appends and removals until stopped', async () => {
    const fs = new MemoryFileSystem();
    const seen: (string | undefined)[] = [];
    const stop = fs.watch('/p/items', (name) => seen.push(name));
    await fs.writeAtomic('/p/items/a.md', 'x');
    await fs.append('/p/items/log', 'y');
    await fs.remove('/p/items/a.md');
    await fs.remove('/p/items/a.md');
    await fs.writeAtomic('/p/elsewhere/b.md', 'z');
    stop();
    await fs.writeAtomic('/p/items/c.md', 'after stop');
    expect(seen).toEqual(['a.md', 'log', 'a.md']);
  });

  it('lists every path it holds', async () => {
    const fs = new MemoryFileSystem();
    await fs.writeAtomic('/z', '1');
    await fs.writeAtomic('/a/b', '2');
    expect(fs.paths()).toEqual(['/a/b', '/z']);
  });

  it('counts every body read, and no metadata call reads a body', async () => {
    const fs = new MemoryFileSystem();
    fs.writeBytes('/s/a/SKILL.md', new Uint8Array([1, 2, 3]));
    fs.symlink('/s/a', '/s/b');
    await fs.listEntries('/s', { limit: 10 });
    await fs.listEntries('/s/a', { limit: 10 });
    await fs.inspect('/s/a/SKILL.md');
    await fs.stat('/s/a/SKILL.md');
    await fs.scan('/s/a');
    expect(fs.bodyReads).toBe(0);
    await fs.readBytes('/s/a/SKILL.md', { maxBytes: 10 });
    await fs.readBytes('/s/b', { maxBytes: 10 });
    await fs.readText('/s/a/SKILL.md');
    await fs.readTextRange('/s/a/SKILL.md', 0, 1);
    expect(fs.bodyReads).toBe(4);
  });

  it('hands out copies of raw bytes, so a reader cannot alter the stored file', async () => {
    const fs = new MemoryFileSystem();
    const source = new Uint8Array([0xff, 0x00]);
    fs.writeBytes('/f', source);
    source[0] = 1;
    const first = await fs.readBytes('/f', { maxBytes: 2 });
    if (first.status === 'read') first.bytes[1] = 9;
    expect(await fs.readBytes('/f', { maxBytes: 2 })).toEqual({ status: 'read', bytes: new Uint8Array([0xff, 0x00]) });
    expect((await fs.stat('/f'))!.size).toBe(2);
  });

  it('gives up on a link loop instead of resolving forever', async () => {
    const fs = new MemoryFileSystem();
    fs.symlink('/loop/b', '/loop/a');
    fs.symlink('/loop/a', '/loop/b');
    expect(await fs.readBytes('/loop/a/x', { maxBytes: 1 })).toEqual({ status: 'refused', reason: 'missing' });
    expect(await fs.listEntries('/loop/a/x', { limit: 1 })).toEqual({ status: 'refused', reason: 'missing' });
    expect(await fs.inspect('/loop/a')).toMatchObject({ kind: 'symlink' });
  });

  it('resolves relative link targets against the link\'s directory', async () => {
    const fs = new MemoryFileSystem();
    fs.writeBytes('/t/real/f.md', new TextEncoder().encode('f'));
    fs.symlink('../real', '/t/alias/up');
    expect(await fs.inspect('/t/alias/up/f.md')).toEqual(await fs.inspect('/t/real/f.md'));
  });
});
