/**
 * The bun:sqlite adapter (src/adapters/node/bun-sqlite-driver.ts) under Node: bun:sqlite itself
 * only exists under Bun (where smoke:mcp runs the contract suite on it with `bun test`), so here
 * the adapter drives a stand-in with bun:sqlite's API — `values()` for rows as arrays, `get()`
 * giving null for no row, statements that run whether or not they return rows, `new
 * Database(path, { create, readwrite })` — built on this runtime's own driver (better-sqlite3 or
 * node:sqlite). The whole ItemIndexStore contract then runs through the adapter.
 */
import { openBunSqlite, type BunSqliteModule } from '../../../../src/adapters/node/bun-sqlite-driver.js';
import type { SqliteDatabase, SqliteStatement } from '../../../../src/adapters/node/sqlite-driver.js';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import { RUNTIME_SQLITE_DRIVERS } from '../../../support/sqlite-drivers.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeItemIndexContract, entry, put } from '../item-index-contract.js';

const base = RUNTIME_SQLITE_DRIVERS[0]!;

/** Rows of a statement the bun:sqlite way: a statement that returns no rows runs and gives none. */
function rows(statement: () => SqliteStatement, params: unknown[]): unknown[] {
  try {
    return statement().all(...params);
  } catch (error) {
    // better-sqlite3 refuses all() on a statement without result columns; bun:sqlite runs it.
    if (!/does not return data/.test(String((error as Error).message))) throw error;
    statement().run(...params);
    return [];
  }
}

/** bun:sqlite's Database API over the runtime's driver (statements are fresh per mode, as bun's are). */
class BunLikeDatabase {
  readonly opened: { path: string; options: { create: boolean; readwrite: boolean } };
  private readonly db: SqliteDatabase;

  constructor(path: string, options: { create: boolean; readwrite: boolean }) {
    this.opened = { path, options };
    this.db = base.open(path, 1000);
  }

  prepare(sql: string) {
    const db = this.db;
    return {
      get: (...params: unknown[]) => rows(() => db.prepare(sql), params)[0] ?? null,
      all: (...params: unknown[]) => rows(() => db.prepare(sql), params),
      values: (...params: unknown[]) => rows(() => db.prepare(sql).raw(), params) as unknown[][],
      run: (...params: unknown[]) => db.prepare(sql).run(...params),
      iterate: (...params: unknown[]) => db.prepare(sql).iterate(...params),
    };
  }

  exec(sql: string) {
    return this.db.exec(sql);
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R) {
    return this.db.transaction(fn);
  }

  close() {
    return this.db.close();
  }
}

const opened: BunLikeDatabase[] = [];
const bunLike: BunSqliteModule = {
  Database: class extends BunLikeDatabase {
    constructor(path: string, options: { create: boolean; readwrite: boolean }) {
      super(path, options);
      opened.push(this);
    }
  },
};
const opener = (path: string, timeoutMs: number) => openBunSqlite(bunLike, path, timeoutMs);

const dir = useTempDir('pm-bun-sqlite-');

describeItemIndexContract('SqliteItemIndex over the bun:sqlite adapter', async () => new SqliteItemIndex(`${dir()}/runtime/index.sqlite`, opener));

describe('openBunSqlite', () => {
  it('opens read-write, creating the file, and sets the busy timeout', () => {
    const db = opener(`${dir()}/a.sqlite`, 15_000.7);
    expect(opened.at(-1)!.opened).toEqual({ path: `${dir()}/a.sqlite`, options: { create: true, readwrite: true } });
    expect(db.pragma('busy_timeout', { simple: true })).toBe(15_000);
    db.close();
  });

  it('gives better-sqlite3’s row modes: objects, raw() arrays, pluck() first columns; undefined for no row', () => {
    const db = opener(`${dir()}/b.sqlite`, 1000);
    db.exec('CREATE TABLE t(a, b)');
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    expect(insert.run(1, 'x')).toMatchObject({ changes: 1, lastInsertRowid: 1 });
    insert.run(2, 'y');
    expect(db.prepare('SELECT a, b FROM t ORDER BY a').all()).toEqual([{ a: 1, b: 'x' }, { a: 2, b: 'y' }]);
    expect(db.prepare('SELECT a, b FROM t WHERE a = ?').get(2)).toEqual({ a: 2, b: 'y' });
    expect(db.prepare('SELECT a, b FROM t WHERE a = ?').get(3)).toBeUndefined();
    const raw = db.prepare('SELECT a, b FROM t ORDER BY a').raw();
    expect(raw.all()).toEqual([[1, 'x'], [2, 'y']]);
    expect(raw.get()).toEqual([1, 'x']);
    expect([...raw.iterate()]).toEqual([[1, 'x'], [2, 'y']]);
    const pluck = db.prepare('SELECT b FROM t WHERE a >= ? ORDER BY a').pluck();
    expect(pluck.all(1)).toEqual(['x', 'y']);
    expect(pluck.get(2)).toBe('y');
    expect(pluck.get(9)).toBeUndefined();
    expect([...pluck.iterate(1)]).toEqual(['x', 'y']);
    db.close();
  });

  it('answers pragma() as better-sqlite3 does: rows, or with simple the first value', () => {
    const db = opener(`${dir()}/c.sqlite`, 1000);
    db.pragma('user_version = 7');
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    expect(db.pragma('user_version')).toEqual([{ user_version: 7 }]);
    db.close();
  });

  it('runs the index’s lifecycle through it: rows written by one connection are read by another', () => {
    const path = `${dir()}/index.sqlite`;
    const a = new SqliteItemIndex(path, opener);
    expect(a.open()).toEqual({ created: true, reason: 'missing' });
    a.apply([put(entry('pm-a1'))]);
    const b = new SqliteItemIndex(path, opener);
    expect(b.open()).toEqual({ created: false });
    expect(b.get('pm-a1')?.id).toBe('pm-a1');
    a.close();
    b.close();
  });
});
