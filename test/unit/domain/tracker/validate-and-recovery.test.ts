import { Tracker } from '../../../../src/domain/tracker/tracker.js';
import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';
import { CorruptDataError } from '../../../../src/domain/errors/index.js';

const itemPath = (id: string) => `${ROOT}/items/${id}.md`;
const historyPath = (id: string) => `${ROOT}/history/${id}.jsonl`;

describe('validate', () => {
  it('passes on a clean tracker', async () => {
    const { tracker } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    await tracker.create({ title: 'b', blockedBy: [a], parent: a });
    expect(await tracker.validate()).toMatchObject({ ok: true, items: 2, errors: 0, warnings: 0 });
  });

  it('detects and names a tampered history line', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a' });
    await tracker.update(item.id, { title: 'b' });
    await tracker.update(item.id, { title: 'c' });
    const lines = (await fs.readText(historyPath(item.id)))!.split('\n');
    lines[0] = lines[0]!.replace('"actor":"alice"', '"actor":"mallory"');
    await fs.writeAtomic(historyPath(item.id), lines.join('\n'));
    const report = await tracker.validate();
    expect(report.ok).toBe(false);
    expect(report.findings).toContainEqual(expect.objectContaining({ code: 'history_tampered', itemId: item.id, message: expect.stringContaining('line 1: line was altered') }));
  });

  it('reports corrupt files, dangling references, cycles and stray files', async () => {
    const { tracker, fs } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    const b = (await tracker.create({ title: 'b', blockedBy: [a] })).item.id;
    const text = (await fs.readText(itemPath(a)))!;
    await fs.writeAtomic(itemPath(a), text.replace('title: a', `title: a\nblockedBy:\n  - ${b}\n  - pm-gone00`));
    await fs.writeAtomic(`${ROOT}/items/pm-broken.md`, '---\ntitle: [\n---\n');
    await fs.writeAtomic(`${ROOT}/items/notes.txt`, 'hello');
    const codes = (await tracker.validate()).findings.map((f) => f.code).sort();
    expect(codes).toEqual(expect.arrayContaining(['corrupt_item', 'dangling_dependency', 'dependency_cycle', 'stray_file', 'unrecorded_change']));
  });
});

describe('validate after a merge made without pm\'s drivers', () => {
  /** The text git leaves when both sides changed the same lines of a file. */
  const conflicted = (text: string, ours: string, theirs: string) => {
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith(ours.split(':')[0]!));
    return [...lines.slice(0, at), '<<<<<<< HEAD', ours, '=======', theirs, '>>>>>>> a', ...lines.slice(at + 1)].join('\n');
  };

  it('reports one finding for an item whose file and history git merged as text, naming both files and the repair', async () => {
    const { tracker, fs } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    await tracker.create({ title: 'b', blockedBy: [a] });
    await tracker.update(a, { title: 'main' });
    const item = (await fs.readText(itemPath(a)))!;
    await fs.writeAtomic(itemPath(a), conflicted(item, 'title: main', 'title: branch'));
    const history = (await fs.readText(historyPath(a)))!.trimEnd().split('\n');
    await fs.writeAtomic(historyPath(a), [...history.slice(0, -1), '<<<<<<< HEAD', history.at(-1), '=======', history.at(-1)!.replace('main', 'branch'), '>>>>>>> a', ''].join('\n'));
    const report = await tracker.validate();
    expect(report.findings).toEqual([expect.objectContaining({ code: 'unmerged_item', itemId: a, files: [itemPath(a), historyPath(a)], message: expect.stringMatching(/hold git conflict markers: .*pm merge install/) })]);
  });

  it('reports an unmerged history alone as one finding, without tampering reports', async () => {
    const { tracker, fs } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    await tracker.update(a, { title: 'main' });
    const history = (await fs.readText(historyPath(a)))!.trimEnd().split('\n');
    await fs.writeAtomic(historyPath(a), [history[0], '<<<<<<< HEAD', history[1], '=======', history[1]!.replace('main', 'branch'), '>>>>>>> a', ''].join('\n'));
    expect((await tracker.validate()).findings).toEqual([expect.objectContaining({ code: 'unmerged_history', itemId: a, file: historyPath(a) })]);
  });
});

