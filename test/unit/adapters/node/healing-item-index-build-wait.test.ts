import { rmSync, writeFileSync } from 'node:fs';
import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { HealingItemIndex } from '../../../../src/adapters/node/healing-item-index.js';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import { LockTimeoutError } from '../../../../src/domain/errors/index.js';
import { IndexSync } from '../../../../src/domain/tracker/index-sync.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import { writeBulkItems } from '../../../support/bulk-items.js';
import { thrownBy } from '../../../support/thrown.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { entry, put } from '../item-index-contract.js';

const dir = useTempDir('pm-build-wait-');

/** A manual clock whose sleeps pass at once: the time a wait would take, without taking it. */
class FastForwardClock extends ManualClock {
  slept = 0;
  override sleep(ms: number): Promise<void> {
    const woken = super.sleep(ms);
    this.slept += ms;
    this.advance(ms);
    return woken;
  }
}

function healing(path: string) {
  const lines: string[] = [];
  const store = new HealingItemIndex(new SqliteItemIndex(path), () => new MemoryItemIndex(), (text) => lines.push(text));
  return { store, lines };
}

/** Another process building the index: a live process (this one) holds its build lock. */
const holdBuildLock = (path: string) => writeFileSync(`${path}.build.lock`, String(process.pid));

describe('HealingItemIndex: another process building the index for longer than the lock timeout', () => {
  it('keeps an index of its own in memory until that build ends, then returns to the file', () => {
    const path = `${dir()}/index.sqlite`;
    const { store, lines } = healing(path);
    store.open();
    holdBuildLock(path);
    expect(store.startBuild()).toBe('busy');
    store.keepOwnUntilBuilt('another process has been building the index for longer than PM_LOCK_TIMEOUT_MS (50 ms)');
    expect(lines).toEqual(['another process has been building the index for longer than PM_LOCK_TIMEOUT_MS (50 ms), so this process reads every item file until that build is done (correct, but slower on large trackers)']);
    expect(store.keptInMemory).toBe(true);
    expect(store.open()).toMatchObject({ own: true });
    store.apply([put(entry('pm-own1'))]);
    expect(store.get('pm-own1')?.id).toBe('pm-own1');
    // Still building: still its own.
    expect(store.open()).toMatchObject({ own: true });
    // The build ended: the file again, and the caller is told to check every file against it.
    rmSync(`${path}.build.lock`);
    expect(store.open()).toEqual({ created: false, replaced: true });
    expect(store.keptInMemory).toBe(false);
    expect(store.get('pm-own1')).toBeUndefined();
    expect(store.open()).toEqual({ created: false });
    expect(lines).toHaveLength(1);
    store.close();
  });

  it('answers a sync from the item files once the wait reaches the limit, and uses the built file after', async () => {
    const fs = new MemoryFileSystem();
    const paths = new TrackerPaths('/t/.agents/pm');
    await writeBulkItems(fs, paths.items, 1100);
    const path = `${dir()}/index.sqlite`;
    const { store, lines } = healing(path);
    store.open();
    holdBuildLock(path);
    const clock = new FastForwardClock();
    const sync = new IndexSync(fs, clock, paths, store, { waitMs: 700 });
    await sync.refresh();
    expect(clock.slept).toBe(700);
    expect(store.size()).toBe(1100);
    expect(sync.keepsOwnIndex()).toBe(true);
    expect(lines).toHaveLength(1);
    // The other build ended (here: died, leaving an empty index): the next refresh builds the file.
    rmSync(`${path}.build.lock`);
    await sync.refresh();
    expect(store.keptInMemory).toBe(false);
    expect(sync.keepsOwnIndex()).toBe(false);
    expect(store.size()).toBe(1100);
    expect(new SqliteItemIndex(path).size()).toBe(1100);
    expect(clock.slept).toBe(700);
    store.close();
  });

  it('is a lock timeout for the SQLite index alone, which keeps no index of its own', () => {
    const sqlite = new SqliteItemIndex(`${dir()}/bare.sqlite`);
    const error = thrownBy(() => sqlite.keepOwnUntilBuilt('another process has been building the index for longer than PM_LOCK_TIMEOUT_MS (5 ms)'), LockTimeoutError);
    expect(error.message).toMatch(/^another process has been building the index for longer than PM_LOCK_TIMEOUT_MS \(5 ms\), and the index .*bare\.sqlite keeps no index of its own$/);
    sqlite.close();
  });
});
