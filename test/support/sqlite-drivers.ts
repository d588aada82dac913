/**
 * Every SQLite driver this test runtime can load, each chosen the way pm chooses
 * (chooseSqliteDriver) with the others hidden: better-sqlite3 under Node 20 (where npm installs
 * it), node:sqlite under Node 22.16+ and 24, bun:sqlite under Bun (smoke:mcp runs the index's
 * contract suite there with `bun test`). The CI runs the suite under each supported Node
 * (.ci/run), so every driver meets the same contract suites; a better-sqlite3 built for another
 * Node's ABI is not loadable here and not listed.
 */
import { createRequire } from 'node:module';
import { chooseSqliteDriver, SqliteDriverUnavailableError, type SqliteDriver, type SqliteDriverName } from '../../src/adapters/node/sqlite-driver.js';

const load = createRequire(import.meta.url);

/** The driver `name` as pm would load it if it were the only one, or why it cannot load. */
export function onlyDriver(name: SqliteDriverName): SqliteDriver | SqliteDriverUnavailableError {
  const runtime = {
    node: process.version,
    load: (id: string) => {
      if (id !== name) throw Object.assign(new Error(`Cannot find module '${id}' (hidden by the test)`), { code: 'MODULE_NOT_FOUND' });
      return load(id);
    },
  };
  return chooseSqliteDriver(runtime, name);
}

/** The drivers this runtime has. */
export const RUNTIME_SQLITE_DRIVERS: readonly SqliteDriver[] = (['node:sqlite', 'better-sqlite3', 'bun:sqlite'] as const)
  .map(onlyDriver)
  .filter((driver): driver is SqliteDriver => !(driver instanceof SqliteDriverUnavailableError));

/** Node's major.minor as numbers. */
export function nodeVersion(version = process.version): [number, number] {
  const [major, minor] = version.slice(1).split('.').map(Number);
  return [major!, minor!];
}
