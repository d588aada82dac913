import { ContainerModule } from 'inversify';
import { CryptoIdSource } from '../adapters/node/crypto-id-source.js';
import { nodeCrypto } from '../adapters/node/lazy-crypto.js';
import { ProcessTaskWorkers } from '../adapters/node/process-task-workers.js';
import { PostgresChangeBus } from '../adapters/postgres/postgres-change-bus.js';
import { PostgresDatabase } from '../adapters/postgres/postgres-database.js';
import { PostgresMacKeyStore } from '../adapters/postgres/postgres-mac-key-store.js';
import { PostgresReplayLedger } from '../adapters/postgres/postgres-replay-ledger.js';
import { PostgresTaskStore } from '../adapters/postgres/postgres-task-store.js';
import { announcingFileSystem } from '../domain/mcp-tracker/announcing-file-system.js';
import { TrackerPaths } from '../domain/tracker/tracker-paths.js';
import { locateTrackerRoot } from '../domain/tracker/root-locator.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { ProcessLog } from './process-log.js';
import { IDS, type SharedDatabase } from './service-ids.js';
import type { Settings } from './settings.js';

const POSTGRES_DATABASE = Symbol.for('pm.PostgresDatabase');
const POSTGRES_BUS = Symbol.for('pm.PostgresChangeBus');

/** The connection string without its password, for logs. */
export function redactedPostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/**
 * The shared stores of several pm-mcp-http instances (PM_MCP_TASK_STORE=postgres://…;
 * docs/DEPLOY.md): tasks, used MRTR states and requestState keys in PostgreSQL under the schema
 * PM_MCP_PG_SCHEMA, change announcements over LISTEN/NOTIFY, and task workers judged by their
 * lease alone (another instance may run on another machine, so no pid is probed). The `pg`
 * driver and the pool exist only in processes that select this module.
 */
export const postgresTaskStoresModule = new ContainerModule(({ bind }) => {
  bind<PostgresDatabase>(POSTGRES_DATABASE)
    .toResolvedValue((s: Settings) => new PostgresDatabase({ url: s.taskStore, schema: s.pgSchema }), [IDS.Settings])
    .inSingletonScope();
  bind<PostgresChangeBus>(POSTGRES_BUS)
    .toResolvedValue(
      (db: PostgresDatabase, log: ProcessLog) =>
        new PostgresChangeBus(db, { onState: (connected, error) => (connected ? log.line('change listener connected to PostgreSQL') : log.error('change listener lost its PostgreSQL connection; reconnecting', error)) }),
      [POSTGRES_DATABASE, IDS.Log],
    )
    .inSingletonScope();
  bind(IDS.ChangeBus).toService(POSTGRES_BUS);
  // This instance announces its item writes to the others.
  bind(IDS.FileSystem)
    .toResolvedValue(
      (fs: FileSystem, bus: PostgresChangeBus, s: Settings, log: ProcessLog) =>
        announcingFileSystem(fs, async () => new TrackerPaths(await locateTrackerRoot(fs, s.cwd, s.root)).items, bus, (error) => log.error('announcing a change failed', error)),
      [IDS.PlainFileSystem, POSTGRES_BUS, IDS.Settings, IDS.Log],
    )
    .inSingletonScope();
  bind(IDS.SharedDatabase)
    .toResolvedValue(
      (db: PostgresDatabase, bus: PostgresChangeBus, s: Settings): SharedDatabase => ({
        label: `PostgreSQL ${redactedPostgresUrl(s.taskStore)}, schema ${s.pgSchema}`,
        ping: (timeoutMs) => db.ping(timeoutMs),
        open: async () => {
          await db.ready();
          await bus.connect();
        },
        close: async () => {
          await bus.close();
          await db.close();
        },
      }),
      [POSTGRES_DATABASE, POSTGRES_BUS, IDS.Settings],
    )
    .inSingletonScope();
  bind(IDS.TaskStore).toResolvedValue((db: PostgresDatabase) => new PostgresTaskStore(db), [POSTGRES_DATABASE]).inSingletonScope();
  bind(IDS.ReplayLedger).toResolvedValue((db: PostgresDatabase) => new PostgresReplayLedger(db), [POSTGRES_DATABASE]).inSingletonScope();
  bind(IDS.MacKeyStore)
    .toResolvedValue((db: PostgresDatabase, clock: Clock) => {
      const ids = new CryptoIdSource();
      return new PostgresMacKeyStore(db, clock, { keyId: () => ids.randomBase36(10), secret: () => new Uint8Array(nodeCrypto().randomBytes(32)) }, 1_000);
    }, [POSTGRES_DATABASE, IDS.Clock])
    .inSingletonScope();
  bind(IDS.TaskWorkers).toResolvedValue(() => new ProcessTaskWorkers(false)).inSingletonScope();
});
