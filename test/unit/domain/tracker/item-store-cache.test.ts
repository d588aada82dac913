import { ItemStore, type ParsedItem } from '../../../../src/domain/tracker/item-store.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { cachedAndPlain } from '../../../support/cache-comparison.js';
import { ROOT, memoryTracker } from '../../../support/memory-tracker.js';

afterEach(() => BoundedCache.bypass(false));

/** Counts the item-file text reads of a memory file system. */
function countReads(fs: Awaited<ReturnType<typeof memoryTracker>>['fs']): { reads: number } {
  const counter = { reads: 0 };
  const readText = fs.readText.bind(fs);
  fs.readText = async (path: string) => {
    if (path.startsWith(`${ROOT}/items/`)) counter.reads++;
    return readText(path);
  };
  return counter;
}

describe('the parsed items of ItemStore (BoundedCache "parsed items")', () => {
  it('gives the same items with caching on and bypassed, through edits by pm and by hand', async () => {
    const scenario = async () => {
      const { tracker, fs } = await memoryTracker();
      const counter = countReads(fs);
      const seen: unknown[] = [];
      const a = (await tracker.create({ title: 'Alpha', tags: ['x'] })).item.id;
      const b = (await tracker.create({ title: 'Bravo', body: 'Body of bravo.' })).item.id;
      const path = `${ROOT}/items/${a}.md`;
      for (let i = 0; i < 3; i++) seen.push(await tracker.get(a), await tracker.get(b));
      await fs.writeAtomic(path, (await fs.readText(path))!.replace('title: Alpha', 'title: Omega'));
      seen.push(await tracker.get(a));
      await tracker.update(b, { title: 'Bravo two', tags: ['y'] });
      seen.push(await tracker.get(b), await tracker.get(b));
      await fs.writeAtomic(path, (await fs.readText(path))!);
      seen.push(await tracker.get(a));
      await fs.append(path, 'An appended line.\n');
      seen.push(await tracker.get(a));
      await fs.remove(path);
      seen.push(await tracker.get(a).catch((error: { reason?: string }) => error.reason));
      return { seen: JSON.stringify(seen), reads: counter.reads };
    };
    const { cached, plain } = await cachedAndPlain(scenario);
    expect(cached.seen).toBe(plain.seen);
    expect(cached.seen).toContain('Omega');
    expect(cached.seen).toContain('An appended line.');
    expect(cached.seen).toContain('not_found');
    // The cache did its work: unchanged files were not read again.
    expect(cached.reads).toBeLessThan(plain.reads);
  });

  it('keeps at most its characters of item files, and reads a file too large to keep the same way', async () => {
    const { tracker, fs, hasher } = await memoryTracker();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await tracker.create({ title: `Item ${i}`, body: 'b'.repeat(i * 400) })).item.id);
    const parsed = new BoundedCache<string, ParsedItem>('parsed items', 1024, { max: 8000, of: (item) => item.text.length });
    const store = new ItemStore(fs, hasher, new TrackerPaths(ROOT), parsed);
    for (let round = 0; round < 2; round++) {
      for (const [i, id] of ids.entries()) {
        expect((await store.readItem(id))?.body).toBe('b'.repeat(i * 400));
        expect(parsed.weightHeld).toBeLessThanOrEqual(8000);
      }
    }
    expect(parsed.has(ids[11]!)).toBe(false);
    await store.readItem(ids[1]!);
    expect(parsed.has(ids[1]!)).toBe(true);
  });

  it('never keeps more than its limit, and forgets items not read for longest', async () => {
    const { tracker, fs, hasher } = await memoryTracker();
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await tracker.create({ title: `Item ${i}` })).item.id);
    const parsed = new BoundedCache<string, ParsedItem>('parsed items', 8);
    const store = new ItemStore(fs, hasher, new TrackerPaths(ROOT), parsed);
    const counter = countReads(fs);
    for (const id of ids) {
      expect((await store.readItem(id))?.title).toBe(`Item ${ids.indexOf(id)}`);
      expect(parsed.size).toBeLessThanOrEqual(8);
    }
    expect(counter.reads).toBe(40);
    // The latest reads are kept (no text read), the first ones were forgotten (read again).
    for (const id of ids.slice(-4)) await store.readItem(id);
    expect(counter.reads).toBe(40);
    expect((await store.readItem(ids[0]!))?.title).toBe('Item 0');
    expect(counter.reads).toBe(41);
  });
});
