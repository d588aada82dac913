import { postingRows } from '../../../support/sqlite-postings.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import { SystemClock } from '../../../../src/adapters/node/system-clock.js';
import { IndexSync } from '../../../../src/domain/tracker/index-sync.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import { writeBulkItems } from '../../../support/bulk-items.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { sqliteOpener } from '../../../../src/adapters/node/sqlite-driver.js';
import type { IndexChange } from '../../../../src/ports/item-index-store.js';
import { population, prng, put, sig } from '../item-index-contract.js';

const dir = useTempDir('pm-first-build-');

describe('the first build of a shared SQLite index', () => {
  it('is done by one of two processes needing it at once; the other waits and reads no file', async () => {
    const fs = new MemoryFileSystem();
    const paths = new TrackerPaths('/t/.agents/pm');
    await writeBulkItems(fs, paths.items, 1200);
    const path = `${dir()}/index.sqlite`;
    const stores = [new SqliteItemIndex(path), new SqliteItemIndex(path)];
    const progress: number[][] = [[], []];
    const syncs = stores.map((store, n) => new IndexSync(fs, new SystemClock(), paths, store, { onProgress: (done) => progress[n]!.push(done) }));
    await Promise.all(syncs.map((sync) => sync.refresh()));
    expect(stores.map((store) => store.size())).toEqual([1200, 1200]);
    // Only the builder read files: its progress rose to every file, in the build's batches.
    const reported = progress.filter((calls) => calls.length > 0);
    expect(reported).toHaveLength(1);
    expect(reported[0]!.at(-1)).toBe(1200);
    expect(reported[0]!.every((done, n) => n === 0 || done > reported[0]![n - 1]!)).toBe(true);
    expect(fs.bodyReads).toBe(1200);
    // What one built, the other answers from, as the same index.
    expect(stores[1]!.readiness({ status: 'open', nowIso: '2026-02-15T00:00:00.000Z', limit: 3 })).toEqual(stores[0]!.readiness({ status: 'open', nowIso: '2026-02-15T00:00:00.000Z', limit: 3 }));
    for (const store of stores) store.close();
  });

  it('builds from the directory listing into an index that records only unreadable files: every file read once, records of files gone dropped', async () => {
    const fs = new MemoryFileSystem();
    const paths = new TrackerPaths('/t/.agents/pm');
    await fs.writeAtomic(paths.itemFile('pm-broken1'), 'not: [an item');
    await fs.writeAtomic(paths.itemFile('pm-broken2'), 'not: [an item either');
    const store = new SqliteItemIndex(`${dir()}/problems.sqlite`);
    const sync = new IndexSync(fs, new SystemClock(), paths, store);
    await sync.refresh();
    expect(store.size()).toBe(0);
    expect(store.problems().map(({ id }) => id)).toEqual(['pm-broken1', 'pm-broken2']);
    await fs.remove(paths.itemFile('pm-broken1'));
    const ids = await writeBulkItems(fs, paths.items, 1100);
    const before = fs.bodyReads;
    await sync.refresh();
    expect(fs.bodyReads - before).toBe(1101);
    expect(store.size()).toBe(1100);
    expect(store.problems().map(({ id }) => id)).toEqual(['pm-broken2']);
    expect(store.fileOf('pm-broken1')).toBeUndefined();
    expect(store.get(ids[1099]!)?.id).toBe(ids[1099]);
    // Nothing changed since: the next check reads no file.
    const after = fs.bodyReads;
    await sync.refresh();
    expect(fs.bodyReads).toBe(after);
    store.close();
  });

  it('fills the database with the rows, marks and indexes the same changes applied in place give', () => {
    const random = prng(11);
    const all = population(random, 1500);
    const changes: IndexChange[] = all.map((e, n) => put(e, n, { racy: n % 9 === 0, hash: 5000 + n }));
    changes.splice(700, 0, { kind: 'problem', problem: { id: 'pm-bad', message: 'unreadable' }, file: { signature: sig(9999), hash: 3, racy: false } });
    const built = new SqliteItemIndex(`${dir()}/built.sqlite`);
    built.open();
    const build = built.startBuild();
    if (typeof build === 'string') throw new Error(`build refused: ${build}`);
    for (let from = 0; from < changes.length; from += 400) build.add(changes.slice(from, from + 400));
    build.finish();
    built.close();
    const applied = new SqliteItemIndex(`${dir()}/applied.sqlite`);
    applied.open();
    applied.apply(changes);
    applied.close();
    const [a, b] = [`${dir()}/built.sqlite`, `${dir()}/applied.sqlite`].map((path) => dump(path));
    expect(a!.tables.postings!.length).toBeGreaterThan(5000);
    expect(a!.tables.items!.some((row) => row.includes('blocked=1'))).toBe(true);
    expect(a!.tables.items!.some((row) => row.includes('busy=1'))).toBe(true);
    expect(a).toEqual(b);
  });
});

/** Every row of every table but the word tables, every posting (word ids as their words, which number in any order), and the schema. */
function dump(path: string): { schema: unknown[]; tables: Record<string, string[]> } {
  const db = sqliteOpener()(path, 1000);
  try {
    const words = new Map((db.prepare('SELECT wid, word FROM vocab').raw().all() as [number, string][]));
    const word = (wid: unknown) => words.get(wid as number);
    const rows = (sql: string, show: (row: Record<string, unknown>) => unknown = (row) => row) =>
      (db.prepare(sql).all() as Record<string, unknown>[]).map((row) => JSON.stringify(show(row))).sort();
    const tables: Record<string, string[]> = {};
    for (const table of ['meta', 'files', 'tags', 'links']) tables[table] = rows(`SELECT * FROM ${table}`);
    tables.items = rows('SELECT * FROM items', (row) => Object.entries(row).map(([key, value]) => `${key}=${String(value)}`).join(' '));
    tables.texts = rows('SELECT * FROM texts', (row) => ({ ...row, words: (JSON.parse(row.words as string) as [number, ...number[]][]).map(([wid, ...counts]) => [word(wid), ...counts]) }));
    tables.postings = postingRows(db).map((row) => JSON.stringify(row));
    tables.vocab = rows('SELECT word FROM vocab');
    const schema = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all();
    return { schema, tables };
  } finally {
    db.close();
  }
}
