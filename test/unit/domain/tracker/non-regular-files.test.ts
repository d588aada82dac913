import { RefusedFileError } from '../../../../src/domain/errors/index.js';
import { HISTORY_FILE_MAX_BYTES, ITEM_FILE_MAX_BYTES } from '../../../../src/domain/tracker/file-caps.js';
import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';

const itemPath = (id: string) => `${ROOT}/items/${id}.md`;
const historyPath = (id: string) => `${ROOT}/history/${id}.jsonl`;
const refused = (reason: string) => expect.objectContaining({ constructor: RefusedFileError, reason });

/** docs/TRACKER.md "What pm reads and writes": links and special nodes are named, never followed. */
describe('item and history files that are not regular files', () => {
  it('refuses to read or change an item whose file is a FIFO, and names it in list, next, search and validate', async () => {
    const { tracker, fs } = await memoryTracker();
    const kept = (await tracker.create({ title: 'kept' })).item.id;
    const fifo = (await tracker.create({ title: 'fifo' })).item.id;
    await tracker.list();
    await fs.remove(itemPath(fifo));
    fs.makeSpecial(itemPath(fifo));
    await expect(tracker.get(fifo)).rejects.toEqual(refused('not_a_regular_file'));
    const before = fs.paths();
    const historyBefore = await fs.readText(historyPath(fifo));
    await expect(tracker.comment(fifo, 'hello')).rejects.toEqual(refused('not_a_regular_file'));
    await expect(tracker.update(fifo, { title: 'x' })).rejects.toEqual(refused('not_a_regular_file'));
    expect(fs.paths()).toEqual(before);
    expect(await fs.readText(historyPath(fifo))).toBe(historyBefore);
    const list = await tracker.list();
    expect(list.items.map((i) => i.id)).toEqual([kept]);
    expect(list.unreadable).toEqual([{ id: fifo, message: expect.stringContaining('not a regular file') }]);
    expect((await tracker.next()).unreadable).toEqual([expect.objectContaining({ id: fifo })]);
    expect((await tracker.search({ query: 'kept' })).unreadable).toEqual([expect.objectContaining({ id: fifo })]);
    const report = await tracker.validate();
    expect(report.ok).toBe(false);
    expect(report.findings).toEqual([expect.objectContaining({ severity: 'error', code: 'not_a_regular_file', itemId: fifo, file: itemPath(fifo) })]);
  });

  it('names an item file that is a symbolic link, and never reads through it', async () => {
    const { tracker, fs } = await memoryTracker();
    const linked = (await tracker.create({ title: 'linked' })).item.id;
    const text = (await fs.readText(itemPath(linked)))!;
    await fs.writeAtomic('/elsewhere/item.md', text);
    await fs.remove(itemPath(linked));
    fs.symlink('/elsewhere/item.md', itemPath(linked));
    await expect(tracker.get(linked)).rejects.toEqual(refused('symlink'));
    await expect(tracker.comment(linked, 'through the link')).rejects.toEqual(refused('symlink'));
    expect(await fs.readText('/elsewhere/item.md')).toBe(text);
    expect((await tracker.list()).unreadable).toEqual([{ id: linked, message: expect.stringContaining('symbolic link') }]);
    expect((await tracker.validate()).findings).toEqual([expect.objectContaining({ code: 'symlink', itemId: linked })]);
  });

  it('never appends to a history file linked outside the tracker, nor creates a dangling link target', async () => {
    const { tracker, fs } = await memoryTracker();
    const id = (await tracker.create({ title: 'a' })).item.id;
    const history = (await fs.readText(historyPath(id)))!;
    await fs.writeAtomic('/outside/log.jsonl', history);
    await fs.remove(historyPath(id));
    fs.symlink('/outside/log.jsonl', historyPath(id));
    await expect(tracker.comment(id, 'hello')).rejects.toEqual(refused('symlink'));
    expect(await fs.readText('/outside/log.jsonl')).toBe(history);
    expect((await tracker.validate()).findings).toContainEqual(expect.objectContaining({ code: 'symlink', itemId: id, file: historyPath(id) }));

    await fs.remove(historyPath(id));
    fs.symlink('/outside/new.jsonl', historyPath(id));
    await expect(tracker.comment(id, 'hello')).rejects.toEqual(refused('symlink'));
    expect(await fs.stat('/outside/new.jsonl')).toBeUndefined();
  });

  it('refuses an item or history file over its cap before reading it', async () => {
    const { tracker, fs } = await memoryTracker();
    const big = (await tracker.create({ title: 'big' })).item.id;
    const text = (await fs.readText(itemPath(big)))!;
    await fs.writeAtomic(itemPath(big), text + 'x'.repeat(ITEM_FILE_MAX_BYTES));
    await expect(tracker.get(big)).rejects.toEqual(refused('too_large'));
    expect((await tracker.list()).unreadable).toEqual([{ id: big, message: expect.stringContaining(`${ITEM_FILE_MAX_BYTES}-byte cap`) }]);
    expect((await tracker.validate()).findings).toContainEqual(expect.objectContaining({ code: 'file_too_large', itemId: big }));

    const long = (await tracker.create({ title: 'long history' })).item.id;
    await fs.append(historyPath(long), 'x'.repeat(HISTORY_FILE_MAX_BYTES));
    await expect(tracker.historyOf(long)).rejects.toEqual(refused('too_large'));
  });

  it('reports a link or FIFO under a stray name as a finding, not as a stray file', async () => {
    const { tracker, fs } = await memoryTracker();
    await tracker.create({ title: 'a' });
    fs.makeSpecial(`${ROOT}/items/notes.txt`);
    fs.symlink('/etc/passwd', `${ROOT}/history/notes.jsonl.bak`);
    const codes = (await tracker.validate()).findings.map((f) => f.code).sort();
    expect(codes).toEqual(['not_a_regular_file', 'symlink']);
  });
});
