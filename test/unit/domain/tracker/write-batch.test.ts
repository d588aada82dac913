import type { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { ROOT, memoryTracker } from '../../../support/memory-tracker.js';

// The group commit coalesces the writes of one batch per item (write-batch.ts): every mutation
// keeps its own history line, revision and receipt, but an item's lines are appended with one
// write and its file replaced once. These tests count the file operations over the in-memory
// file system and check the outcome against the same calls made one at a time.

/** Counts appends and atomic writes per path. */
function countWrites(fs: MemoryFileSystem): { appends: Map<string, number>; writes: Map<string, number> } {
  const appends = new Map<string, number>();
  const writes = new Map<string, number>();
  const append = fs.append.bind(fs);
  const writeAtomic = fs.writeAtomic.bind(fs);
  fs.append = async (path, content) => {
    appends.set(path, (appends.get(path) ?? 0) + 1);
    return append(path, content);
  };
  fs.writeAtomic = async (path, content) => {
    writes.set(path, (writes.get(path) ?? 0) + 1);
    return writeAtomic(path, content);
  };
  return { appends, writes };
}

class DiskFull extends Error {}

afterEach(() => BoundedCache.bypass(false));

describe('a batch of writes to one item', () => {
  test.each([false, true])('16 concurrent comments: one append, one file write, 16 lines and revisions (caches bypassed: %s)', async (bypass) => {
    BoundedCache.bypass(bypass);
    const { fs, tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'hot' });
    const counts = countWrites(fs);
    const texts = Array.from({ length: 16 }, (_, i) => `comment ${i}`);
    const results = await Promise.all(texts.map((text) => tracker.comment(item.id, text)));

    expect(counts.appends.get(`${ROOT}/history/${item.id}.jsonl`)).toBe(1);
    expect(counts.writes.get(`${ROOT}/items/${item.id}.md`)).toBe(1);
    // Each call has its own receipt and revision, in arrival order, each seeing the ones before.
    expect(results.map((r) => r.receipt.revisionAfter)).toEqual(texts.map((_, i) => i + 2));
    expect(new Set(results.map((r) => r.receipt.receiptId)).size).toBe(16);
    expect(results.map((r) => r.item.comments.length)).toEqual(texts.map((_, i) => i + 1));
    for (const [i, r] of results.entries()) if (i > 0) expect(r.receipt.digestBefore).toBe(results[i - 1]!.receipt.digestAfter);

    const history = await tracker.historyOf(item.id);
    expect(history.map((e) => [e.op, e.seq, e.revisionAfter])).toEqual([['create', 1, 1], ...texts.map((_, i) => ['comment', i + 2, i + 2])]);
    expect((await tracker.get(item.id)).comments.map((c) => c.text)).toEqual(texts);
    expect((await tracker.validate()).findings).toEqual([]);
  });

  test('ends in the same item and chain as the same calls made one at a time', async () => {
    const run = async (concurrent: boolean) => {
      const { tracker } = await memoryTracker();
      const { item } = await tracker.create({ title: 'same' });
      // Calls that reach the engine after the same number of steps, so they arrive in this order.
      const calls = [
        () => tracker.update(item.id, { title: 'renamed', addTags: ['x'] }),
        () => tracker.claim(item.id, {}),
        () => tracker.update(item.id, { priority: 0, body: 'more' }),
        () => tracker.update(item.id, { removeTags: ['x'], addTags: ['y'] }),
      ];
      if (concurrent) await Promise.all(calls.map((call) => call()));
      else for (const call of calls) await call();
      const history = (await tracker.historyOf(item.id)).map(({ receiptId: _r, ...rest }) => rest);
      return { item: await tracker.get(item.id), history };
    };
    const [one, batched] = [await run(false), await run(true)];
    expect(batched.item).toEqual(one.item);
    expect(batched.history.map((e) => [e.op, e.revisionAfter, e.digestAfter])).toEqual(one.history.map((e) => [e.op, e.revisionAfter, e.digestAfter]));
  });

  test('writes to different items in one batch: one file write and one append each', async () => {
    const { fs, tracker } = await memoryTracker();
    const items = await Promise.all(['a', 'b', 'c'].map((title) => tracker.create({ title })));
    const counts = countWrites(fs);
    await Promise.all(items.flatMap(({ item }) => [tracker.comment(item.id, `1 on ${item.id}`), tracker.comment(item.id, `2 on ${item.id}`)]));
    for (const { item } of items) {
      expect(counts.writes.get(`${ROOT}/items/${item.id}.md`)).toBe(1);
      expect(counts.appends.get(`${ROOT}/history/${item.id}.jsonl`)).toBe(1);
      expect((await tracker.get(item.id)).comments.map((c) => c.text)).toEqual([`1 on ${item.id}`, `2 on ${item.id}`]);
    }
    expect((await tracker.validate()).ok).toBe(true);
  });

  test('a check that reads the index sees the earlier writes of its own batch', async () => {
    const { tracker } = await memoryTracker();
    const { item: blocker } = await tracker.create({ title: 'blocker' });
    const { item: blocked } = await tracker.create({ title: 'depends', blockedBy: [blocker.id] });
    // The close reaches the engine first; under strict the claim is refused while the blocker is open.
    const [closed, claimed] = await Promise.all([tracker.close(blocker.id, { evidence: 'done' }), tracker.claim(blocked.id, {}, { strict: true })]);
    expect(closed.item.status).toBe('closed');
    expect(claimed.item.claim?.holder).toBe('alice');
    expect((await tracker.validate()).ok).toBe(true);
  });

  test('a failed write of the item fails every call staged on it and cuts its lines off again: nothing reported failed is applied later', async () => {
    const { fs, tracker, reopen } = await memoryTracker();
    const { item } = await tracker.create({ title: 'fragile' });
    const { item: other } = await tracker.create({ title: 'sturdy' });
    const writeAtomic = fs.writeAtomic.bind(fs);
    let armed = true;
    fs.writeAtomic = async (path, content) => {
      if (armed && path.endsWith(`/items/${item.id}.md`)) {
        armed = false;
        throw new DiskFull('no space left');
      }
      return writeAtomic(path, content);
    };
    const outcomes = await Promise.allSettled([
      tracker.comment(item.id, 'first'),
      tracker.comment(other.id, 'elsewhere'),
      tracker.comment(item.id, 'second'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(DiskFull);

    // Both lines were written ahead of the file, and cut off again when the file failed.
    expect((await tracker.validate()).findings).toEqual([]);
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create']);
    const survivor = await reopen();
    const { item: after } = await survivor.comment(item.id, 'third');
    expect(after.comments.map((c) => c.text)).toEqual(['third']);
    expect((await survivor.historyOf(item.id)).map((e) => [e.op, e.revisionAfter])).toEqual([['create', 1], ['comment', 2]]);
    expect((await survivor.validate()).findings).toEqual([]);
  });

  test('a failed history append fails the calls of that item only and leaves its chain as it was', async () => {
    const { fs, tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'fragile' });
    const { item: other } = await tracker.create({ title: 'sturdy' });
    const append = fs.append.bind(fs);
    let armed = true;
    fs.append = async (path, content) => {
      if (armed && path.endsWith(`/history/${item.id}.jsonl`)) {
        armed = false;
        throw new DiskFull('no space left');
      }
      return append(path, content);
    };
    const outcomes = await Promise.allSettled([tracker.comment(item.id, 'lost'), tracker.comment(other.id, 'kept'), tracker.comment(item.id, 'lost too')]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'rejected']);
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create']);
    expect((await tracker.get(item.id)).comments).toEqual([]);
    const { item: next } = await tracker.comment(item.id, 'later');
    expect(next).toMatchObject({ revision: 2, comments: [{ text: 'later' }] });
    expect((await tracker.validate()).findings).toEqual([]);
  });

  test('an idempotent call in a batch is on disk before its key is recorded, and replays', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'keyed' });
    const [a, b, c] = await Promise.all([
      tracker.comment(item.id, 'plain'),
      tracker.comment(item.id, 'keyed', { idempotencyKey: 'k-1' }),
      tracker.comment(item.id, 'keyed', { idempotencyKey: 'k-1' }),
    ]);
    expect(a.replayed).toBe(false);
    expect(b.replayed).toBe(false);
    expect(c).toMatchObject({ replayed: true, receipt: { receiptId: b.receipt.receiptId } });
    expect((await tracker.get(item.id)).comments.map((x) => x.text)).toEqual(['plain', 'keyed']);
    expect((await tracker.validate()).findings).toEqual([]);
  });
});

describe('the next mutation of an item in the same batch', () => {
  test('builds on the item as its file reads back, as one made after a read would', async () => {
    const run = async (concurrent: boolean) => {
      const { tracker } = await memoryTracker();
      const { item } = await tracker.create({ title: 'spaced' });
      // Reading the file back gives \n line ends; the second update asks for exactly what a read gives.
      const calls = [() => tracker.update(item.id, { body: 'first line\r\nsecond line' }), () => tracker.update(item.id, { body: 'first line\nsecond line' })];
      const results = concurrent ? await Promise.all(calls.map((call) => call())) : [await calls[0]!(), await calls[1]!()];
      return { changed: results.map((r) => r.changed), history: (await tracker.historyOf(item.id)).map((e) => [e.op, e.revisionAfter, e.digestAfter]) };
    };
    const [one, batched] = [await run(false), await run(true)];
    expect(one.changed).toEqual([true, false]);
    expect(batched).toEqual(one);
  });
});
