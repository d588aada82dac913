/**
 * The SQLite driver layer (src/adapters/node/sqlite-driver.ts, node-sqlite-driver.ts): which
 * driver a runtime gets, what pm says when none loads, and the better-sqlite3 API the index
 * uses, held to one behaviour for every driver this runtime has (better-sqlite3 under Node 20,
 * node:sqlite under Node 22.16+ and 24: the CI runs the suite under each).
 */
import { writeFileSync } from 'node:fs';
import { chooseSqliteDriver, SqliteDriverUnavailableError, withoutSqliteWarning, type SqliteRuntime } from '../../../../src/adapters/node/sqlite-driver.js';
import { withSqliteCode } from '../../../../src/adapters/node/node-sqlite-driver.js';
import { nodeVersion, onlyDriver, RUNTIME_SQLITE_DRIVERS } from '../../../support/sqlite-drivers.js';
import { useTempDir } from '../../../support/temp-dir.js';

const dir = useTempDir('pm-sqlite-driver-');

/** A node:sqlite stand-in: `arrays` says whether its statements have setReturnArrays. */
function fakeNodeSqlite(arrays: boolean) {
  class DatabaseSync {
    readonly isTransaction = false;
    prepare() {
      return { iterate: () => [][Symbol.iterator](), ...(arrays ? { setReturnArrays: () => undefined } : {}) };
    }
    close() {}
  }
  return { DatabaseSync };
}

class FakeBetterSqlite {
  static opened = 0;
  constructor() {
    FakeBetterSqlite.opened++;
  }
  close() {}
}

const ABI_ERROR =
  "The module '/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).";

function runtime(modules: Record<string, () => unknown>, extra: Partial<SqliteRuntime> = {}): SqliteRuntime {
  return {
    node: 'v20.20.2',
    load: (id) => {
      const module = modules[id];
      if (!module) throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
      return module();
    },
    ...extra,
  };
}

