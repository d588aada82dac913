import { ContainerModule } from 'inversify';
import { CryptoIdSource } from '../adapters/node/crypto-id-source.js';
import { FileLocker } from '../adapters/node/file-locker.js';
import { FileMacKeyStore } from '../adapters/node/file-mac-key-store.js';
import { FileReplayLedger } from '../adapters/node/file-replay-ledger.js';
import { ProcessTaskWorkers } from '../adapters/node/process-task-workers.js';
import { FileTaskStore } from '../adapters/node/file-task-store.js';
import { LocalAuthorizer } from '../adapters/node/local-authorizer.js';
import { NodeFileSystem } from '../adapters/node/node-file-system.js';
import { NodeHasher } from '../adapters/node/node-hasher.js';
import { MemoryItemIndex } from '../adapters/memory/memory-item-index.js';
import { FirstUseItemIndex } from '../adapters/node/first-use-item-index.js';
import { HealingItemIndex } from '../adapters/node/healing-item-index.js';
import { sqliteDriver, SqliteDriverUnavailableError } from '../adapters/node/sqlite-driver.js';
import { DEFAULT_TUNING, SqliteItemIndex, type PageTuning } from '../adapters/node/sqlite-item-index.js';
import { SystemClock } from '../adapters/node/system-clock.js';
import { confinedFileSystem } from '../domain/tracker/confined-file-system.js';
import { TrackerPaths } from '../domain/tracker/tracker-paths.js';
import type { Clock } from '../ports/clock.js';
import type { Locker } from '../ports/locker.js';
import type { FileSystem } from '../ports/file-system.js';
import type { ItemIndexStore } from '../ports/item-index-store.js';
import { packageDir } from './package-info.js';
import type { ProcessLog } from './process-log.js';
import { IDS, type TrackerIndexMode } from './service-ids.js';
import type { Settings } from './settings.js';

/**
 * The real adapters: node fs (IDS.PlainFileSystem; IDS.FileSystem comes with the task stores), system clock, crypto ids and hashes, lock files, the SQLite
 * index; the task stores come from {@link fileTaskStoresModule} or the PostgreSQL module. The
 * Authorizer is not among them: each process binds its own ({@link localAuthorizationModule}, or
 * the HTTP authorization module of pm-mcp-http).
 */
export const nodeAdaptersModule = new ContainerModule(({ bind }) => {
  bind(IDS.PlainFileSystem).toResolvedValue((s: Settings) => new NodeFileSystem({ durable: s.durable }), [IDS.Settings]).inSingletonScope();
  bind(IDS.Clock).toResolvedValue(() => new SystemClock()).inSingletonScope();
  bind(IDS.IdSource).toResolvedValue(() => new CryptoIdSource()).inSingletonScope();
  bind(IDS.Hasher).toResolvedValue(() => new NodeHasher()).inSingletonScope();
  bind(IDS.Locker).toResolvedValue(() => new FileLocker()).inSingletonScope();
  bind(IDS.ItemIndex)
    .toResolvedValue(
      (root: string, mode: TrackerIndexMode, log: ProcessLog, s: Settings) => new FirstUseItemIndex(() => runtimeIndexStore(new TrackerPaths(root).indexDatabase, mode, log, s.indexDriver, sqliteDriver, s.lockTimeoutMs)),
      [IDS.TrackerRoot, IDS.TrackerIndexMode, IDS.Log, IDS.Settings],
    )
    .inSingletonScope();
});

/**
 * The index store of this runtime (docs/TRACKER.md "SQLite drivers"): the SQLite index through
 * the driver PM_INDEX_DRIVER names or the runtime has, or the in-memory index rebuilt from the
 * item files by every process — asked for (`memory`), or after one warning that says why no
 * driver loads (an ABI mismatch, a failed optional build) and how to fix it. Every command keeps
 * working either way, only slower on large trackers. The SQLite index heals itself: a damaged
 * file is made anew and rebuilt, and one that cannot be written (a read-only checkout, a full
 * disk) gives way to the in-memory index with one warning (healing-item-index.ts;
 * docs/TRACKER.md "When the index is damaged or cannot be written"); a statement waits for
 * another process's write at most `lockTimeoutMs` (PM_LOCK_TIMEOUT_MS), like a write for the
 * tracker's lock.
 */
