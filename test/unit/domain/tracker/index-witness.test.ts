import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { MemoryIndexFreshness } from '../../../../src/adapters/memory/memory-index-freshness.js';
import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { IndexSync } from '../../../../src/domain/tracker/index-sync.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import type { FileSignature, WatchListener } from '../../../../src/ports/file-system.js';
import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';

/**
 * Counts the passes over a directory that begin a sweep of an index holding items (the sum of
 * every file's signature), so a test can tell a sweep from a vouched refresh.
 */
class CountingFileSystem extends MemoryFileSystem {
  scans = 0;
  override async visitFiles(dir: string, visit: (name: string, signature: FileSignature) => void): Promise<void> {
    this.scans++;
    return super.visitFiles(dir, visit);
  }
}

/**
 * A watch whose queue holds `capacity` events between two settles and silently drops the rest,
 * as inotify does when its queue overflows and libuv discards IN_Q_OVERFLOW.
 */
class LossyWatchFileSystem extends CountingFileSystem {
  private queued = 0;
  constructor(private readonly capacity: number) {
    super();
  }
  override watch(dir: string, listener: WatchListener): () => void {
    return super.watch(dir, (name) => {
      if (this.queued >= this.capacity) return;
      this.queued++;
      listener(name);
    });
  }
  async settleWatch(): Promise<void> {
    this.queued = 0;
  }
}

/** A fresh tracker's files written onto `fs` (the memory tracker helper makes its own fs). */
async function seed(fs: MemoryFileSystem, count: number): Promise<string[]> {
  const source = await memoryTracker();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await source.tracker.create({ title: `item ${i}` })).item.id);
  for (const entry of await source.fs.scan(`${ROOT}/items`)) {
    await fs.writeAtomic(`${ROOT}/items/${entry.name}`, (await source.fs.readText(`${ROOT}/items/${entry.name}`))!);
  }
  return ids;
}

async function retitle(fs: MemoryFileSystem, id: string, title: string): Promise<void> {
  const path = `${ROOT}/items/${id}.md`;
  const text = (await fs.readText(path))!;
  await fs.writeAtomic(path, text.replace(/^title: .*$/m, `title: ${title}`));
}

const paths = new TrackerPaths(ROOT);
const clock = new ManualClock('2026-03-01T10:00:00.000Z');

describe('IndexSync with a freshness witness (one-shot processes)', () => {
  it('skips its own sweep when the witness vouches, and sees every change the witness followed', async () => {
    const fs = new CountingFileSystem();
    const [a, b] = await seed(fs, 3);
    const index = new MemoryItemIndex();
    const watcher = new IndexSync(fs, clock, paths, index, { watch: true });
    await watcher.refresh();
    const witness = new MemoryIndexFreshness(() => watcher.refresh());
    const oneShot = new IndexSync(fs, clock, paths, index, { witness });
    const scans = fs.scans;
    await retitle(fs, a!, 'edited outside pm');
    await fs.remove(`${ROOT}/items/${b}.md`);
    await oneShot.refresh();
    expect(fs.scans).toBe(scans);
    expect(index.get(a!)?.title).toBe('edited outside pm');
    expect(index.get(b!)).toBeUndefined();
    expect(witness.sweeps).toEqual([]);
  });

  it('sweeps when there is no witness or it fails, tells it the file count, and a started witness serves the next query', async () => {
    const fs = new CountingFileSystem();
    const [a] = await seed(fs, 4);
    const index = new MemoryItemIndex();
    const watcher = new IndexSync(fs, clock, paths, index, { watch: true });
    const witness = new MemoryIndexFreshness(undefined, 4, () => () => watcher.refresh());
    const oneShot = new IndexSync(fs, clock, paths, index, { witness });
    await oneShot.refresh();
    expect(witness.sweeps).toEqual([4]);
    expect(witness.present).toBe(true);
    await retitle(fs, a!, 'second');
    const scans = fs.scans;
    await oneShot.refresh();
    expect(index.get(a!)?.title).toBe('second');
    // The watcher's own first refresh swept once; the one-shot process did not.
    expect(fs.scans).toBe(scans + 1);
    witness.replace(() => Promise.reject(new Error('watcher gone')));
    await retitle(fs, a!, 'third');
    await oneShot.refresh();
    expect(index.get(a!)?.title).toBe('third');
    expect(witness.sweeps).toEqual([4, 4]);
  });

  it('sweeps when it creates the index, whatever the witness says', async () => {
    const fs = new CountingFileSystem();
    await seed(fs, 2);
    const index = new MemoryItemIndex();
    const witness = new MemoryIndexFreshness(() => Promise.resolve());
    await new IndexSync(fs, clock, paths, index, { witness }).refresh();
    expect(index.size()).toBe(2);
  });

  it('neither asks the witness nor tells it of sweeps while the index is the process\'s own (the shared one cannot be written)', async () => {
    const fs = new CountingFileSystem();
    const [a] = await seed(fs, 2);
    const own = new OwnItemIndex();
    let asked = 0;
    const witness = new MemoryIndexFreshness(async () => void asked++, 0, () => async () => void asked++);
    const oneShot = new IndexSync(fs, clock, paths, own, { witness });
    await oneShot.refresh();
    await retitle(fs, a!, 'changed by another process');
    await oneShot.refresh();
    expect(own.get(a!)?.title).toBe('changed by another process');
    expect({ asked, sweeps: witness.sweeps, own: oneShot.keepsOwnIndex() }).toEqual({ asked: 0, sweeps: [], own: true });
  });
});

