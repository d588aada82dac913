import { ContainerModule } from 'inversify';
import { watchOverflowAt } from '../adapters/node/inotify-limits.js';
import { locateTrackerRoot } from '../domain/tracker/root-locator.js';
import { Tracker } from '../domain/tracker/tracker.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { Hasher } from '../ports/hasher.js';
import type { IdSource } from '../ports/id-source.js';
import type { ItemIndexStore } from '../ports/item-index-store.js';
import type { Locker } from '../ports/locker.js';
import { IDS, type TrackerIndexMode } from './service-ids.js';
import type { Settings } from './settings.js';

/**
 * The tracker domain service over whichever adapter family is loaded. It is opened without
 * reading config.yaml; the configuration is read on one path per kind of host: the MCP servers
 * through the dispatcher's prepare hook (pm-mcp-http before it serves, pm-mcp right after its
 * first turn), the CLI by resolving IDS.ReadyTracker.
 */
export const trackerModule = new ContainerModule(({ bind }) => {
  bind(IDS.TrackerRoot)
    .toResolvedValue((fs: FileSystem, s: Settings) => locateTrackerRoot(fs, s.cwd, s.root), [IDS.PlainFileSystem, IDS.Settings])
    .inSingletonScope();
  bind(IDS.Tracker)
    .toResolvedValue(
      (fs: FileSystem, clock: Clock, ids: IdSource, hasher: Hasher, locker: Locker, index: ItemIndexStore, root: string, s: Settings, mode: TrackerIndexMode) => {
        // The witness asks the tracker's config.yaml (read by then: commands wait for it first).
        const configured = () => tracker.ready().then((config) => config.index?.watcher, () => undefined);
        const tracker: Tracker = Tracker.openDeferred({ fs, clock, ids, hasher, locker, index }, root, {
          defaultActor: s.actor,
          lockTimeoutMs: s.lockTimeoutMs,
          watchIndex: mode.follow === 'watch',
          ...(mode.progress ? { onIndexProgress: mode.progress } : {}),
          ...(mode.follow === 'watch' ? { watchOverflowAt: watchOverflowAt() } : {}),
          ...(mode.follow === 'check' && mode.witness ? { indexWitness: mode.witness(root, configured) } : {}),
        });
        return tracker;
      },
      [IDS.FileSystem, IDS.Clock, IDS.IdSource, IDS.Hasher, IDS.Locker, IDS.ItemIndex, IDS.TrackerRoot, IDS.Settings, IDS.TrackerIndexMode],
    )
    .inSingletonScope();
  bind(IDS.ReadyTracker)
    .toResolvedValue(async (tracker: Tracker) => {
      await tracker.ready();
      return tracker;
    }, [IDS.Tracker])
    .inSingletonScope();
});
