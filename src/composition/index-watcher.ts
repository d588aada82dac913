import { IndexWatcherServer, type WatcherExit } from '../adapters/node/index-watcher-server.js';
import { launchIndexWatcher } from '../adapters/node/index-watcher-launch.js';
import { watcherSocketPath, type WatcherIdentity, type WatcherStatus } from '../adapters/node/index-watcher-protocol.js';
import { watchOverflowAt } from '../adapters/node/inotify-limits.js';
import { askWatcher, SocketIndexFreshness, type WatcherMode } from '../adapters/node/socket-index-freshness.js';
import { sqliteDriver, SqliteDriverUnavailableError } from '../adapters/node/sqlite-driver.js';
import { SQLITE_INDEX_SCHEMA } from '../adapters/node/sqlite-index-schema.js';
import { noSqliteDriverWarning } from './node-adapters-module.js';
import { confinedFileSystem } from '../domain/tracker/confined-file-system.js';
import { IndexSync } from '../domain/tracker/index-sync.js';
import { TrackerPaths } from '../domain/tracker/tracker-paths.js';
import type { IndexFreshness } from '../ports/index-freshness.js';
import type { Container } from 'inversify';
import { packageInfo } from './package-info.js';
import { IDS } from './service-ids.js';
import type { Settings } from './settings.js';

/** A one-shot query waits this long for the watcher before it checks the files itself. */
export const WATCHER_TIMEOUT_MS = 1000;
/** `auto` starts a watcher once a sweep lists this many item files (smaller sweeps cost little). */
export const WATCHER_AUTO_FROM = 5000;

/** Which tracker and which build of pm a watcher serves (another build's watcher does not vouch). */
export function watcherIdentity(root: string): WatcherIdentity {
  return { root, build: `${packageInfo().version}+index${SQLITE_INDEX_SCHEMA}` };
}

/**
 * The witness a one-shot process asks before it sweeps (PM_INDEX_WATCHER: `auto` starts a
 * watcher when sweeps list at least {@link WATCHER_AUTO_FROM} files, `on` after any sweep, `off`
 * neither asks nor starts). `launcher` runs this pm (node and bin/pm.cjs); without it no watcher
 * is started, a running one is still asked.
 */
export function indexWitness(settings: Settings, launcher: readonly string[] | undefined, env: NodeJS.ProcessEnv): IndexWitnessFactory | undefined {
  const setting = settings.indexWatcher;
  if (setting === 'off') return undefined;
  return (root, configured) =>
    new SocketIndexFreshness({
      socketPath: watcherSocketPath(new TrackerPaths(root).runtime),
      identity: watcherIdentity(root),
      // Never longer than any other wait for another pm process (docs/TRACKER.md "Waits").
      timeoutMs: Math.min(WATCHER_TIMEOUT_MS, settings.lockTimeoutMs),
      startFrom: WATCHER_AUTO_FROM,
      mode: async () => setting ?? (await configured()) ?? 'auto',
      // No watcher where no SQLite driver loads: its index would be in its own memory (known by the time a sweep ends).
      ...(launcher ? { start: () => void (indexInMemory(settings) || launchIndexWatcher(launcher, root, env)) } : {}),
    });
}

/** Whether this process keeps the index in memory (asked for, or no driver loads), where a watcher has nothing to keep fresh. */
function indexInMemory(settings: Settings): boolean {
  return settings.indexDriver === 'memory' || sqliteDriver(settings.indexDriver) instanceof SqliteDriverUnavailableError;
}

/** Makes the witness of the tracker at `root`; `configured` is its config.yaml's `index.watcher`. */
export type IndexWitnessFactory = (root: string, configured: () => Promise<WatcherMode | undefined>) => IndexFreshness;

/** What `pm index status` and `pm index stop` report. */
export interface WatcherReport {
  readonly running: boolean;
  readonly socket: string;
  readonly status?: WatcherStatus;
  /** Why a watcher there did not answer usefully (another build, no reply in time). */
  readonly detail?: string;
}

/** Asks the watcher of the tracker at `root` for its status, or to stop. */
export async function contactWatcher(root: string, op: 'status' | 'stop'): Promise<WatcherReport> {
  const socket = watcherSocketPath(new TrackerPaths(root).runtime);
  const answer = await askWatcher(socket, watcherIdentity(root), op, 5000);
  if (answer.kind === 'absent') return { running: false, socket };
  if (answer.kind === 'unusable') return { running: true, socket, detail: answer.why };
  if (!answer.reply.ok) return { running: true, socket, detail: answer.reply.message };
  return { running: op === 'status', socket, ...(answer.reply.status ? { status: answer.reply.status } : {}) };
}

/**
 * Runs the index watcher of the container's tracker in this process (`pm index watch`): binds
 * its socket, follows the items directory with IndexSync in watch mode over the same index,
 * and serves until it ends. Resolves with why it ended.
 */
export async function runIndexWatcher(container: Container, settings: Settings): Promise<WatcherExit | 'index-in-memory'> {
  // A watcher keeps the SQLite index fresh for other processes; an index in memory is nobody else's.
  if (settings.indexDriver === 'memory') return 'index-in-memory';
  const driver = sqliteDriver(settings.indexDriver);
  if (driver instanceof SqliteDriverUnavailableError) {
    (await container.getAsync(IDS.Log)).line(noSqliteDriverWarning(driver, settings.indexDriver, 'so there is no index file for a watcher to keep fresh'));
    return 'index-in-memory';
  }
  const root = await container.getAsync(IDS.TrackerRoot);
  const paths = new TrackerPaths(root);
  // The plain node file system: the watcher writes nothing a change bus would need to hear of.
  const fs = confinedFileSystem(await container.getAsync(IDS.PlainFileSystem), root);
  const index = await container.getAsync(IDS.ItemIndex);
  const sync = new IndexSync(fs, await container.getAsync(IDS.Clock), paths, index, { watch: true, watchOverflowAt: watchOverflowAt(), waitMs: settings.lockTimeoutMs });
  const server = new IndexWatcherServer({
    socketPath: watcherSocketPath(paths.runtime),
    runtimeDir: paths.runtime,
    identity: watcherIdentity(root),
    refresh: async () => {
      await sync.refresh();
      // An index kept in this watcher's memory (the file cannot be written) is fresh for nobody else: the asker checks every file itself.
      if (sync.keepsOwnIndex()) throw new Error('the index file cannot be written, so this watcher keeps the index in its memory and cannot vouch for the file');
    },
    counters: () => sync.counters(),
    idleMs: settings.indexWatcherIdleMs,
    checkEveryMs: 1000,
    trackerDir: root,
    handleSignals: true,
  });
  await fs.ensureDir(paths.runtime);
  if ((await server.bind()) === 'already-running') return 'already-running';
  const running = server.run();
  // Bound first, so concurrent queries find this watcher (and start no other) while it sweeps.
  await sync.refresh().catch(() => undefined);
  const exit = await running;
  sync.close();
  index.close();
  return exit;
}