/** An in-memory index that says it is the process's own, as the healing SQLite index does once the file cannot be written. */
class OwnItemIndex extends MemoryItemIndex {
  override open() {
    return { ...super.open(), own: true };
  }
}

/** A watch that can fail as a real one does (an error event, after which it delivers nothing). */
class FailingWatchFileSystem extends CountingFileSystem {
  watches = 0;
  private fail: (() => void) | undefined;
  override watch(dir: string, listener: WatchListener): () => void {
    this.watches++;
    let dead = false;
    const stop = super.watch(dir, (name) => {
      if (!dead) listener(name);
    });
    this.fail = () => {
      dead = true;
      listener(undefined);
    };
    return stop;
  }
  breakWatch(): void {
    this.fail?.();
  }
}

describe('IndexSync watch mode and a watch queue that overflowed', () => {
  it('after a watch error it checks every file and watches again, so later changes are seen', async () => {
    const fs = new FailingWatchFileSystem();
    const [a] = await seed(fs, 3);
    const index = new MemoryItemIndex();
    const sync = new IndexSync(fs, clock, paths, index, { watch: true });
    await sync.refresh();
    fs.breakWatch();
    await retitle(fs, a!, 'during the failure');
    const scans = fs.scans;
    await sync.refresh();
    expect(fs.scans).toBe(scans + 1);
    expect(fs.watches).toBe(2);
    expect(index.get(a!)?.title).toBe('during the failure');
    await retitle(fs, a!, 'after the failure');
    await sync.refresh();
    expect(index.get(a!)?.title).toBe('after the failure');
    expect(fs.scans).toBe(scans + 1);
  });

  it('checks every file after as many events as the queue may hold, so dropped events are not missed', async () => {
    const fs = new LossyWatchFileSystem(4);
    const ids = await seed(fs, 10);
    const index = new MemoryItemIndex();
    const sync = new IndexSync(fs, clock, paths, index, { watch: true, watchOverflowAt: 2 });
    await sync.refresh();
    for (const id of ids) await retitle(fs, id, `renamed ${id}`);
    const scans = fs.scans;
    await sync.refresh();
    expect(fs.scans).toBe(scans + 1);
    for (const id of ids) expect(index.get(id)?.title).toBe(`renamed ${id}`);
    // Fewer events than the limit: the events are trusted (no sweep).
    await retitle(fs, ids[0]!, 'once more');
    await sync.refresh();
    expect(fs.scans).toBe(scans + 1);
    expect(index.get(ids[0]!)?.title).toBe('once more');
  });

  it('without the rule the same overflow leaves the index stale (the rule is what saves it)', async () => {
    const fs = new LossyWatchFileSystem(4);
    const ids = await seed(fs, 10);
    const index = new MemoryItemIndex();
    const sync = new IndexSync(fs, clock, paths, index, { watch: true, watchOverflowAt: Number.POSITIVE_INFINITY });
    await sync.refresh();
    for (const id of ids) await retitle(fs, id, `renamed ${id}`);
    await sync.refresh();
    expect(ids.filter((id) => index.get(id)?.title !== `renamed ${id}`)).toHaveLength(6);
  });
});
