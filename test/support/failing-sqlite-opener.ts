import { sqliteOpener, type SqliteDatabase, type SqliteOpener } from '../../src/adapters/node/sqlite-driver.js';

/** An SQLite error as the drivers throw it. */
function sqliteError(code: string): Error {
  return Object.assign(new Error(`injected ${code}`), { code });
}

/**
 * The runtime's opener whose databases fail every statement with `code` once `failing()` says so
 * (what a corrupt page makes SQLite answer), or with `writesOnly` every statement that writes
 * (a read-only file system or file, a full disk).
 */
export function failingOpener(code: string, failing: () => boolean, writesOnly = false): SqliteOpener {
  const open = sqliteOpener();
  return (path, timeoutMs) => {
    const db = open(path, timeoutMs);
    const check = () => {
      if (failing()) throw sqliteError(code);
    };
    const checkRead = writesOnly ? () => undefined : check;
    const wrapped: SqliteDatabase = {
      prepare: (sql) => {
        const statement = db.prepare(sql);
        const guarded = {
          get: (...params: unknown[]) => (checkRead(), statement.get(...params)),
          all: (...params: unknown[]) => (checkRead(), statement.all(...params)),
          run: (...params: unknown[]) => (check(), statement.run(...params)),
          iterate: (...params: unknown[]) => (checkRead(), statement.iterate(...params)),
          raw: () => (statement.raw(), guarded),
          pluck: () => (statement.pluck(), guarded),
        };
        return guarded;
      },
      exec: (sql) => (check(), db.exec(sql)),
      pragma: (sql, options) => ((sql.includes('=') ? check : checkRead)(), db.pragma(sql, options)),
      transaction: (fn) => db.transaction(fn),
      close: () => db.close(),
    };
    return wrapped;
  };
}

