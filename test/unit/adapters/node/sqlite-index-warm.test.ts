import { createRequire } from 'node:module';
import { PostingColumns, type PostingColumn } from '../../../../src/adapters/node/sqlite-index-columns.js';
import type { SqliteStatement } from '../../../../src/adapters/node/sqlite-driver.js';
import { PostingWarmer } from '../../../../src/adapters/node/sqlite-index-warm.js';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { population, prng, put } from '../item-index-contract.js';

const dir = useTempDir('pm-sqlite-warm-');

interface Db {
  prepare(sql: string): SqliteStatement;
  pragma(sql: string, options: { simple: true }): unknown;
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => Db;

/** An index file of random texts over a few words, some far more frequent than others. */
function seeded(path: string, count: number): SqliteItemIndex {
  const random = prng(5);
  const words = ['index', 'cache', 'reindex', 'lock', 'ka', 'kalo', 'lo', 'mi', 'straße'];
  const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() ** 2 * words.length)]!).join(' ');
  const index = new SqliteItemIndex(path, undefined, { sortBelow: 2000, walk: 5000, postingColumns: false });
  index.open();
  index.apply(population(random, count).map((e, n) => put({ ...e, text: { title: text(3), body: text(12), comments: random() < 0.3 ? text(4) : '' } }, n)));
  return index;
}

/** Posting columns over their own connection to `path`. */
function columnsOf(path: string): { columns: PostingColumns; db: Db } {
  const db = new Database(path);
  return { db, columns: new PostingColumns((sql) => db.prepare(sql), () => String(db.pragma('data_version', { simple: true }))) };
}

const plainly = (column: PostingColumn) => [[...column.rids], [...column.t], [...column.b], [...column.c]];

/** Warms `columns` from `path`; resolves with the number of columns adopted. */
function warm(path: string, columns: PostingColumns, postings = 1_000_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const warmer = new PostingWarmer(path, columns, { postings, minPostings: 1, intervalMs: 0 }, (adopted, error) => (error ? reject(new Error(error)) : resolve(adopted)));
    warmer.start();
  });
}

describe('posting columns read ahead in a worker', () => {
  it('are the columns a search reads itself, for every word, most postings first within the budget', async () => {
    const path = `${dir()}/index.sqlite`;
    seeded(path, 300).close();
    const warmed = columnsOf(path);
    const adopted = await warm(path, warmed.columns);
    const plain = columnsOf(path);
    plain.columns.sync();
    const wids = plain.db.prepare('SELECT wid, count(*) FROM postings GROUP BY wid ORDER BY 2 DESC, 1').raw().all() as [number, number][];
    expect(adopted).toBe(wids.length);
    for (const [wid] of wids) {
      expect(warmed.columns.has(wid)).toBe(true);
      expect(plainly(warmed.columns.of(wid))).toEqual(plainly(plain.columns.of(wid)));
    }
    // A budget of the two largest words' postings: just those.
    const small = columnsOf(path);
    expect(await warm(path, small.columns, wids[0]![1] + wids[1]![1])).toBe(2);
    expect(wids.map(([wid]) => small.columns.has(wid))).toEqual(wids.map((_, k) => k < 2));
    for (const { db } of [warmed, plain, small]) db.close();
  });

  it('start at most once per interval, and not again for a state warmed already', async () => {
    const path = `${dir()}/index.sqlite`;
    const writer = seeded(path, 40);
    const { columns, db } = columnsOf(path);
    const warmed = (intervalMs: number) => {
      let ended: () => void = () => {};
      const warmer = new PostingWarmer(path, columns, { postings: 1_000_000, minPostings: 1, intervalMs }, () => ended());
      const start = () => new Promise<void>((resolve) => {
        ended = resolve;
        warmer.start();
        if (!warmer.busy) resolve();
      });
      return { warmer, start };
    };
    const hourly = warmed(3_600_000);
    await hourly.start();
    hourly.warmer.start();
    expect(hourly.warmer.busy).toBe(false);
    writer.apply([{ kind: 'gone', id: population(prng(5), 1)[0]!.id }]);
    hourly.warmer.start();
    expect(hourly.warmer.busy).toBe(false);
    // Without the interval the new state is warmed.
    const always = warmed(0);
    const done = always.start();
    expect(always.warmer.busy).toBe(true);
    await done;
    always.warmer.start();
    expect(always.warmer.busy).toBe(false);
    writer.close();
    db.close();
  });

  it('are refused once the database changed after the warm-up began, and never replace a column held', () => {
    const path = `${dir()}/index.sqlite`;
    const writer = seeded(path, 50);
    const { columns, db } = columnsOf(path);
    columns.sync();
    const state = columns.state!;
    const [wid] = db.prepare('SELECT wid FROM postings LIMIT 1').pluck().all() as number[];
    const column = { rids: new Int32Array([1]), t: new Uint8Array([1]), b: new Uint8Array([0]), c: new Uint8Array([0]) };
    expect(columns.adopt(wid!, column, state)).toBe(true);
    expect(columns.adopt(wid!, column, state)).toBe(false);
    writer.apply([{ kind: 'gone', id: population(prng(5), 1)[0]!.id }]);
    expect(columns.adopt(wid! + 1, column, state)).toBe(false);
    writer.close();
    db.close();
  });
});
