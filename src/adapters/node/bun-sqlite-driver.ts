import type { SqliteDatabase, SqliteStatement, SqliteTransaction } from './sqlite-driver.js';

/** The part of Bun's bun:sqlite module the adapter uses (typed here: pm builds without bun's types). */
export interface BunSqliteModule {
  Database: new (path: string, options: { create: boolean; readwrite: boolean }) => BunDatabase;
}

interface BunStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  values(...params: unknown[]): unknown[][];
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

interface BunDatabase {
  prepare(sql: string): BunStatement;
  exec(sql: string): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R>;
  close(): unknown;
}

type Mode = 'object' | 'raw' | 'pluck';

/** better-sqlite3's statement modes over a bun:sqlite statement (`values()` gives rows as arrays). */
class BunStatementAdapter implements SqliteStatement {
  private mode: Mode = 'object';

  constructor(private readonly statement: BunStatement) {}

  raw(): SqliteStatement {
    this.mode = 'raw';
    return this;
  }

  pluck(): SqliteStatement {
    this.mode = 'pluck';
    return this;
  }

  get(...params: unknown[]): unknown {
    if (this.mode === 'object') return this.statement.get(...params) ?? undefined;
    const [row] = this.statement.values(...params);
    if (row === undefined) return undefined;
    return this.mode === 'raw' ? row : row[0];
  }

  all(...params: unknown[]): unknown[] {
    if (this.mode === 'object') return this.statement.all(...params);
    const rows = this.statement.values(...params);
    return this.mode === 'raw' ? rows : rows.map((row) => row[0]);
  }

  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    return this.statement.run(...params);
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.mode === 'object' ? this.statement.iterate(...params) : this.all(...params)[Symbol.iterator]();
  }
}

/** better-sqlite3's database API over bun:sqlite. */
class BunDatabaseAdapter implements SqliteDatabase {
  constructor(private readonly db: BunDatabase) {}

  prepare(sql: string): SqliteStatement {
    return new BunStatementAdapter(this.db.prepare(sql));
  }

  exec(sql: string): unknown {
    return this.db.exec(sql);
  }

  /** `PRAGMA <sql>`: its rows as objects or, with `simple`, the first column of the first row, as better-sqlite3 answers. */
  pragma(sql: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.db.prepare(`PRAGMA ${sql}`);
    return options.simple ? statement.values()[0]?.[0] : statement.all();
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R> {
    return this.db.transaction(fn);
  }

  close(): unknown {
    return this.db.close();
  }
}

/**
 * Opens a database with bun:sqlite behind better-sqlite3's API, so the SQLite index runs under
 * Bun's runtime (bunx) with the same contract (seed 004 "Rollout, rollback, and proof").
 * bun:sqlite's errors carry the same `SQLITE_*` codes in `code`.
 */
export function openBunSqlite(bun: BunSqliteModule, path: string, timeoutMs: number): SqliteDatabase {
  const db = new bun.Database(path, { create: true, readwrite: true });
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(timeoutMs)}`);
  } catch (error) {
    db.close();
    throw error;
  }
  return new BunDatabaseAdapter(db);
}