export function runtimeIndexStore(path: string, mode: TrackerIndexMode, log: ProcessLog, preference: Settings['indexDriver'], choose = sqliteDriver, lockTimeoutMs?: number): ItemIndexStore {
  if (preference === 'memory') return new MemoryItemIndex();
  const driver = choose(preference);
  if (!(driver instanceof SqliteDriverUnavailableError)) {
    const damaged = (reason: string) => log.line(`the index ${path} is damaged (${reason}), so pm makes it anew and rebuilds it from the item files`);
    const sqlite = new SqliteItemIndex(path, driver.open, { ...indexTuning(mode), ...(lockTimeoutMs !== undefined ? { busyTimeoutMs: lockTimeoutMs } : {}) }, damaged);
    return new HealingItemIndex(sqlite, () => new MemoryItemIndex(), (text) => log.line(text));
  }
  log.line(noSqliteDriverWarning(driver, preference, 'so pm keeps the index in memory and reads every item file (correct, but slower on large trackers)'));
  return new MemoryItemIndex();
}

/** What a process says when no SQLite driver loads: `consequence`, each driver's error, the fix and pm's directory. */
export function noSqliteDriverWarning(driver: SqliteDriverUnavailableError, preference: Settings['indexDriver'], consequence: string): string {
  return [
    `no SQLite driver could load for the index, ${consequence}`,
    ...SqliteDriverUnavailableError.details(driver.tried, driver.fix),
    ...(preference === 'auto' ? [] : [`  PM_INDEX_DRIVER=${preference} asks for this driver alone: unset it to let pm choose`]),
    `  pm's directory: ${packageDir()}`,
  ].join('\n');
}

/** SQLite's page cache of a one-shot process, in KiB: it reads each page about once, so the pages it keeps only add to its memory. */
const ONE_SHOT_PAGE_CACHE_KIB = 2048;

/**
 * The SQLite index's tuning for a process kind: a long-lived process (`watch`) holds the posting
 * columns it read for its next search and keeps the driver's page cache; a one-shot process
 * (`check`) reads the columns for its one search only, with a small page cache (docs/TRACKER.md
 * "The derived index").
 */
export function indexTuning(mode: TrackerIndexMode): PageTuning {
  return mode.follow === 'watch' ? { ...DEFAULT_TUNING, postingColumns: true } : { ...DEFAULT_TUNING, postingColumns: false, pageCacheKib: ONE_SHOT_PAGE_CACHE_KIB };
}

/**
 * The embedded stores of tasks, used MRTR states and requestState keys (PM_MCP_TASK_STORE=file,
 * the default): files in the tracker's git-ignored runtime area; this host's processes are
 * told apart by pid. No change bus: every process of this kind shares the machine's files.
 */
export const fileTaskStoresModule = new ContainerModule(({ bind }) => {
  bind(IDS.FileSystem).toService(IDS.PlainFileSystem);
  bind(IDS.TaskStore)
    .toResolvedValue((fs: FileSystem, locker: Locker, root: string, s: Settings) => new FileTaskStore(confinedFileSystem(fs, root), locker, new TrackerPaths(root).tasks, s.lockTimeoutMs), [IDS.FileSystem, IDS.Locker, IDS.TrackerRoot, IDS.Settings])
    .inSingletonScope();
  bind(IDS.TaskWorkers).toResolvedValue(() => new ProcessTaskWorkers()).inSingletonScope();
  bind(IDS.MacKeyStore)
    .toResolvedValue((root: string, clock: Clock) => new FileMacKeyStore(`${new TrackerPaths(root).runtime}/request-state-keys.json`, clock), [IDS.TrackerRoot, IDS.Clock])
    .inSingletonScope();
  bind(IDS.ReplayLedger)
    .toResolvedValue((fs: FileSystem, root: string) => new FileReplayLedger(confinedFileSystem(fs, root), `${new TrackerPaths(root).runtime}/replays`), [IDS.FileSystem, IDS.TrackerRoot])
    .inSingletonScope();
  bind(IDS.ChangeBus).toConstantValue(undefined);
  bind(IDS.SharedDatabase).toConstantValue(undefined);
});

/** The Authorizer of local processes (the CLI, pm-mcp over stdio): the configured actor, every scope. */
export const localAuthorizationModule = new ContainerModule(({ bind }) => {
  bind(IDS.Authorizer).toResolvedValue((s: Settings) => new LocalAuthorizer(s.actor), [IDS.Settings]).inSingletonScope();
});
