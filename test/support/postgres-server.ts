import { rmSync } from 'node:fs';
import { startPostgres, type PostgresServer } from '../../scripts/lib/postgres-server.mjs';

/**
 * A real PostgreSQL for a test file (scripts/lib/postgres-server.mjs, shared with bench:scale):
 * initdb into a temp dir, started on a free loopback port, stopped by its pid; without Debian's
 * PostgreSQL binaries the test fails saying how to install them.
 */
export { freePort, postgresBinDir, startPostgres, waitForExit, type PostgresServer } from '../../scripts/lib/postgres-server.mjs';

/**
 * One PostgreSQL for the test file (beforeAll), stopped by its pid and removed in afterAll.
 * Returns an accessor for the running server.
 */
export function usePostgres(): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    if (!server) return;
    await server.stop();
    rmSync(server.dir, { recursive: true, force: true });
  }, 60_000);
  return () => {
    if (!server) throw new Error('PostgreSQL used outside a test (or it failed to start)');
    return server;
  };
}

let schemas = 0;
/** A fresh schema name per call (each test gets its own tables in the one server). */
export function freshSchema(prefix = 'pm_t'): string {
  return `${prefix}${process.pid}_${++schemas}`;
}
