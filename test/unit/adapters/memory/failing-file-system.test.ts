import { FailingFileSystem } from '../../../../src/adapters/memory/failing-file-system.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { StorageError } from '../../../../src/domain/errors/index.js';
import { describeFileSystemContract } from '../file-system-contract.js';

// With no fault armed the decorator is the file system it wraps.
describeFileSystemContract('FailingFileSystem (no fault armed)', async () => {
  const inner = new MemoryFileSystem();
  await inner.ensureDir('/root');
  return {
    fs: new FailingFileSystem(inner),
    root: '/root',
    writeBytes: async (path, bytes) => inner.writeBytes(path, bytes),
    mkdir: (path) => inner.ensureDir(path),
    symlink: async (target, path) => inner.symlink(target, path),
    special: async (path) => inner.makeSpecial(path),
    removeFile: (path) => inner.remove(path),
    replaceFile: async (path, bytes) => inner.writeBytes(path, bytes),
  };
});

describe('FailingFileSystem', () => {
  test('fails exactly the Nth write call, once, with the typed error of its code; reads are not counted', async () => {
    const inner = new MemoryFileSystem();
    const fs = new FailingFileSystem(inner);
    fs.failAt({ at: 2, code: 'EROFS', mode: 'once' });
    await fs.writeAtomic('/d/a', 'one');
    expect(await fs.readText('/d/a')).toBe('one');
    const error = await fs.writeAtomic('/d/b', 'two').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ reason: 'read_only', data: { code: 'EROFS', path: '/d/b' } });
    expect(await inner.readText('/d/b')).toBeUndefined();
    await fs.writeAtomic('/d/c', 'three');
    expect(fs.fired).toBe(true);
    expect(fs.failures).toBe(1);
    expect(fs.log).toEqual(['writeAtomic', 'writeAtomic', 'writeAtomic']);
  });

  test.each([
    ['ENOSPC', 'storage_full'],
    ['EIO', 'storage_error'],
    ['EROFS', 'read_only'],
    ['EACCES', 'permission_denied'],
  ] as const)('%s is reported as %s', async (code, reason) => {
    const fs = new FailingFileSystem(new MemoryFileSystem());
    fs.failAt({ at: 1, code, mode: 'once' });
    await expect(fs.ensureDir('/x')).rejects.toMatchObject({ reason, jsonRpcCode: -31055, exitCode: 9 });
  });

  test('a full disk tears an append (part of its first line is written) and stays full, but lets a file be cut back or removed', async () => {
    const inner = new MemoryFileSystem();
    const fs = new FailingFileSystem(inner);
    await fs.append('/log', 'kept\n');
    fs.failAt({ at: 1, code: 'ENOSPC', mode: 'lasting' });
    await expect(fs.append('/log', 'abcdefgh\nsecond\n')).rejects.toMatchObject({ reason: 'storage_full' });
    expect(await inner.readText('/log')).toBe('kept\nabcd');
    await expect(fs.append('/log', 'more\n')).rejects.toMatchObject({ reason: 'storage_full' });
    await expect(fs.writeAtomic('/other', 'x')).rejects.toMatchObject({ reason: 'storage_full' });
    await fs.truncate('/log', 5);
    expect(await inner.readText('/log')).toBe('kept\n');
    fs.heal();
    await fs.append('/log', 'again\n');
    expect(await inner.readText('/log')).toBe('kept\nagain\n');
  });

  test('a lasting I/O error fails every later write, cut-backs included (a dead process, a broken device)', async () => {
    const inner = new MemoryFileSystem();
    const fs = new FailingFileSystem(inner);
    fs.failAt({ at: 1, code: 'EIO', mode: 'lasting', torn: false });
    await expect(fs.append('/log', 'line\n')).rejects.toMatchObject({ reason: 'storage_error' });
    expect(await inner.readText('/log')).toBeUndefined();
    await expect(fs.truncate('/log', 0)).rejects.toMatchObject({ reason: 'storage_error' });
    await expect(fs.remove('/log')).rejects.toMatchObject({ reason: 'storage_error' });
    expect(fs.failures).toBe(3);
  });

  test('counts from the moment a fault is armed', async () => {
    const fs = new FailingFileSystem(new MemoryFileSystem());
    await fs.writeAtomic('/a', '1');
    await fs.writeAtomic('/b', '2');
    fs.failAt({ at: 1, code: 'EACCES', mode: 'once' });
    expect(fs.writeCalls).toBe(0);
    await expect(fs.createExclusive('/c', '3')).rejects.toMatchObject({ reason: 'permission_denied' });
    expect(await fs.createExclusive('/c', '3')).toBe(true);
  });
});
