import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '../../../../src/adapters/node/node-file-system.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeFileSystemContract } from '../file-system-contract.js';

const contractDirs: string[] = [];
afterEach(async () => {
  for (const dir of contractDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describeFileSystemContract('NodeFileSystem', async () => {
  const root = await mkdtemp(join(tmpdir(), 'pm-nodefs-contract-'));
  contractDirs.push(root);
  return {
    fs: new NodeFileSystem(),
    root,
    writeBytes: async (path, bytes) => {
      await mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
      await writeFile(path, bytes);
    },
    mkdir: async (path) => {
      await mkdir(path, { recursive: true });
    },
    symlink: (target, path) => symlink(target, path),
    special: async (path) => {
      execFileSync('mkfifo', [path]);
    },
    removeFile: (path) => unlink(path),
    replaceFile: async (path, bytes) => {
      await writeFile(`${path}.tmp`, bytes);
      await rename(`${path}.tmp`, path);
    },
  };
});

describe('NodeFileSystem', () => {
  const temp = useTempDir('pm-nodefs-');
  const fs = new NodeFileSystem();

  it('reports missing files as undefined, empty ranges and empty scans', async () => {
    const dir = temp();
    expect(await fs.readText(`${dir}/nope.md`)).toBeUndefined();
    expect(await fs.readTextRange(`${dir}/nope.md`, 0, 10)).toBe('');
    expect(await fs.stat(`${dir}/nope.md`)).toBeUndefined();
    expect(await fs.scan(`${dir}/no-such-dir`)).toEqual([]);
    expect(await fs.isDirectory(`${dir}/no-such-dir`)).toBe(false);
    expect(await fs.isDirectory(dir)).toBe(true);
    await expect(fs.remove(`${dir}/nope.md`)).resolves.toBeUndefined();
  });

  it('writes atomically: parents are created, the inode changes, no temp file stays behind', async () => {
    const dir = temp();
    const path = `${dir}/a/b/item.md`;
    await fs.writeAtomic(path, 'first');
    const before = (await fs.stat(path))!;
    await fs.writeAtomic(path, 'second, longer');
    const after = (await fs.stat(path))!;
    expect(await fs.readText(path)).toBe('second, longer');
    expect(after.ino).not.toBe(before.ino);
    expect(after.size).toBe('second, longer'.length);
    for (let i = 0; i < 20; i++) await fs.writeAtomic(path, `round ${i}`);
    expect(await readdir(`${dir}/a/b`)).toEqual(['item.md']);
  });

  it('leaves the old file and no temp file when the replacement cannot be renamed into place', async () => {
    const dir = temp();
    await mkdir(`${dir}/taken`);
    await writeFile(`${dir}/taken/keep.txt`, 'kept');
    await expect(fs.writeAtomic(`${dir}/taken`, 'would replace a directory')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readFile(`${dir}/taken/keep.txt`, 'utf8')).toBe('kept');
  });

  it('writes atomically in durable mode too (fsync before rename)', async () => {
    const dir = temp();
    const durable = new NodeFileSystem({ durable: true });
    await durable.writeAtomic(`${dir}/x/d.md`, 'synced ✓');
    await durable.writeAtomic(`${dir}/x/d.md`, 'synced again ✓');
    expect(await durable.readText(`${dir}/x/d.md`)).toBe('synced again ✓');
    expect(await readdir(`${dir}/x`)).toEqual(['d.md']);
  });

  it('reads byte ranges of UTF-8 text', async () => {
    const dir = temp();
    const path = `${dir}/log`;
    const text = 'ab€cd\n🙂z\n';
    await fs.writeAtomic(path, text);
    const bytes = Buffer.from(text, 'utf8');
    expect(await fs.readTextRange(path, 0)).toBe(text);
    expect(await fs.readTextRange(path, 2, 5)).toBe('€');
    expect(await fs.readTextRange(path, 5)).toBe('cd\n🙂z\n');
    expect(await fs.readTextRange(path, 5, bytes.length + 100)).toBe('cd\n🙂z\n');
    expect(await fs.readTextRange(path, bytes.length)).toBe('');
    expect(await fs.readTextRange(path, bytes.length + 10, bytes.length + 20)).toBe('');
    expect((await fs.stat(path))!.size).toBe(bytes.length);
  });

  it('appends in order, creating the file and its directory', async () => {
    const dir = temp();
    const path = `${dir}/runtime/changes.log`;
    await fs.append(path, 'one\n');
    const first = (await fs.stat(path))!;
    await fs.append(path, 'two ✓\n');
    const second = (await fs.stat(path))!;
    expect(await fs.readText(path)).toBe('one\ntwo ✓\n');
    expect(second.ino).toBe(first.ino);
    expect(second.size).toBe(Buffer.byteLength('one\ntwo ✓\n'));
  });

  it('creates a file exclusively: the second attempt loses and changes nothing', async () => {
    const dir = temp();
    const path = `${dir}/ids/pm-abc.md`;
    expect(await fs.createExclusive(path, 'mine')).toBe(true);
    expect(await fs.createExclusive(path, 'theirs')).toBe(false);
    expect(await fs.readText(path)).toBe('mine');
  });

  it('removes files', async () => {
    const dir = temp();
    await fs.writeAtomic(`${dir}/gone.md`, 'x');
    await fs.remove(`${dir}/gone.md`);
    expect(await fs.stat(`${dir}/gone.md`)).toBeUndefined();
  });

  it('scans the direct entries of one directory with their signatures, a directory marked by its kind', async () => {
    const dir = temp();
    await fs.writeAtomic(`${dir}/items/a.md`, 'aaa');
    await fs.writeAtomic(`${dir}/items/b.md`, 'bb€');
    await fs.ensureDir(`${dir}/items/sub`);
    await fs.writeAtomic(`${dir}/items/sub/c.md`, 'deeper');
    const entries = (await fs.scan(`${dir}/items`)).sort((x, y) => (x.name < y.name ? -1 : 1));
    expect(entries.map((e) => e.name)).toEqual(['a.md', 'b.md', 'sub']);
    expect(entries[0]!.signature).toEqual(await fs.stat(`${dir}/items/a.md`));
    expect(entries[1]!.signature.size).toBe(5);
    expect(entries[2]!.signature.kind).toBe('directory');
  });

  it('scans large directories completely', async () => {
    const dir = temp();
    await Promise.all(Array.from({ length: 2500 }, (_, i) => writeFile(`${dir}/f${i}.md`, String(i))));
    const entries = await fs.scan(dir);
    expect(entries).toHaveLength(2500);
    expect(new Set(entries.map((e) => e.name)).size).toBe(2500);
  });

  it('watches a directory and stops when told', async () => {
    const dir = temp();
    const seen: (string | undefined)[] = [];
    let wake: () => void = () => undefined;
    const stop = fs.watch(dir, (name) => {
      seen.push(name);
      wake();
    });
    try {
      const noticed = new Promise<void>((resolve, reject) => {
        wake = resolve;
        setTimeout(() => reject(new Error('no watch event within 5 s')), 5000).unref();
      });
      await fs.writeAtomic(`${dir}/watched.md`, 'x');
      await noticed;
      expect(seen.some((name) => name === undefined || name === 'watched.md' || name.startsWith('watched.md.tmp'))).toBe(true);
    } finally {
      stop();
    }
    const count = seen.length;
    // A barrier: a second watch of the same directory sees the write. Watches of one directory
    // are told of an event in the same pass of the event loop, so once the barrier has heard of
    // it and that pass is over (setImmediate), a watch still running would have heard too.
    let barrierSaw!: () => void;
    const barrierNoticed = new Promise<void>((resolve) => (barrierSaw = resolve));
    const stopBarrier = fs.watch(dir, (name) => {
      if (name === 'after-stop.md') barrierSaw();
    });
    try {
      await fs.writeAtomic(`${dir}/after-stop.md`, 'y');
      await barrierNoticed;
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stopBarrier();
    }
    expect(seen.slice(count)).toEqual([]);
  });

  it('watching a missing directory is a no-op that can be stopped', () => {
    const stop = fs.watch(`${temp()}/missing`, () => undefined);
    expect(() => stop()).not.toThrow();
  });

  it('refuses a listing whose directory was swapped for a link to elsewhere, and pins reads made through it', async () => {
    const dir = temp();
    await mkdir(`${dir}/skill/refs`, { recursive: true });
    await writeFile(`${dir}/skill/refs/a.md`, 'inside');
    await mkdir(`${dir}/elsewhere`);
    await writeFile(`${dir}/elsewhere/a.md`, 'secret');
    const listed = await fs.listEntries(`${dir}/skill/refs`, { limit: 10 });
    if (listed.status !== 'listed') throw new Error(listed.reason);
    const entry = listed.entries.find((e) => e.name === 'a.md')!;
    await rename(`${dir}/skill/refs`, `${dir}/skill/refs-moved`);
    await symlink(`${dir}/elsewhere`, `${dir}/skill/refs`);
    expect(await fs.listEntries(`${dir}/skill/refs`, { limit: 10 })).toEqual({ status: 'refused', reason: 'symlink' });
    expect(await fs.readBytes(`${dir}/skill/refs/a.md`, { maxBytes: 100, id: entry.id })).toEqual({ status: 'refused', reason: 'changed' });
  });

  it('refuses a file that grew after it was measured without reading past the reserved size', async () => {
    const dir = temp();
    await writeFile(`${dir}/f`, 'abc');
    const before = (await fs.inspect(`${dir}/f`))!;
    await writeFile(`${dir}/f`, 'abcdef', { flag: 'a' });
    expect(await fs.readBytes(`${dir}/f`, { maxBytes: before.size, id: before.id })).toEqual({ status: 'refused', reason: 'too-large' });
  });

  it('opens a FIFO without blocking and refuses it', async () => {
    const dir = temp();
    execFileSync('mkfifo', [`${dir}/pipe`]);
    expect(await fs.readBytes(`${dir}/pipe`, { maxBytes: 10 })).toEqual({ status: 'refused', reason: 'not-a-file' });
  });

  it('lets the event loop run during a long run of link-free calls', async () => {
    const dir = temp();
    let ran = false;
    setImmediate(() => (ran = true));
    const start = performance.now();
    while (!ran && performance.now() - start < 5000) await fs.inspect(dir);
    expect(ran).toBe(true);
  });

  it('refuses a listing with an entry it cannot describe (a file name that is not UTF-8) instead of leaving it out', async () => {
    const dir = temp();
    await mkdir(`${dir}/d`);
    await writeFile(`${dir}/d/ok.md`, 'ok');
    await writeFile(Buffer.concat([Buffer.from(`${dir}/d/`), Buffer.from([0x66, 0xff])]), 'latin1 name');
    expect(await fs.listEntries(`${dir}/d`, { limit: 10 })).toEqual({ status: 'refused', reason: 'changed' });
  });
  it('refuses a device as a tracker file (lstat before open), and a link to one, without reading a byte', async () => {
    const dir = temp();
    const own = { maxBytes: 1024 };
    await expect(fs.readText('/dev/zero', own)).rejects.toMatchObject({ reason: 'not_a_regular_file', message: expect.stringContaining('a device') });
    await symlink('/dev/zero', `${dir}/zero.md`);
    await expect(fs.readText(`${dir}/zero.md`, own)).rejects.toMatchObject({ reason: 'symlink' });
    await expect(fs.append('/dev/null', 'x')).rejects.toMatchObject({ reason: 'not_a_regular_file' });
  });
});
