import { ContainerModule } from 'inversify';
import { locateTrackerRoot } from '../domain/tracker/root-locator.js';
import { Tracker } from '../domain/tracker/tracker.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { Hasher } from '../ports/hasher.js';
import type { IdSource } from '../ports/id-source.js';
import type { Locker } from '../ports/locker.js';
import { IDS } from './service-ids.js';
import type { Settings } from './settings.js';

/** The tracker domain service over whichever adapter family is loaded. */
export const trackerModule = new ContainerModule(({ bind }) => {
  bind(IDS.TrackerRoot)
    .toResolvedValue((fs: FileSystem, s: Settings) => locateTrackerRoot(fs, s.cwd, s.root), [IDS.FileSystem, IDS.Settings])
    .inSingletonScope();
  bind(IDS.Tracker)
    .toResolvedValue(
      (fs: FileSystem, clock: Clock, ids: IdSource, hasher: Hasher, locker: Locker, root: string, s: Settings) =>
        Tracker.open({ fs, clock, ids, hasher, locker }, root, { defaultActor: s.actor, lockTimeoutMs: s.lockTimeoutMs }),
      [IDS.FileSystem, IDS.Clock, IDS.IdSource, IDS.Hasher, IDS.Locker, IDS.TrackerRoot, IDS.Settings],
    )
    .inSingletonScope();
});
