import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';

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

  it('scans only the direct files of a directory, sorted by name', async () => {
    const fs = new MemoryFileSystem();
    await fs.writeAtomic('/p/items/b.md', 'b');
    await fs.writeAtomic('/p/items/a.md', 'a');
    await fs.writeAtomic('/p/items/sub/c.md', 'c');
    await fs.writeAtomic('/p/itemsx/d.md', 'd');
    const entries = await fs.scan('/p/items/');
    expect(entries.map((e) => e.name)).toEqual(['a.md', 'b.md']);
    expect(entries[0]!.signature).toEqual(await fs.stat('/p/items/a.md'));
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
});