describe('chooseSqliteDriver', () => {
  it('takes node:sqlite where it has rows as arrays, and loads nothing else', () => {
    const loaded: string[] = [];
    const choice = chooseSqliteDriver({ node: 'v22.23.3', load: (id) => (loaded.push(id), fakeNodeSqlite(true)) });
    expect(choice).toMatchObject({ name: 'node:sqlite' });
    expect(loaded).toEqual(['node:sqlite']);
  });

  it('takes better-sqlite3 where Node has no node:sqlite, opening a database to prove its addon loads', () => {
    FakeBetterSqlite.opened = 0;
    expect(chooseSqliteDriver(runtime({ 'better-sqlite3': () => FakeBetterSqlite }))).toMatchObject({ name: 'better-sqlite3' });
    expect(FakeBetterSqlite.opened).toBe(1);
  });

  it('takes better-sqlite3 where node:sqlite is too early to give rows as arrays', () => {
    expect(chooseSqliteDriver(runtime({ 'node:sqlite': () => fakeNodeSqlite(false), 'better-sqlite3': () => FakeBetterSqlite }, { node: 'v22.13.0' }))).toMatchObject({ name: 'better-sqlite3' });
  });

  it('says in full why nothing loads, with the fix: an addon built for another Node is rebuilt', () => {
    const addon = class {
      constructor() {
        throw Object.assign(new Error(ABI_ERROR), { code: 'ERR_DLOPEN_FAILED' });
      }
    };
    const choice = chooseSqliteDriver(runtime({ 'better-sqlite3': () => addon }));
    expect(choice).toBeInstanceOf(SqliteDriverUnavailableError);
    const error = choice as SqliteDriverUnavailableError;
    expect(error.tried.map((t) => t.name)).toEqual(['node:sqlite', 'better-sqlite3']);
    expect(error.message.split('\n')).toEqual([
      'no SQLite driver could load for the index',
      '  node:sqlite: not in Node.js v20.20.2 (built in from v22.16.0)',
      `  better-sqlite3: ${ABI_ERROR.replace(/\n/g, ' ')}`,
      "  fix: run pm with Node.js 22.16.0 or later (node:sqlite is built in), or rebuild better-sqlite3 for Node.js v20.20.2 in pm's directory: npm rebuild better-sqlite3",
    ]);
  });

  it('tells a missing better-sqlite3 (installed under a Node that did not need it) to be installed', () => {
    const error = chooseSqliteDriver(runtime({ 'node:sqlite': () => fakeNodeSqlite(false) }, { node: 'v22.13.0' })) as SqliteDriverUnavailableError;
    expect(error.tried[0]!.reason).toBe('Node.js v22.13.0 has an early node:sqlite without rows as arrays (pm uses it from v22.16.0)');
    expect(error.tried[1]!.reason).toBe("Cannot find module 'better-sqlite3'");
    expect(error.fix).toMatch(/install better-sqlite3 for Node\.js v22\.13\.0 in pm's directory: npm install --no-save better-sqlite3$/);
  });

  it('takes bun:sqlite under Bun, and says so when it cannot', () => {
    const bun = { Database: class {} };
    expect(chooseSqliteDriver(runtime({ 'bun:sqlite': () => bun }, { bun: '1.4.5' }))).toMatchObject({ name: 'bun:sqlite' });
    const error = chooseSqliteDriver(runtime({}, { bun: '1.4.5' })) as SqliteDriverUnavailableError;
    expect(error.tried).toEqual([{ name: 'bun:sqlite', reason: "Cannot find module 'bun:sqlite'" }]);
  });
});

describe('the drivers of this runtime', () => {
  it('include node:sqlite from Node 22.16, better-sqlite3 before (where npm installs it)', () => {
    const [major, minor] = nodeVersion();
    const expected = major > 22 || (major === 22 && minor >= 16) ? 'node:sqlite' : 'better-sqlite3';
    expect(RUNTIME_SQLITE_DRIVERS.map((d) => d.name)).toContain(expected);
    expect(onlyDriver(expected)).not.toBeInstanceOf(SqliteDriverUnavailableError);
  });
});

describe('withoutSqliteWarning', () => {
  it('drops only node:sqlite’s experimental warning, and puts process.emitWarning back', () => {
    const seen: unknown[][] = [];
    const emit = process.emitWarning;
    const recorder = ((...args: unknown[]) => void seen.push(args)) as typeof process.emitWarning;
    process.emitWarning = recorder;
    try {
      const value = withoutSqliteWarning(() => {
        process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
        process.emitWarning('SQLite is an experimental feature and might change at any time', { type: 'ExperimentalWarning' });
        process.emitWarning('Something else is experimental', 'ExperimentalWarning');
        process.emitWarning('SQLite is an experimental feature, said as a plain warning');
        return 42;
      });
      expect(value).toBe(42);
      expect(process.emitWarning).toBe(recorder);
      expect(() => withoutSqliteWarning(() => { throw new Error('load failed'); })).toThrow('load failed');
      expect(process.emitWarning).toBe(recorder);
    } finally {
      process.emitWarning = emit;
    }
    expect(seen).toEqual([['Something else is experimental', 'ExperimentalWarning'], ['SQLite is an experimental feature, said as a plain warning']]);
  });
});

describe('withSqliteCode', () => {
  it('names node:sqlite’s result codes as the other drivers do', () => {
    const code = (errcode: number) => (withSqliteCode(Object.assign(new Error('x'), { code: 'ERR_SQLITE_ERROR', errcode })) as { code: string }).code;
    expect([1, 5, 11, 13, 26, 267, 517, 2067].map(code)).toEqual(['SQLITE_ERROR', 'SQLITE_BUSY', 'SQLITE_CORRUPT', 'SQLITE_FULL', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_VTAB', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_CONSTRAINT']);
    const plain = new Error('not from SQLite');
    expect(withSqliteCode(plain)).toBe(plain);
    expect((plain as { code?: string }).code).toBeUndefined();
  });
});

describe.each(RUNTIME_SQLITE_DRIVERS.map((driver) => [driver.name, driver] as const))('the %s driver', (_name, driver) => {
  const open = () => {
    const db = driver.open(`${dir()}/t.sqlite`, 1000);
    db.exec('CREATE TABLE IF NOT EXISTS t(a INTEGER, b)');
    return db;
  };

  it('gives rows as objects, raw() arrays and pluck() first values; undefined for no row', () => {
    const db = open();
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    expect(insert.run(1, 'x')).toEqual({ changes: 1, lastInsertRowid: 1 });
    insert.run(2, new Uint8Array([7, 8]));
    expect(db.prepare('SELECT a, b FROM t ORDER BY a').all()).toEqual([{ a: 1, b: 'x' }, { a: 2, b: new Uint8Array([7, 8]) }]);
    expect(db.prepare('SELECT a FROM t WHERE a = ?').get(3)).toBeUndefined();
    const raw = db.prepare('SELECT a, a AS same FROM t ORDER BY a').raw();
    expect(raw.all()).toEqual([[1, 1], [2, 2]]);
    expect(raw.get()).toEqual([1, 1]);
    expect([...raw.iterate()]).toEqual([[1, 1], [2, 2]]);
    const pluck = db.prepare('SELECT b FROM t WHERE a >= ? ORDER BY a').pluck();
    expect(pluck.get(1)).toBe('x');
    expect(pluck.get(9)).toBeUndefined();
    expect([...pluck.iterate(2)]).toEqual([new Uint8Array([7, 8])]);
    expect([...db.prepare('SELECT a FROM t ORDER BY a').iterate()]).toEqual([{ a: 1 }, { a: 2 }]);
    db.close();
  });

  it('answers pragma() with rows, or with simple the first value', () => {
    const db = open();
    db.pragma('user_version = 7');
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    expect(db.pragma('user_version')).toEqual([{ user_version: 7 }]);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1000);
    db.close();
  });

  it('commits a transaction, rolls back one that throws, and nests with savepoints', () => {
    const db = open();
    const insert = db.prepare('INSERT INTO t VALUES (?, NULL)');
    const count = db.prepare('SELECT count(*) FROM t').pluck();
    db.transaction((n: number) => insert.run(n)).immediate(1);
    expect(count.get()).toBe(1);
    expect(() =>
      db.transaction(() => {
        insert.run(2);
        throw new Error('boom');
      })(),
    ).toThrow('boom');
    expect(count.get()).toBe(1);
    const outer = db.transaction(() => {
      insert.run(3);
      expect(() =>
        db.transaction(() => {
          insert.run(4);
          throw new Error('inner');
        })(),
      ).toThrow('inner');
      insert.run(5);
    });
    outer.deferred();
    expect(db.prepare('SELECT a FROM t ORDER BY a').pluck().all()).toEqual([1, 3, 5]);
    db.close();
  });

  it('marks a file that is not a database SQLITE_NOTADB, and a locked one SQLITE_BUSY', () => {
    writeFileSync(`${dir()}/junk.sqlite`, 'this is not a database, just some text long enough to have a header'.repeat(100));
    const junk = driver.open(`${dir()}/junk.sqlite`, 1000);
    expect(() => junk.pragma('journal_mode = WAL')).toThrow(expect.objectContaining({ code: 'SQLITE_NOTADB' }));
    junk.close();
    const a = open();
    const b = driver.open(`${dir()}/t.sqlite`, 0);
    a.exec('BEGIN IMMEDIATE');
    expect(() => b.exec('BEGIN IMMEDIATE')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    a.exec('ROLLBACK');
    a.close();
    b.close();
  });
});