describe('recovery and edits outside pm', () => {
  it('records a hand edit as an external_edit before the next mutation, keeping the chain valid', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a' });
    const text = (await fs.readText(itemPath(item.id)))!;
    await fs.writeAtomic(itemPath(item.id), text.replace('title: a', 'title: edited by hand'));
    expect((await tracker.validate()).findings.map((f) => f.code)).toEqual(['unrecorded_change']);
    const updated = await tracker.update(item.id, { priority: 0 });
    expect(updated.item.title).toBe('edited by hand');
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create', 'external_edit', 'update']);
    expect(await tracker.validate()).toMatchObject({ ok: true, warnings: 0 });
  });

  it('adopts an item file created by hand', async () => {
    const { tracker, fs } = await memoryTracker();
    await fs.writeAtomic(itemPath('pm-hand01'), '---\nid: pm-hand01\ntitle: Typed by a person\ntype: Task\nstatus: open\npriority: 1\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\nrevision: 1\n---\nBody.\n');
    expect((await tracker.list()).items.map((i) => i.id)).toEqual(['pm-hand01']);
    await tracker.comment('pm-hand01', 'adopted');
    expect((await tracker.historyOf('pm-hand01')).map((e) => e.op)).toEqual(['external_edit', 'comment']);
    expect((await tracker.validate()).ok).toBe(true);
  });

  it('rolls an interrupted write forward from its write-ahead history line', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a' });
    const before = (await fs.readText(itemPath(item.id)))!;
    await tracker.update(item.id, { title: 'b', tags: ['x'] });
    await fs.writeAtomic(itemPath(item.id), before);
    expect((await tracker.validate()).findings.map((f) => f.code)).toEqual(['interrupted_write']);
    const next = await tracker.comment(item.id, 'after the crash');
    expect(next.item).toMatchObject({ title: 'b', tags: ['x'], revision: 3 });
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create', 'update', 'comment']);
    expect(await tracker.validate()).toMatchObject({ ok: true, warnings: 0 });
  });

  it('refuses to touch a corrupt item file and keeps it out of listings', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a' });
    await tracker.create({ title: 'b' });
    await fs.writeAtomic(itemPath(item.id), '---\nid: nope\n---\n');
    await expect(tracker.get(item.id)).rejects.toThrow(CorruptDataError);
    await expect(tracker.update(item.id, { title: 'x' })).rejects.toThrow(CorruptDataError);
    expect(await fs.readText(itemPath(item.id))).toBe('---\nid: nope\n---\n');
    expect((await tracker.list()).total).toBe(1);
    expect((await tracker.context()).unreadable).toEqual([{ id: item.id, message: expect.stringContaining('id') }]);
  });
});

describe('derived index', () => {
  it('sees writes by another tracker instance through the shared index', async () => {
    const { tracker, reopen } = await memoryTracker();
    const other = await reopen('bob');
    expect((await tracker.list()).total).toBe(0);
    const { item } = await other.create({ title: 'from elsewhere' });
    expect((await tracker.list()).items.map((i) => i.id)).toEqual([item.id]);
    await other.update(item.id, { title: 'renamed elsewhere' });
    expect((await tracker.search({ query: 'renamed' })).total).toBe(1);
    await other.delete(item.id, { consent: () => true });
    expect((await tracker.list({ all: true })).total).toBe(0);
  });

  it('sees files replaced, edited in place, added and removed outside pm', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a' });
    await tracker.list();
    const text = (await fs.readText(itemPath(item.id)))!;
    await fs.writeAtomic(itemPath(item.id), text.replace('title: a', 'title: zebra'));
    expect((await tracker.search({ query: 'zebra' })).total).toBe(1);
    await fs.append(itemPath(item.id), 'an appended okapi line\n');
    expect((await tracker.search({ query: 'okapi' })).results.map((r) => r.id)).toEqual([item.id]);
    const copy = text.replace(`id: ${item.id}`, 'id: pm-copy01').replace('title: a', 'title: copied');
    await fs.writeAtomic(itemPath('pm-copy01'), copy);
    expect((await tracker.list()).items.map((i) => i.title).sort()).toEqual(['copied', 'zebra']);
    await fs.remove(itemPath(item.id));
    expect((await tracker.list()).items.map((i) => i.id)).toEqual(['pm-copy01']);
  });

  it('rebuilds a lost index from the files', async () => {
    const { tracker, fs, clock, ids, hasher, locker } = await memoryTracker();
    const a = (await tracker.create({ title: 'alpha' })).item.id;
    await tracker.list();
    const text = (await fs.readText(itemPath(a)))!;
    await fs.writeAtomic(itemPath(a), text.replace('title: alpha', 'title: omega'));
    const fresh = await Tracker.open({ fs, clock, ids, hasher, locker, index: new MemoryItemIndex() }, ROOT, { defaultActor: 'alice' });
    expect((await fresh.list()).items.map((i) => i.title)).toEqual(['omega']);
    expect((await fresh.search({ query: 'omega' })).total).toBe(1);
  });
});
