import { mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { HealingItemIndex } from '../../../../src/adapters/node/healing-item-index.js';
import type { SqliteOpener } from '../../../../src/adapters/node/sqlite-driver.js';
import { sqliteOpener } from '../../../../src/adapters/node/sqlite-driver.js';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import { IndexResetError, LockTimeoutError } from '../../../../src/domain/errors/index.js';
import { failingOpener } from '../../../support/failing-sqlite-opener.js';
import { thrownBy } from '../../../support/thrown.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeItemIndexContract, entry, put } from '../item-index-contract.js';

const dir = useTempDir('pm-healing-index-');

describeItemIndexContract('HealingItemIndex over SQLite', async () => new HealingItemIndex(new SqliteItemIndex(`${dir()}/runtime/index.sqlite`), () => new MemoryItemIndex(), () => undefined));

function healing(path: string, opener?: SqliteOpener, busyTimeoutMs?: number) {
  const lines: string[] = [];
  const sqlite = new SqliteItemIndex(path, opener, { sortBelow: 2000, walk: 5000, ...(busyTimeoutMs ? { busyTimeoutMs } : {}) }, (reason) => lines.push(`damaged: ${reason}`));
  const store = new HealingItemIndex(sqlite, () => new MemoryItemIndex(), (text) => lines.push(text));
  return { store, lines };
}

const header = (path: string) => readFileSync(path).subarray(0, 16).toString('latin1');

describe('HealingItemIndex: a damaged index file is made anew', () => {
  it('notices a file truncated under its open connection at the next open, and makes it anew', () => {
    const path = `${dir()}/index.sqlite`;
    const { store, lines } = healing(path);
    store.open();
    store.apply([put(entry('pm-a1'))]);
    truncateSync(path, 0);
    expect(store.open()).toEqual({ created: true, reason: 'corrupt' });
    expect(store.size()).toBe(0);
    store.apply([put(entry('pm-a2'))]);
    expect(store.get('pm-a2')?.id).toBe('pm-a2');
    expect(header(path)).toBe('SQLite format 3\0');
    expect(lines).toEqual(['damaged: the index file is empty (truncated)']);
    store.close();
  });

  it('opens a file truncated beside the log another connection holds without waiting for its locks', () => {
    const path = `${dir()}/index.sqlite`;
    const holder = healing(path).store;
    holder.open();
    holder.apply([put(entry('pm-a1'))]);
    truncateSync(path, 0);
    const { store } = healing(path, undefined, 60_000);
    const started = Date.now();
    expect(store.open()).toEqual({ created: true, reason: 'corrupt' });
    expect(Date.now() - started).toBeLessThan(2000);
    store.apply([put(entry('pm-a2'))]);
    // The holder finds another file at the path and reads that one.
    expect(holder.open()).toEqual({ created: false, replaced: true });
    expect(holder.get('pm-a2')?.id).toBe('pm-a2');
    holder.close();
    store.close();
  });

  it('replaces a directory at the index path', () => {
    const path = `${dir()}/index.sqlite`;
    mkdirSync(`${path}/inside`, { recursive: true });
    const { store, lines } = healing(path);
    expect(store.open()).toEqual({ created: true, reason: 'corrupt' });
    expect(statSync(path).isFile()).toBe(true);
    expect(lines).toEqual(['damaged: a directory is at the index path']);
    store.close();
  });

  it('notices garbage written over the file it holds (same inode)', () => {
    const path = `${dir()}/index.sqlite`;
    const { store } = healing(path);
    store.open();
    store.apply([put(entry('pm-a1'))]);
    const ino = statSync(path).ino;
    writeFileSync(path, 'not a database '.repeat(1000));
    expect(statSync(path).ino).toBe(ino);
    expect(store.open()).toEqual({ created: true, reason: 'corrupt' });
    expect(store.size()).toBe(0);
    store.close();
  });

  it('reads past junk in the write-ahead log and its index', () => {
    const path = `${dir()}/index.sqlite`;
    const first = healing(path).store;
    first.open();
    first.apply([put(entry('pm-a1'))]);
    first.close();
    writeFileSync(`${path}-wal`, 'junk '.repeat(2000));
    writeFileSync(`${path}-shm`, 'junk '.repeat(8000));
    const { store } = healing(path);
    // SQLite ignores a log whose checksums fail and rebuilds its shared-memory index from the log.
    expect(store.open()).toEqual({ created: false });
    expect(store.get('pm-a1')?.id).toBe('pm-a1');
    store.apply([put(entry('pm-a2'))]);
    expect(store.get('pm-a2')?.id).toBe('pm-a2');
    store.close();
  });

  it('removes a file a statement finds corrupt and says the index was reset, so the sync rebuilds it', () => {
    const path = `${dir()}/index.sqlite`;
    let corrupt = false;
    const { store, lines } = healing(path, failingOpener('SQLITE_CORRUPT', () => corrupt));
    store.open();
    store.apply([put(entry('pm-a1'))]);
    corrupt = true;
    thrownBy(() => store.page({ filter: {}, sort: ['id'], descending: false, limit: 10 }), IndexResetError);
    corrupt = false;
    expect(store.open()).toEqual({ created: true, reason: 'missing' });
    expect(store.size()).toBe(0);
    expect(lines).toEqual(['damaged: SQLITE_CORRUPT: injected SQLITE_CORRUPT']);
    store.close();
  });

  it('waits for a real writer at most its busy timeout, then fails as a lock timeout and keeps the file', () => {
    const path = `${dir()}/index.sqlite`;
    const writer = sqliteOpener()(path, 1000);
    const { store } = healing(path, undefined, 150);
    store.open();
    store.apply([put(entry('pm-a1'))]);
    writer.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    thrownBy(() => store.apply([put(entry('pm-a2'))]), LockTimeoutError);
    expect(Date.now() - started).toBeLessThan(5000);
    writer.exec('ROLLBACK');
    writer.close();
    expect(store.open()).toEqual({ created: false });
    expect(store.get('pm-a1')?.id).toBe('pm-a1');
    store.close();
  });
});

describe('HealingItemIndex: an index that cannot be written gives way to the in-memory index', () => {
  for (const code of ['SQLITE_READONLY', 'SQLITE_FULL', 'EROFS', 'ENOSPC']) {
    it(`keeps the index in memory after ${code} on opening, and says so once`, () => {
      const path = `${dir()}/index.sqlite`;
      const { store, lines } = healing(path, failingOpener(code, () => true));
      expect(store.open()).toEqual({ created: true, reason: 'missing', own: true });
      expect(store.keptInMemory).toBe(true);
      store.apply([put(entry('pm-a1'))]);
      expect(store.get('pm-a1')?.id).toBe('pm-a1');
      expect(store.open()).toEqual({ created: false, own: true });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`cannot be written (${code}: injected ${code}), so this process keeps the index in memory`);
      store.close();
    });
  }

  it('switches to memory when a write fails mid-way, and says the index was reset so the sync reads every file', () => {
    const path = `${dir()}/index.sqlite`;
    let full = false;
    const { store, lines } = healing(path, failingOpener('SQLITE_FULL', () => full));
    store.open();
    store.apply([put(entry('pm-a1'))]);
    full = true;
    thrownBy(() => store.apply([put(entry('pm-a2'))]), IndexResetError);
    expect(store.open()).toEqual({ created: true, reason: 'missing', own: true });
    expect(store.keptInMemory).toBe(true);
    expect(lines).toHaveLength(1);
    // The file is kept for the other processes: nothing was wrong with it.
    expect(header(path)).toBe('SQLite format 3\0');
    store.close();
  });

  it('keeps the index in memory when a directory at the path cannot be removed', () => {
    const path = `${dir()}/index.sqlite`;
    mkdirSync(path);
    const lines: string[] = [];
    const sqlite = new SqliteItemIndex(path);
    const stubborn = Object.assign(Object.create(sqlite) as SqliteItemIndex, {
      discard: () => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
      open: () => {
        throw Object.assign(new Error('EISDIR: illegal operation on a directory'), { code: 'EISDIR' });
      },
    });
    const store = new HealingItemIndex(stubborn, () => new MemoryItemIndex(), (text) => lines.push(text));
    expect(store.open()).toEqual({ created: true, reason: 'missing', own: true });
    expect(store.keptInMemory).toBe(true);
    expect(lines).toHaveLength(1);
    store.close();
  });
});
