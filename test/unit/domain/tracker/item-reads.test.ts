import { ROOT, memoryTracker } from '../../../support/memory-tracker.js';

describe('Tracker.get reads the file every time', () => {
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
