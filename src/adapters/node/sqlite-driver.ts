import { createRequire } from 'node:module';
import { openBunSqlite, type BunSqliteModule } from './bun-sqlite-driver.js';
import { nodeSqliteUsable, openNodeSqlite, type NodeSqliteModule } from './node-sqlite-driver.js';

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

export type SqliteDriverName = 'node:sqlite' | 'bun:sqlite' | 'better-sqlite3';

/** The SQLite driver this runtime loaded, and how to open a database with it. */
export interface SqliteDriver {
  readonly name: SqliteDriverName;
  readonly open: SqliteOpener;
}

/** What the driver choice asks of the runtime (the process itself in production; a stand-in in tests). */
export interface SqliteRuntime {
  /** `process.version` and, under Bun, Bun's version. */
  readonly node: string;
  readonly bun?: string;
  /** Loads a module (`require` from pm's own files). */
  load(id: string): unknown;
}

/**
 * No SQLite driver could load in this runtime (the index is then kept in memory: docs/TRACKER.md
 * "SQLite drivers"). The message names each driver tried with its whole error, and the fix.
 */
export class SqliteDriverUnavailableError extends Error {
  constructor(
    readonly tried: readonly { readonly name: SqliteDriverName; readonly reason: string }[],
    readonly fix: string,
  ) {
    super(['no SQLite driver could load for the index', ...SqliteDriverUnavailableError.details(tried, fix)].join('\n'));
    this.name = 'SqliteDriverUnavailableError';
  }

  /** One line per driver tried, with its whole error on that line, then the fix. */
  static details(tried: SqliteDriverUnavailableError['tried'], fix: string): string[] {
    return [...tried.map((t) => `  ${t.name}: ${t.reason.replace(/\s*\n\s*/g, ' ')}`), `  fix: ${fix}`];
  }
}

/** The first Node.js line whose node:sqlite has what the adapter needs ({@link nodeSqliteUsable}). */
export const NODE_SQLITE_FROM = 'v22.16.0';

/** Which driver to use: `auto` lets the runtime decide ({@link chooseSqliteDriver}). */
export type SqliteDriverPreference = 'auto' | SqliteDriverName;

/** A driver loaded, or why it could not load and what fixes that. */
type Attempt = SqliteDriver | { readonly reason: string; readonly fix: string };

const UPGRADE = `run pm with Node.js ${NODE_SQLITE_FROM.slice(1)} or later (node:sqlite is built in)`;

/** How each driver is loaded, and what fixes each failure. */
const LOADERS: Readonly<Record<SqliteDriverName, (runtime: SqliteRuntime) => Attempt>> = {
  'bun:sqlite': (runtime) => {
    try {
      const bun = runtime.load('bun:sqlite') as BunSqliteModule;
      return { name: 'bun:sqlite', open: (path, timeoutMs) => openBunSqlite(bun, path, timeoutMs) };
    } catch (error) {
      return { reason: messageOf(error), fix: `run pm with Bun, whose bun:sqlite is built in${runtime.bun === undefined ? '' : ` (this Bun ${runtime.bun} has none)`}` };
    }
  },
  'node:sqlite': (runtime) => {
    let sqlite: NodeSqliteModule;
    try {
      sqlite = withoutSqliteWarning(() => runtime.load('node:sqlite') as NodeSqliteModule);
    } catch {
      return { reason: `not in Node.js ${runtime.node} (built in from ${NODE_SQLITE_FROM})`, fix: UPGRADE };
    }
    if (!nodeSqliteUsable(sqlite)) return { reason: `Node.js ${runtime.node} has an early node:sqlite without rows as arrays (pm uses it from ${NODE_SQLITE_FROM})`, fix: UPGRADE };
    return { name: 'node:sqlite', open: (path, timeoutMs) => openNodeSqlite(sqlite, path, timeoutMs) };
  },
  'better-sqlite3': (runtime) => {
    try {
      type Driver = new (path: string, options: { timeout: number }) => SqliteDatabase;
      const Driver = runtime.load('better-sqlite3') as Driver;
      // Its native addon loads with the first database: open one now, so an addon built for
      // another Node's ABI shows here, not at the index's first query.
      new Driver(':memory:', { timeout: 0 }).close();
      return { name: 'better-sqlite3', open: (path, timeoutMs) => new Driver(path, { timeout: timeoutMs }) };
    } catch (error) {
      const missing = (error as { code?: unknown } | null)?.code === 'MODULE_NOT_FOUND';
      const how = missing ? `install better-sqlite3 for Node.js ${runtime.node} in pm's directory: npm install --no-save better-sqlite3` : `rebuild better-sqlite3 for Node.js ${runtime.node} in pm's directory: npm rebuild better-sqlite3`;
      return { reason: messageOf(error), fix: `${UPGRADE}, or ${how}` };
    }
  },
};

/**
 * The driver of a runtime (docs/TRACKER.md "SQLite drivers"): bun:sqlite under Bun; under Node,
 * the built-in node:sqlite where it has rows as arrays (22.16 and later, so an install there
 * builds no native module), else better-sqlite3, the optional dependency npm installs only on
 * older Node. A `preference` other than `auto` tries that driver alone. When none loads, the
 * error names each one tried with its whole error, and the fix of the last.
 */
export function chooseSqliteDriver(runtime: SqliteRuntime, preference: SqliteDriverPreference = 'auto'): SqliteDriver | SqliteDriverUnavailableError {
  const candidates: readonly SqliteDriverName[] = preference !== 'auto' ? [preference] : runtime.bun !== undefined ? ['bun:sqlite'] : ['node:sqlite', 'better-sqlite3'];
  const tried: { name: SqliteDriverName; reason: string }[] = [];
  let fix = '';
  for (const name of candidates) {
    const attempt = LOADERS[name](runtime);
    if ('open' in attempt) return attempt;
    tried.push({ name, reason: attempt.reason });
    fix = attempt.fix;
  }
  return new SqliteDriverUnavailableError(tried, fix);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs `load` with Node's "SQLite is an experimental feature" warning dropped: pm's own use of
 * node:sqlite is not the user's to be warned about, and every other warning still goes out.
 */
export function withoutSqliteWarning<T>(load: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if ((type === 'ExperimentalWarning' || (warning as Error).name === 'ExperimentalWarning') && text.startsWith('SQLite is an experimental feature')) return;
    return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emit;
  }
}

const chosen = new Map<SqliteDriverPreference, SqliteDriver | SqliteDriverUnavailableError>();

/** This process's driver, chosen on first use (loading a native module costs a start milliseconds). */
export function sqliteDriver(preference: SqliteDriverPreference = 'auto'): SqliteDriver | SqliteDriverUnavailableError {
  let driver = chosen.get(preference);
  if (!driver) {
    const bun = (process.versions as { bun?: string }).bun;
    driver = chooseSqliteDriver({ node: process.version, ...(bun ? { bun } : {}), load: createRequire(import.meta.url) }, preference);
    chosen.set(preference, driver);
  }
  return driver;
}

/** This process's driver's opener; throws {@link SqliteDriverUnavailableError} when there is none. */
export function sqliteOpener(): SqliteOpener {
  const driver = sqliteDriver();
  if (driver instanceof SqliteDriverUnavailableError) throw driver;
  return driver.open;
}
