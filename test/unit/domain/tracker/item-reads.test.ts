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

describe('Tracker.get checks the file signature on every call', () => {
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

