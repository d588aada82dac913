import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';

const itemPath = (id: string) => `${ROOT}/items/${id}.md`;

/** docs/TRACKER.md "The derived index": the signature holds the status change time too. */
describe('an in-place edit whose modification time was put back', () => {
  it('is seen by list, search and get (same size, same inode, same mtime; only ctime moved)', async () => {
    const { tracker, fs } = await memoryTracker();
    const id = (await tracker.create({ title: 'aaaa' })).item.id;
    expect((await tracker.list()).items.map((i) => i.title)).toEqual(['aaaa']);
    expect((await tracker.get(id)).title).toBe('aaaa');
    const before = (await fs.stat(itemPath(id)))!;
    fs.editInPlace(itemPath(id), (await fs.readText(itemPath(id)))!.replace('title: aaaa', 'title: bbbb'), before.mtimeMs);
    const after = (await fs.stat(itemPath(id)))!;
    expect({ size: after.size, mtimeMs: after.mtimeMs, ino: after.ino }).toEqual({ size: before.size, mtimeMs: before.mtimeMs, ino: before.ino });
    expect((await tracker.list()).items.map((i) => i.title)).toEqual(['bbbb']);
    expect((await tracker.search({ query: 'bbbb' })).results.map((r) => r.id)).toEqual([id]);
    expect((await tracker.get(id)).title).toBe('bbbb');
  });
});
