import { ContainerModule } from 'inversify';
import { CryptoIdSource } from '../adapters/node/crypto-id-source.js';
import { nodeCrypto } from '../adapters/node/lazy-crypto.js';
import { ProcessTaskWorkers } from '../adapters/node/process-task-workers.js';
import { PostgresChangeBus } from '../adapters/postgres/postgres-change-bus.js';
import { PostgresDatabase } from '../adapters/postgres/postgres-database.js';
import { PostgresMacKeyStore } from '../adapters/postgres/postgres-mac-key-store.js';
import { PostgresReplayLedger } from '../adapters/postgres/postgres-replay-ledger.js';
import { PostgresTaskStore } from '../adapters/postgres/postgres-task-store.js';
import { FileAnnouncementOutbox } from '../adapters/node/file-announcement-outbox.js';
import { StoreUnavailableError } from '../domain/errors/index.js';
import { PmAnnouncementQueue, type PmAnnouncementQueueLog } from '../domain/mcp-tracker/announcement-queue.js';
import { announcingFileSystem } from '../domain/mcp-tracker/announcing-file-system.js';
import { PM_RESCAN_ANNOUNCEMENT } from '../domain/mcp-tracker/shared-change-source.js';
import { confinedFileSystem } from '../domain/tracker/confined-file-system.js';
import type { AnnouncementOutbox } from '../ports/announcement-outbox.js';
import type { IdSource } from '../ports/id-source.js';
import type { Locker } from '../ports/locker.js';
import { TrackerPaths } from '../domain/tracker/tracker-paths.js';
import { locateTrackerRoot } from '../domain/tracker/root-locator.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { ProcessLog } from './process-log.js';
import { IDS, type SharedDatabase } from './service-ids.js';
import type { Settings } from './settings.js';

const POSTGRES_DATABASE = Symbol.for('pm.PostgresDatabase');
const POSTGRES_BUS = Symbol.for('pm.PostgresChangeBus');
const ANNOUNCEMENT_QUEUE = Symbol.for('pm.PmAnnouncementQueue');

/** The file of announcements queued while PostgreSQL is down (docs/DEPLOY.md "When PostgreSQL is down"). */
export const ANNOUNCEMENT_OUTBOX_FILE = 'announcements.jsonl';

/**
 * The queue file of the tracker this process serves, opened on first use: the tracker is
 * located lazily, as the announcing FileSystem locates its items directory.
 */
function trackerOutbox(fs: FileSystem, locker: Locker, ids: IdSource, s: Settings): AnnouncementOutbox {
  let outbox: Promise<AnnouncementOutbox> | undefined;
  const open = (): Promise<AnnouncementOutbox> =>
    (outbox ??= locateTrackerRoot(fs, s.cwd, s.root).then(
      (root) => new FileAnnouncementOutbox(confinedFileSystem(fs, root), locker, { file: `${new TrackerPaths(root).runtime}/${ANNOUNCEMENT_OUTBOX_FILE}`, overflowMessage: PM_RESCAN_ANNOUNCEMENT, newId: () => `${Date.now().toString(36)}-${ids.randomBase36(12)}`, lockTimeoutMs: s.lockTimeoutMs }),
      (error: unknown) => {
        outbox = undefined;
        throw error;
      },
    ));
  return {
    enqueue: async (messages) => (await open()).enqueue(messages),
    pending: async () => (await open()).pending(),
    remove: async (ids) => (await open()).remove(ids),
  };
}

/** Why an announcement was not sent, for the log: never the client-facing "nothing was changed" wording. */
function whyUnsent(error: unknown): string {
  if (error === undefined) return 'earlier announcements are still queued';
  if (error instanceof StoreUnavailableError) return 'PostgreSQL is unreachable';
  return error instanceof Error ? error.message : String(error);
}

/** The queue's log lines: what happened to the item and to its announcement. */
function queueLog(log: ProcessLog): PmAnnouncementQueueLog {
  const plural = (n: number) => (n === 1 ? 'its announcement is' : `its ${n} announcements are`);
  return {
    queued: (count, error) => log.line(`item written; ${plural(count)} queued until the database returns (${whyUnsent(error)})`),
    lost: (count, error) => log.error(`item written, but ${plural(count)} neither sent nor queued: listeners on other hosts miss it until they re-read`, error),
    sent: (count) => log.line(`sent ${count} queued announcement${count === 1 ? '' : 's'} now that the database answers`),
    flushFailed: (error) => log.error('sending queued announcements failed; trying again shortly', error),
  };
}

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
  // What the bus cannot take (the database is down) is queued in the tracker's runtime area and sent once it is back.
  bind<PmAnnouncementQueue>(ANNOUNCEMENT_QUEUE)
    .toResolvedValue(
      (fs: FileSystem, bus: PostgresChangeBus, locker: Locker, ids: IdSource, clock: Clock, s: Settings, log: ProcessLog) => {
        // Its retry timer never keeps a process alive: a CLI run ends, and what it queued is sent by the next instance.
        const timers: Clock = { now: () => clock.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()) };
        const queue = new PmAnnouncementQueue(bus, trackerOutbox(fs, locker, ids, s), timers, queueLog(log));
        bus.whenConnected(() => void queue.flush());
        return queue;
      },
      [IDS.PlainFileSystem, POSTGRES_BUS, IDS.Locker, IDS.IdSource, IDS.Clock, IDS.Settings, IDS.Log],
    )
    .inSingletonScope();
  // This instance announces its item writes to the others.
  bind(IDS.FileSystem)
    .toResolvedValue(
      (fs: FileSystem, queue: PmAnnouncementQueue, s: Settings, log: ProcessLog) =>
        announcingFileSystem(fs, async () => new TrackerPaths(await locateTrackerRoot(fs, s.cwd, s.root)).items, queue, (error) => log.error('item written; announcing it failed (listeners on other hosts miss it until they re-read)', error)),
      [IDS.PlainFileSystem, ANNOUNCEMENT_QUEUE, IDS.Settings, IDS.Log],
    )
    .inSingletonScope();
  bind(IDS.SharedDatabase)
    .toResolvedValue(
      (db: PostgresDatabase, bus: PostgresChangeBus, queue: PmAnnouncementQueue, s: Settings): SharedDatabase => ({
        label: `PostgreSQL ${redactedPostgresUrl(s.taskStore)}, schema ${s.pgSchema}`,
        ping: (timeoutMs) => db.ping(timeoutMs),
        open: async () => {
          await db.ready();
          await bus.connect();
          await queue.flush(); // what an earlier process queued during an outage goes out first
        },
        close: async () => {
          queue.stop();
          await bus.close();
          await db.close();
        },
      }),
      [POSTGRES_DATABASE, POSTGRES_BUS, ANNOUNCEMENT_QUEUE, IDS.Settings],
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
