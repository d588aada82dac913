import { CorruptDataError, HistoryUnverifiableError, ValidationError } from '../../../../src/domain/errors/index.js';
import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';

const itemPath = (id: string) => `${ROOT}/items/${id}.md`;
const historyPath = (id: string) => `${ROOT}/history/${id}.jsonl`;

async function forgeActorOnLine(fs: Awaited<ReturnType<typeof memoryTracker>>['fs'], id: string, line: number): Promise<void> {
  const lines = (await fs.readText(historyPath(id)))!.split('\n');
  lines[line - 1] = lines[line - 1]!.replace('"actor":"alice"', '"actor":"mallory"');
  await fs.writeAtomic(historyPath(id), lines.join('\n'));
}

describe('tampered history', () => {
  it('names the edited line in validate, not only the next one', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a' });
    await tracker.update(item.id, { title: 'b' });
    await tracker.update(item.id, { title: 'c' });
    await forgeActorOnLine(fs, item.id, 2);
    const tampered = (await tracker.validate()).findings.filter((f) => f.code === 'history_tampered');
    expect(tampered).toEqual([expect.objectContaining({ itemId: item.id, message: expect.stringMatching(/line 2: line was altered after it was written \(line 3 records another digest for it\)/) })]);
  });

  it('refuses a mutation of an item whose chain does not verify, naming item, line and repair', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a' });
    await tracker.update(item.id, { title: 'b' });
    await tracker.update(item.id, { title: 'c' });
    await forgeActorOnLine(fs, item.id, 2);
    const before = await fs.readText(historyPath(item.id));
    const refused = await tracker.update(item.id, { priority: 2 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HistoryUnverifiableError);
    const error = refused as HistoryUnverifiableError;
    expect(error.exitCode).toBe(7);
    expect(error.toJsonRpcError()).toMatchObject({ code: -31053, data: { reason: 'history_unverifiable', itemId: item.id, line: 2 } });
    expect(error.message).toContain(item.id);
    expect(error.message).toContain('line 2');
    expect(error.message).toMatch(/git checkout/);
    expect(await fs.readText(historyPath(item.id))).toBe(before);
    await expect(tracker.comment(item.id, 'x')).rejects.toThrow(HistoryUnverifiableError);
    await expect(tracker.delete(item.id, { consent: () => true })).rejects.toThrow(HistoryUnverifiableError);
  });

  it('marks the unverifiable lines of a history', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a' });
    await tracker.update(item.id, { title: 'b' });
    await tracker.update(item.id, { title: 'c' });
    expect((await tracker.verifiedHistory(item.id)).faults).toEqual([]);
    await forgeActorOnLine(fs, item.id, 2);
    const { entries, faults } = await tracker.verifiedHistory(item.id);
    expect(entries.map((e) => e.actor)).toEqual(['alice', 'mallory', 'alice']);
    expect(faults.map((f) => f.line)).toEqual([2]);
  });

  it('keeps mutating an intact chain after many changes (the verified head follows appends)', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a' });
    for (let n = 0; n < 5; n++) await tracker.update(item.id, { priority: n % 5 });
    expect((await tracker.get(item.id)).revision).toBeGreaterThan(1);
    expect((await tracker.validate()).ok).toBe(true);
  });
});

describe('a hand-broken item file', () => {
  const broken = (id: string) => `---\nid: ${id}\ntitle: a: b\ntype: Task\n---\n`;

  it('is one validate finding with file, line and column, and no misleading follow-ups', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a' });
    await tracker.create({ title: 'b', blockedBy: [item.id] });
    await fs.writeAtomic(itemPath(item.id), broken(item.id));
    const report = await tracker.validate();
    const about = report.findings.filter((f) => f.itemId === item.id || f.message.includes(item.id));
    expect(about).toEqual([expect.objectContaining({ code: 'corrupt_item', file: itemPath(item.id), line: 3, column: expect.any(Number) })]);
    expect(about[0]!.message).toMatch(new RegExp(`${itemPath(item.id)}:3:\\d+: YAML error`));
  });

  it('is reported as left out by list, search and next', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'alpha one' });
    await tracker.create({ title: 'alpha two' });
    await fs.writeAtomic(itemPath(item.id), broken(item.id));
    const list = await tracker.list();
    expect(list.total).toBe(1);
    expect(list.unreadable).toEqual([{ id: item.id, message: expect.stringContaining('YAML error') }]);
    expect((await tracker.search({ query: 'alpha' })).unreadable).toEqual([expect.objectContaining({ id: item.id })]);
    expect((await tracker.next()).unreadable).toEqual([expect.objectContaining({ id: item.id })]);
    await expect(tracker.get(item.id)).rejects.toThrow(CorruptDataError);
  });

  it('leaves the unreadable list empty on a healthy tracker', async () => {
    const { tracker } = await memoryTracker();
    await tracker.create({ title: 'a' });
    expect((await tracker.list()).unreadable).toBeUndefined();
  });
});

describe('list filters must name known values', () => {
  it('refuses an unknown status or type naming the allowed ones', async () => {
    const { tracker } = await memoryTracker();
    const status = await tracker.list({ status: ['nope'] }).catch((e: unknown) => e);
    expect(status).toBeInstanceOf(ValidationError);
    expect((status as ValidationError).message).toBe("unknown status 'nope'; did you mean open? expected one of: draft, open, in_progress, blocked, closed, canceled");
    const type = await tracker.list({ type: ['Bug'] }).catch((e: unknown) => e);
    expect((type as ValidationError).message).toBe("unknown type 'Bug'; expected one of: Epic, Feature, Task, Chore, Issue, Decision");
    await expect(tracker.next({ type: ['Bug'] })).rejects.toThrow(ValidationError);
    await expect(tracker.search({ query: 'x', status: ['nope'] })).rejects.toThrow(ValidationError);
    expect((await tracker.list({ status: ['open'], type: ['Task'] })).total).toBe(0);
  });

  it('names the value a case or a typo away (did you mean Task?), on items as on filters', async () => {
    const { tracker } = await memoryTracker();
    await expect(tracker.create({ title: 'x', type: 'task' })).rejects.toThrow("unknown type 'task'; did you mean Task? expected one of: Epic, Feature, Task, Chore, Issue, Decision");
    await expect(tracker.list({ status: ['in-progress'] })).rejects.toThrow("unknown status 'in-progress'; did you mean in_progress? expected one of");
  });
});

describe('one definition of an active blocker', () => {
  it('lists only the blockers that are not done', async () => {
    const { tracker } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    const b = (await tracker.create({ title: 'b' })).item.id;
    const c = (await tracker.create({ title: 'c', blockedBy: [a, b] })).item.id;
    await tracker.close(a, { evidence: 'done' });
    const summary = (await tracker.list()).items.find((i) => i.id === c)!;
    expect(summary.blockedBy).toEqual([a, b]);
    expect(summary.activeBlockers).toEqual([b]);
    await tracker.close(b, { evidence: 'done' });
    expect((await tracker.list()).items.find((i) => i.id === c)!.activeBlockers).toEqual([]);
    expect((await tracker.next()).item?.id).toBe(c);
  });
});
