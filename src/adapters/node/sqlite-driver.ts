import { createRequire } from 'node:module';
import { openBunSqlite, type BunSqliteModule } from './bun-sqlite-driver.js';

/**
 * The part of a SQLite driver the index uses: better-sqlite3's API, which Bun's bun:sqlite
 * mirrors closely enough to be adapted ({@link openBunSqlite}). `raw()` and `pluck()` switch a
 * statement's row mode for good, as in better-sqlite3 (each SQL text is always used one way).
 */
export interface SqliteStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  iterate(...params: unknown[]): IterableIterator<unknown>;
  raw(): SqliteStatement;
  pluck(): SqliteStatement;
}

/** A transaction function: the wrapped function run in BEGIN … COMMIT, or BEGIN IMMEDIATE. */
export interface SqliteTransaction<A extends unknown[], R> {
  (...args: A): R;
  deferred(...args: A): R;
  immediate(...args: A): R;
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(sql: string, options?: { simple?: boolean }): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R>;
  close(): unknown;
}

/** Opens (creating) the database file at `path`, waiting up to `timeoutMs` for a locked database. */
export type SqliteOpener = (path: string, timeoutMs: number) => SqliteDatabase;

let opener: SqliteOpener | undefined;

/**
 * The driver of this runtime, loaded on first use (a native module costs a start several
 * milliseconds): bun:sqlite under Bun, where better-sqlite3's V8 addon cannot load, else
 * better-sqlite3. Both pass the same ItemIndexStore contract suite (seed 004 "Rollout,
 * rollback, and proof": bunx and Bun's runtime must agree with Node).
 */
export function sqliteOpener(): SqliteOpener {
  opener ??= (process.versions as { bun?: string }).bun ? bunOpener() : betterSqliteOpener();
  return opener;
}

function betterSqliteOpener(): SqliteOpener {
  type Driver = new (path: string, options: { timeout: number }) => SqliteDatabase;
  const Driver = createRequire(import.meta.url)('better-sqlite3') as Driver;
  return (path, timeoutMs) => new Driver(path, { timeout: timeoutMs });
}

function bunOpener(): SqliteOpener {
  const bun = createRequire(import.meta.url)('bun:sqlite') as BunSqliteModule;
  return (path, timeoutMs) => openBunSqlite(bun, path, timeoutMs);
}
