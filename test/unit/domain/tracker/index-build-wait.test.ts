import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { DEFAULT_BUILD_WAIT_LIMIT_MS, IndexSync, type IndexSyncOptions } from '../../../../src/domain/tracker/index-sync.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import type { IndexBuild, IndexChange, IndexOpening } from '../../../../src/ports/item-index-store.js';
import { writeBulkItems } from '../../../support/bulk-items.js';

/** A clock that records every sleep asked of it, so a test advances it only once the sync waits. */
class SleepRecordingClock extends ManualClock {
  readonly sleeps: number[] = [];
  override sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    return super.sleep(ms);
  }
}

/**
 * The shared index as a process sees it while another process builds it: empty, and 'busy' to
 * every startBuild until that build ends ({@link finishElsewhere}: the other process's rows
 * appear and startBuild says 'replaced'). {@link keepOwnUntilBuilt} switches to an own index
 * (empty, never busy), as HealingItemIndex does over SQLite.
 */
class BuiltElsewhereIndex extends MemoryItemIndex {
  readonly reasons: string[] = [];
  private state: 'building' | 'built' | 'own' = 'building';

  override open(): IndexOpening {
    return this.state === 'own' ? { ...super.open(), own: true } : super.open();
  }

  override startBuild(): IndexBuild | 'busy' | 'replaced' {
    if (this.state === 'building') return 'busy';
    if (this.state === 'built') return 'replaced';
    return super.startBuild();
  }

  override keepOwnUntilBuilt(reason: string): void {
    this.reasons.push(reason);
    this.state = 'own';
  }

  /** The other process's build commits these rows. */
  finishElsewhere(changes: readonly IndexChange[]): void {
    super.apply(changes);
    this.state = 'built';
  }
}

const paths = new TrackerPaths('/t/.agents/pm');

async function setUp(options: IndexSyncOptions) {
  const fs = new MemoryFileSystem();
  const ids = await writeBulkItems(fs, paths.items, 1200);
  const clock = new SleepRecordingClock();
  const store = new BuiltElsewhereIndex();
  const sync = new IndexSync(fs, clock, paths, store, options);
  return { fs, ids, clock, store, sync };
}

/** Lets the sync run until it asks the clock for its next sleep (or `done` says it ended). */
async function nextSleep(clock: SleepRecordingClock, seen: number, done: () => boolean): Promise<boolean> {
  for (let turn = 0; turn < 10_000; turn++) {
    if (clock.sleeps.length > seen) return true;
    if (done()) return false;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the sync neither slept nor ended');
}

/** Advances the clock through every sleep the refresh asks for; resolves to the time that passed. */
async function runOut(clock: SleepRecordingClock, refresh: Promise<void>): Promise<number> {
  let done = false;
  void refresh.then(
    () => (done = true),
    () => (done = true),
  );
  const start = clock.now();
  let seen = 0;
  while (await nextSleep(clock, seen, () => done)) {
    seen = clock.sleeps.length;
    clock.advance(clock.sleeps.at(-1)!);
  }
  await refresh;
  return clock.now() - start;
}

describe('IndexSync: the wait for another process building the index', () => {
  it('ends at PM_LOCK_TIMEOUT_MS: the query then answers from the item files, saying why once', async () => {
    const { clock, store, sync } = await setUp({ waitMs: 1000 });
    const refresh = sync.refresh();
    const waited = await runOut(clock, refresh);
    // Five looks 200 ms apart, and none after the deadline.
    expect(waited).toBe(1000);
    expect(clock.sleeps).toEqual([200, 200, 200, 200, 200]);
    expect(store.reasons).toEqual(['another process has been building the index for longer than PM_LOCK_TIMEOUT_MS (1000 ms)']);
    expect(store.size()).toBe(1200);
    expect(sync.keepsOwnIndex()).toBe(true);
  });

  it('never sleeps past the deadline when the limit is not a multiple of the look interval', async () => {
    const { clock, store, sync } = await setUp({ waitMs: 450 });
    const waited = await runOut(clock, sync.refresh());
    expect(waited).toBe(450);
    expect(clock.sleeps).toEqual([200, 200, 50]);
    expect(store.size()).toBe(1200);
  });

  it('waits the default limit when the host names none', async () => {
    const { clock, sync } = await setUp({});
    const waited = await runOut(clock, sync.refresh());
    expect(waited).toBe(DEFAULT_BUILD_WAIT_LIMIT_MS);
  });

  it('checks the built index, reading no file, when the other build ends within the limit', async () => {
    const { fs, clock, store, sync } = await setUp({ waitMs: 1000 });
    // What the other process built: every file, read by a sync of its own.
    const builder = new MemoryItemIndex();
    await new IndexSync(fs, new ManualClock(), paths, builder).refresh();
    const changes: IndexChange[] = [...builder.files()].map(([id, file]) => ({ kind: 'item', item: builder.get(id)!, file }));
    const reads = fs.bodyReads;
    let done = false;
    const refresh = sync.refresh().then(() => (done = true));
    expect(await nextSleep(clock, 0, () => done)).toBe(true);
    clock.advance(200);
    expect(await nextSleep(clock, 1, () => done)).toBe(true);
    store.finishElsewhere(changes);
    clock.advance(200);
    await refresh;
    expect(store.reasons).toEqual([]);
    expect(store.size()).toBe(1200);
    expect(fs.bodyReads).toBe(reads);
    expect(sync.keepsOwnIndex()).toBe(false);
  });
});
