import { ItemStore } from '../../../../src/domain/tracker/item-store.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import { ROOT, memoryTracker } from '../../../support/memory-tracker.js';

describe('Tracker.get sees every change of the item file', () => {
  it('reuses the parse only while the file text is unchanged', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'First title' });
    const first = await tracker.get(item.id);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.tags)).toBe(true);
    expect(await tracker.get(item.id)).toBe(first);

    // A hand edit of the file (same length, different text) is seen on the next read.
    const path = `${ROOT}/items/${item.id}.md`;
    const text = (await fs.readText(path))!;
    await fs.writeAtomic(path, text.replace('title: First title', 'title: Other title'));
    const edited = await tracker.get(item.id);
    expect(edited.title).toBe('Other title');
    expect(edited).not.toBe(first);

    await tracker.update(item.id, { title: 'Third title' });
    expect((await tracker.get(item.id)).title).toBe('Third title');

    await fs.remove(path);
    await expect(tracker.get(item.id)).rejects.toMatchObject({ reason: 'not_found' });
  });
});

describe('Tracker.get checks the file signature on every turn', () => {
  it('reads the text again only when size, mtime or inode changed', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'Signed' });
    const path = `${ROOT}/items/${item.id}.md`;
    const readText = fs.readText.bind(fs);
    const stat = fs.stat.bind(fs);
    let reads = 0;
    let stats = 0;
    fs.readText = async (p: string) => {
      if (p === path) reads++;
      return readText(p);
    };
    fs.stat = async (p: string) => {
      if (p === path) stats++;
      return stat(p);
    };
    const first = await tracker.get(item.id);
    const readsAfterFirst = reads;
    for (let i = 0; i < 3; i++) expect(await tracker.get(item.id)).toBe(first);
    expect(reads).toBe(readsAfterFirst);
    expect(stats).toBeGreaterThanOrEqual(3);

    // An in-place change (same inode, new size and mtime) is read.
    await fs.append(path, 'An appended line of the description.\n');
    const appended = await tracker.get(item.id);
    expect(reads).toBe(readsAfterFirst + 1);
    expect(appended.body).toContain('An appended line');
    expect(appended.title).toBe('Signed');

    // A rewrite with the very same text gets a new signature: read again, parse reused.
    await fs.writeAtomic(path, (await readText(path))!);
    expect(await tracker.get(item.id)).toBe(appended);
    expect(reads).toBe(readsAfterFirst + 2);
  });
});


describe('Tracker.get shares one signature among the reads of one turn', () => {
  async function counted() {
    const { tracker, fs, hasher } = await memoryTracker();
    const { item } = await tracker.create({ title: 'Coalesced' });
    const path = `${ROOT}/items/${item.id}.md`;
    const stat = fs.stat.bind(fs);
    const counter = { stats: 0 };
    fs.stat = async (p: string) => {
      if (p === path) counter.stats++;
      return stat(p);
    };
    return { tracker, fs, hasher, item, path, counter };
  }

  it('takes one signature for reads that start in the same turn, and a new one in the next turn', async () => {
    const { tracker, item, counter } = await counted();
    const burst = await Promise.all(Array.from({ length: 32 }, () => tracker.get(item.id)));
    expect(new Set(burst).size).toBe(1);
    expect(counter.stats).toBe(1);

    await new Promise((resolve) => setImmediate(resolve));
    await tracker.get(item.id);
    expect(counter.stats).toBe(2);
  });

  it('sees a change another writer made before the next turn', async () => {
    const { tracker, fs, item, path } = await counted();
    expect((await tracker.get(item.id)).title).toBe('Coalesced');
    await new Promise((resolve) => setImmediate(resolve));
    const text = (await fs.readText(path))!;
    await fs.writeAtomic(path, text.replace('title: Coalesced', 'title: Changed elsewhere'));
    expect((await tracker.get(item.id)).title).toBe('Changed elsewhere');
  });

  it("drops the turn's shared read when the store writes the item", async () => {
    const { fs, hasher, item, path } = await counted();
    const store = new ItemStore(fs, hasher, new TrackerPaths(ROOT));
    const changed = (await fs.readText(path))!.replace('title: Coalesced', 'title: Written by this store');
    const before = store.readItem(item.id);
    expect(store.readItem(item.id)).toBe(before);
    const writing = store.writeText(item.id, changed);
    const after = store.readItem(item.id);
    expect(after).not.toBe(before);
    expect((await after)?.title).toBe('Written by this store');
    await writing;
  });
});
