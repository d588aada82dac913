import { HistoryLog, type HistoryHead } from '../../../../src/domain/tracker/history-log.js';
import type { HistoryEntry } from '../../../../src/domain/tracker/history.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { cachedAndPlain } from '../../../support/cache-comparison.js';
import { ROOT, memoryTracker } from '../../../support/memory-tracker.js';

afterEach(() => BoundedCache.bypass(false));

type Env = Awaited<ReturnType<typeof memoryTracker>>;

/** Counts the history tail reads of a memory file system. */
function countTailReads(fs: Env['fs']): { reads: number } {
  const counter = { reads: 0 };
  const readTextRange = fs.readTextRange.bind(fs);
  fs.readTextRange = async (path: string, start: number, end: number) => {
    if (path.startsWith(`${ROOT}/history/`)) counter.reads++;
    return readTextRange(path, start, end);
  };
  return counter;
}

/** Every history file's bytes, by path. */
async function historyBytes(fs: Env['fs']): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { name } of await fs.scan(`${ROOT}/history`)) out[name] = (await fs.readText(`${ROOT}/history/${name}`))!;
  return out;
}

describe('the history heads of HistoryLog (BoundedCache "history heads")', () => {
  it('writes the same history bytes and receipts with caching on and bypassed', async () => {
    const scenario = async () => {
      const { tracker, fs, clock } = await memoryTracker();
      const counter = countTailReads(fs);
      const receipts: unknown[] = [];
      const a = (await tracker.create({ title: 'Chained' })).item.id;
      const b = (await tracker.create({ title: 'Other chain' })).item.id;
      for (let i = 0; i < 4; i++) {
        clock.advance(1000);
        receipts.push((await tracker.update(a, { priority: i })).receipt, (await tracker.comment(b, `note ${i}`)).receipt);
      }
      // An edit by hand: the next write records it as an external_edit line first.
      const path = `${ROOT}/items/${a}.md`;
      await fs.writeAtomic(path, (await fs.readText(path))!.replace('title: Chained', 'title: Edited by hand'));
      receipts.push((await tracker.update(a, { title: 'Chained again' })).receipt);
      receipts.push((await tracker.claim(b, {})).receipt, (await tracker.release(b, {})).receipt);
      const history = [await tracker.historyOf(a), await tracker.historyOf(b)];
      const report = await tracker.validate();
      return { text: JSON.stringify({ receipts, history, report, files: await historyBytes(fs) }), reads: counter.reads };
    };
    const { cached, plain } = await cachedAndPlain(scenario);
    expect(cached.text).toBe(plain.text);
    expect(cached.text).toContain('external_edit');
    // The cache did its work: appends did not re-read the tail they had just written.
    expect(cached.reads).toBeLessThan(plain.reads);
  });

  it('never keeps more heads than its limit, and reads a forgotten head again', async () => {
    const { fs, hasher } = await memoryTracker();
    const heads = new BoundedCache<string, HistoryHead>('history heads', 4);
    const log = new HistoryLog(fs, hasher, new TrackerPaths(ROOT), heads);
    const plain = new HistoryLog(fs, hasher, new TrackerPaths(ROOT));
    const ids = Array.from({ length: 20 }, (_, i) => `pm-h${i.toString(36).padStart(4, '0')}`);
    const entry = (itemId: string, n: number): Omit<HistoryEntry, 'seq' | 'prev'> => ({
      receiptId: `r-${itemId}-${n}`, op: 'update', itemId, actor: 'alice', at: '2026-03-01T10:00:00.000Z',
      revisionBefore: n, revisionAfter: n + 1, digestBefore: null, digestAfter: null, patch: [],
    });
    for (let round = 0; round < 3; round++) {
      for (const id of ids) {
        const written = await log.append(id, entry(id, round));
        expect(written.seq).toBe(round + 1);
        expect(heads.size).toBeLessThanOrEqual(4);
      }
    }
    for (const id of ids) expect(await log.last(id)).toEqual(await plain.last(id));
    expect(heads.size).toBeLessThanOrEqual(4);
    // The head just read is kept (no tail read); one not read for longest was forgotten.
    const counter = countTailReads(fs);
    await log.last(ids[19]!);
    expect(counter.reads).toBe(0);
    expect((await log.last(ids[0]!))?.seq).toBe(3);
    expect(counter.reads).toBe(1);
  });
});
