import type { SqliteDatabase, SqliteStatement, SqliteTransaction } from './sqlite-driver.js';

/** The part of Node's node:sqlite module the adapter uses (typed here: pm builds against Node 20's types). */
export interface NodeSqliteModule {
  DatabaseSync: new (path: string) => NodeDatabase;
}

interface NodeStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...params: unknown[]): IterableIterator<unknown>;
  setReturnArrays(enabled: boolean): void;
}

interface NodeDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
  readonly isTransaction: boolean;
}

/**
 * Whether this node:sqlite has what the adapter needs: rows as arrays (`setReturnArrays`, Node
 * 22.16 and 24) and `iterate`. Older ones (22.13–22.15) are not used; better-sqlite3 is.
 */
export function nodeSqliteUsable(sqlite: NodeSqliteModule): boolean {
  const probe = new sqlite.DatabaseSync(':memory:');
  try {
    const statement = probe.prepare('SELECT 1') as Partial<NodeStatement>;
    return typeof statement.setReturnArrays === 'function' && typeof statement.iterate === 'function' && typeof probe.isTransaction === 'boolean';
  } finally {
    probe.close();
  }
}

/**
 * SQLite's result codes by number (primary codes; an extended code's low byte is its primary),
 * so node:sqlite's errors carry the `SQLITE_*` code better-sqlite3 and bun:sqlite give.
 */
const RESULT_CODES = [
  'SQLITE_OK', 'SQLITE_ERROR', 'SQLITE_INTERNAL', 'SQLITE_PERM', 'SQLITE_ABORT', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_NOMEM',
  'SQLITE_READONLY', 'SQLITE_INTERRUPT', 'SQLITE_IOERR', 'SQLITE_CORRUPT', 'SQLITE_NOTFOUND', 'SQLITE_FULL', 'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL', 'SQLITE_EMPTY', 'SQLITE_SCHEMA', 'SQLITE_TOOBIG', 'SQLITE_CONSTRAINT', 'SQLITE_MISMATCH', 'SQLITE_MISUSE',
  'SQLITE_NOLFS', 'SQLITE_AUTH', 'SQLITE_FORMAT', 'SQLITE_RANGE', 'SQLITE_NOTADB',
] as const;
/** The extended codes the index tells apart (sqlite3.h). */
const EXTENDED_CODES: Readonly<Record<number, string>> = { 267: 'SQLITE_CORRUPT_VTAB', 517: 'SQLITE_BUSY_SNAPSHOT', 261: 'SQLITE_BUSY_RECOVERY' };

/** `error` with `code` set to its SQLite result code name, when node:sqlite gave one (`errcode`). */
export function withSqliteCode(error: unknown): unknown {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  // Not `instanceof Error`: node:sqlite's errors may come from another realm (a vm context).
  if (typeof errcode !== 'number' || typeof error !== 'object' || error === null) return error;
  const code = EXTENDED_CODES[errcode] ?? RESULT_CODES[errcode & 0xff] ?? 'SQLITE_ERROR';
  return Object.assign(error, { code, sqliteCode: (error as { code?: unknown }).code });
}

function translated<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw withSqliteCode(error);
  }
}

/** better-sqlite3's statement modes over a node:sqlite statement (`setReturnArrays` for raw and pluck). */
class NodeStatementAdapter implements SqliteStatement {
  private pluckFirst = false;

  constructor(private readonly statement: NodeStatement) {}

  raw(): SqliteStatement {
    this.statement.setReturnArrays(true);
    return this;
  }

  pluck(): SqliteStatement {
    this.statement.setReturnArrays(true);
    this.pluckFirst = true;
    return this;
  }

  get(...params: unknown[]): unknown {
    const row = translated(() => this.statement.get(...params));
    return this.pluckFirst && row !== undefined ? (row as unknown[])[0] : row;
  }

  all(...params: unknown[]): unknown[] {
    const rows = translated(() => this.statement.all(...params));
    return this.pluckFirst ? rows.map((row) => (row as unknown[])[0]) : rows;
  }

  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    const result = translated(() => this.statement.run(...params));
    return { changes: Number(result.changes), lastInsertRowid: result.lastInsertRowid };
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    if (this.pluckFirst) return this.all(...params)[Symbol.iterator]();
    return translated(() => this.statement.iterate(...params));
  }
}

/** better-sqlite3's database API over node:sqlite: `pragma()`, and `transaction()` with savepoints when nested. */
class NodeDatabaseAdapter implements SqliteDatabase {
  private savepoints = 0;

  constructor(private readonly db: NodeDatabase) {}

  prepare(sql: string): SqliteStatement {
    return new NodeStatementAdapter(translated(() => this.db.prepare(sql)));
  }

  exec(sql: string): unknown {
    translated(() => this.db.exec(sql));
    return this;
  }

  /** `PRAGMA <sql>`: its rows as objects or, with `simple`, the first column of the first row, as better-sqlite3 answers. */
  pragma(sql: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${sql}`);
    return options.simple ? statement.pluck().get() : statement.all();
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R> {
    const run = (begin: string) => (...args: A): R => this.inTransaction(begin, () => fn(...args));
    return Object.assign(run('BEGIN'), { deferred: run('BEGIN DEFERRED'), immediate: run('BEGIN IMMEDIATE') });
  }

  close(): unknown {
    this.db.close();
    return this;
  }

  /**
   * Runs `body` in a transaction begun with `begin`, committed when it returns and rolled back
   * when it throws; inside another transaction, in a savepoint instead (as better-sqlite3 does).
   * A rollback SQLite already made (after SQLITE_FULL, say) is not made again.
   */
  private inTransaction<R>(begin: string, body: () => R): R {
    const nested = this.db.isTransaction;
    const name = `pm_${this.savepoints++}`;
    this.exec(nested ? `SAVEPOINT ${name}` : begin);
    try {
      const result = body();
      this.exec(nested ? `RELEASE ${name}` : 'COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.exec(nested ? `ROLLBACK TO ${name}; RELEASE ${name}` : 'ROLLBACK');
      throw error;
    } finally {
      this.savepoints--;
    }
  }
}

/**
 * Opens a database with node:sqlite (Node ≥ 22.16) behind better-sqlite3's API, so an install on
 * a current Node needs no native module (the ItemIndexStore contract suite runs on it under every
 * supported Node). Errors carry SQLite's `SQLITE_*` code in `code`, as with the other drivers.
 */
export function openNodeSqlite(sqlite: NodeSqliteModule, path: string, timeoutMs: number): SqliteDatabase {
  const db = translated(() => new sqlite.DatabaseSync(path));
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(timeoutMs)}`);
  } catch (error) {
    db.close();
    throw withSqliteCode(error);
  }
  return new NodeDatabaseAdapter(db);
}
