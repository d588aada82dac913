import type { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { IdempotencyConflictError } from '../../../../src/domain/errors/index.js';
import { ROOT, memoryTracker } from '../../../support/memory-tracker.js';

// A writer killed mid-mutation, simulated over the in-memory file system: the chosen write
// throws and so does every write after it (a dead process writes nothing more, not even the
// cut-back of its own lines), and the retry runs in a freshly opened Tracker (a new process
// keeps no memory of the dead one). Whatever the point of the kill, a retry with the same
// idempotency key must leave exactly one effect and answer with that effect's receipt.

class Killed extends Error {}

type Point = 'intent' | 'history' | 'item' | 'receipt';

let revive = (): void => undefined;

/** The first attempt: killed, except at the receipt, which is written after the change is durable and so never fails it. */
async function attempt(point: Point, call: () => Promise<unknown>): Promise<void> {
  if (point === 'receipt') await expect(call()).resolves.toMatchObject({ changed: true });
  else await expect(call()).rejects.toThrow(Killed);
  revive();
}

/** Makes the next write at `point` throw, and every write after it (until the survivor reopens). */
function killAt(fs: MemoryFileSystem, point: Point): void {
  const append = fs.append.bind(fs);
  const writeAtomic = fs.writeAtomic.bind(fs);
  const truncate = fs.truncate.bind(fs);
  const remove = fs.remove.bind(fs);
  let armed = true;
  let dead = false;
  const fire = () => {
    armed = false;
    dead = true;
    throw new Killed(`killed at ${point}`);
  };
  const afterDeath = () => {
    if (dead) throw new Killed(`already killed at ${point}`);
  };
  // The survivor is a new process: it writes again.
  revive = () => {
    dead = false;
  };
  fs.truncate = async (path: string, size: number) => {
    afterDeath();
    return truncate(path, size);
  };
  fs.remove = async (path: string) => {
    afterDeath();
    return remove(path);
  };
  fs.append = async (path: string, content: string) => {
    afterDeath();
    if (armed && path.endsWith('idempotency.jsonl')) {
      const isIntent = content.includes('"intent"');
      if ((point === 'intent' && isIntent) || (point === 'receipt' && !isIntent)) fire();
    }
    if (armed && point === 'history' && path.includes('/history/')) fire();
    return append(path, content);
  };
  fs.writeAtomic = async (path: string, content: string) => {
    afterDeath();
    if (armed && point === 'item' && path.includes('/items/')) fire();
    return writeAtomic(path, content);
  };
}

describe('idempotency survives a writer killed mid-mutation', () => {
  test('the ledger file is where the tracker keeps it', async () => {
    const { fs, tracker } = await memoryTracker();
    await tracker.create({ title: 'keyed' }, { idempotencyKey: 'k0' });
    expect(fs.paths().filter((p) => p.endsWith('idempotency.jsonl'))).toEqual([`${ROOT}/.runtime/idempotency.jsonl`]);
  });

  test.each<[Point, boolean]>([
    ['intent', false],
    ['history', false],
    ['item', true],
    ['receipt', true],
  ])('a comment killed at the %s write is applied once by the retry (the first attempt took effect: %s)', async (point, tookEffect) => {
    const { fs, tracker, reopen } = await memoryTracker();
    const { item } = await tracker.create({ title: 'Target' });
    killAt(fs, point);
    await attempt(point, () => tracker.comment(item.id, 'exactly once', { idempotencyKey: 'c-1' }));

    const survivor = await reopen();
    const retry = await survivor.comment(item.id, 'exactly once', { idempotencyKey: 'c-1' });
    expect(retry.replayed).toBe(tookEffect);
    const after = await survivor.get(item.id);
    expect(after.comments.map((c) => c.text)).toEqual(['exactly once']);
    expect(retry.item?.comments.map((c) => c.text)).toEqual(['exactly once']);
    const keyed = (await survivor.historyOf(item.id)).filter((e) => e.idempotencyKey === 'c-1');
    expect(keyed).toHaveLength(1);
    expect(keyed[0]!.receiptId).toBe(retry.receipt.receiptId);
    // An interrupted write is rolled forward from its history line, never mistaken for an edit.
    expect((await survivor.historyOf(item.id)).map((e) => e.op)).toEqual(['create', 'comment']);

    // And once more: the finished key now replays from the ledger.
    const third = await (await reopen()).comment(item.id, 'exactly once', { idempotencyKey: 'c-1' });
    expect(third).toMatchObject({ replayed: true, receipt: { receiptId: retry.receipt.receiptId } });
    expect((await survivor.validate()).ok).toBe(true);
  });

  test.each<Point>(['history', 'item', 'receipt'])('a create killed at the %s write leaves one item after the retry', async (point) => {
    const { fs, tracker, reopen } = await memoryTracker();
    killAt(fs, point);
    await attempt(point, () => tracker.create({ title: 'Only one' }, { idempotencyKey: 'new-1' }));
    const survivor = await reopen();
    const retry = await survivor.create({ title: 'Only one' }, { idempotencyKey: 'new-1' });
    const all = (await survivor.list({ all: true })).items;
    expect(all.map((i) => i.title)).toEqual(['Only one']);
    expect(all[0]!.id).toBe(retry.item!.id);
  });

  test('a different request under a key that has only an intent is refused', async () => {
    const { fs, tracker, reopen } = await memoryTracker();
    const { item } = await tracker.create({ title: 'Target' });
    killAt(fs, 'item');
    await attempt('item', () => tracker.comment(item.id, 'first words', { idempotencyKey: 'c-2' }));
    await expect((await reopen()).comment(item.id, 'other words', { idempotencyKey: 'c-2' })).rejects.toThrow(IdempotencyConflictError);
  });
});
