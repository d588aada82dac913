import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { MemoryLocker } from '../../../../src/adapters/memory/memory-locker.js';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { SeededIdSource } from '../../../../src/adapters/memory/seeded-id-source.js';
import { IndexResetError } from '../../../../src/domain/errors/index.js';
import { initTracker } from '../../../../src/domain/tracker/init.js';
import { Tracker } from '../../../../src/domain/tracker/tracker.js';
import type { ItemIndexStore } from '../../../../src/ports/item-index-store.js';

const ROOT = '/project/.agents/pm';

/**
 * An index that a store resets under a call, as the healing SQLite index does when it finds its
 * file damaged or unwritable: it is emptied and the call throws IndexResetError (the next open
 * then reports it created).
 */
class ResettingIndex extends MemoryItemIndex {
  /** Calls left before the reset, per method name. */
  readonly armed = new Map<string, number>();
  resets = 0;

  constructor() {
    super();
    for (const method of ['page', 'readiness', 'searchTop', 'overview', 'referrers', 'racy', 'digest', 'apply', 'getMany', 'problems'] as const) {
      const original = (this[method] as (...args: unknown[]) => unknown).bind(this);
      (this as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        const left = this.armed.get(method);
        if (left !== undefined) {
          if (left > 0) this.armed.set(method, left - 1);
          else {
            this.armed.delete(method);
            this.resets++;
            this.clearAll();
            throw new IndexResetError('reset under the call');
          }
        }
        return original(...args);
      };
    }
  }

  private clearAll(): void {
    super.apply([...this.files().keys()].map((id) => ({ kind: 'gone' as const, id })));
  }
}

/** An index whose next open reads another file, which lacks one item (IndexOpening.replaced). */
class ReplacedIndex extends MemoryItemIndex {
  private replacedOnce = false;

  replaceWithout(id: string): void {
    this.apply([{ kind: 'gone', id }]);
    this.replacedOnce = true;
  }

  override open() {
    const opening = super.open();
    if (!this.replacedOnce) return opening;
    this.replacedOnce = false;
    return { ...opening, replaced: true };
  }
}

async function trackerOver(index: ItemIndexStore, watch = false) {
  const fs = new MemoryFileSystem();
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  await initTracker(fs, ROOT);
  const ports = { fs, clock, ids: new SeededIdSource(7), hasher: new PureSha256Hasher(), locker: new MemoryLocker(clock), index };
  const tracker = await Tracker.open(ports, ROOT, { defaultActor: 'alice', watchIndex: watch });
  const ids: string[] = [];
  for (const title of ['alpha task', 'beta task', 'gamma task']) {
    clock.advance(1000);
    ids.push((await tracker.create({ title })).item.id);
  }
  await tracker.addDependency(ids[1]!, { kind: 'blockedBy', target: ids[0]! });
  return { tracker, ids };
}

describe('a query over an index reset under it', () => {
  for (const method of ['page', 'readiness', 'searchTop', 'overview', 'getMany', 'problems']) {
    it(`answers from a rebuilt index when ${method} finds the index reset`, async () => {
      const index = new ResettingIndex();
      const { tracker, ids } = await trackerOver(index);
      index.armed.set(method, 0);
      const list = await tracker.list();
      const next = await tracker.next();
      const search = await tracker.search({ query: 'task' });
      const context = await tracker.context();
      expect(list.items.map((item) => item.id).sort()).toEqual([...ids].sort());
      expect(list.items.find((item) => item.id === ids[1])?.activeBlockers).toEqual([ids[0]]);
      expect(next.item?.id).toBe(ids[0]);
      expect(search.results.map((hit) => hit.id).sort()).toEqual([...ids].sort());
      expect(context.total).toBe(3);
      expect(index.resets).toBe(1);
    });
  }

  for (const [method, watch] of [['digest', false], ['racy', false], ['racy', true], ['page', true], ['apply', false]] as const) {
    it(`checks every file again when ${method} finds the index reset (${watch ? 'watching' : 'checking'} the files)`, async () => {
      const index = new ResettingIndex();
      const { tracker, ids } = await trackerOver(index, watch);
      await tracker.list();
      index.armed.set(method, 0);
      expect((await tracker.list()).items.map((item) => item.id).sort()).toEqual([...ids].sort());
      expect(index.resets).toBe(1);
    });
  }

  it('refuses a delete of a referenced item after a reset under the referrers lookup', async () => {
    const index = new ResettingIndex();
    const { tracker, ids } = await trackerOver(index);
    index.armed.set('referrers', 0);
    await expect(tracker.delete(ids[0]!, { consent: async () => true })).rejects.toThrow(/still referenced by/);
    expect(index.resets).toBe(1);
  });

  it('checks every file again, while following a watch, when the store reads an index another process replaced', async () => {
    const index = new ReplacedIndex();
    const { tracker, ids } = await trackerOver(index, true);
    expect((await tracker.list()).total).toBe(3);
    // Another process made the file anew and died before it was complete: one item is missing from it.
    index.replaceWithout(ids[2]!);
    expect((await tracker.list()).items.map((item) => item.id).sort()).toEqual([...ids].sort());
  });

  it('gives up after a few resets in a row and says so', async () => {
    const index = new ResettingIndex();
    const { tracker } = await trackerOver(index);
    index.page = () => {
      throw new IndexResetError('reset again');
    };
    await expect(tracker.list()).rejects.toBeInstanceOf(IndexResetError);
  });
});
