import { ManualClock } from '../../src/adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../../src/adapters/memory/memory-file-system.js';
import { MemoryItemIndex } from '../../src/adapters/memory/memory-item-index.js';
import { MemoryLocker } from '../../src/adapters/memory/memory-locker.js';
import { PureSha256Hasher } from '../../src/adapters/memory/pure-hasher.js';
import { SeededIdSource } from '../../src/adapters/memory/seeded-id-source.js';
import { initTracker } from '../../src/domain/tracker/init.js';
import { Tracker } from '../../src/domain/tracker/tracker.js';

export const ROOT = '/project/.agents/pm';

/** A tracker over in-memory adapters, initialized and ready, with handles on its fakes. */
export async function memoryTracker(options: { actor?: string; configYaml?: string } = {}) {
  const fs = new MemoryFileSystem();
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  const ids = new SeededIdSource(7);
  const hasher = new PureSha256Hasher();
  const locker = new MemoryLocker(clock);
  await initTracker(fs, ROOT);
  if (options.configYaml) await fs.writeAtomic(`${ROOT}/config.yaml`, options.configYaml);
  const index = new MemoryItemIndex();
  const ports = { fs, clock, ids, hasher, locker, index };
  const tracker = await Tracker.open(ports, ROOT, { defaultActor: options.actor ?? 'alice' });
  const reopen = (actor = 'alice') => Tracker.open(ports, ROOT, { defaultActor: actor });
  return { fs, clock, ids, hasher, locker, index, tracker, reopen };
}
