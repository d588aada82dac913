import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { chooseCycleRepair, cycleFrom, linkAppearances } from '../../../../src/domain/tracker/cycle-repair.js';
import { digestOf } from '../../../../src/domain/tracker/digests.js';
import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';

const hasher = new PureSha256Hasher();
const digest = (line: string) => digestOf(hasher, line);
const itemPath = (id: string) => `${ROOT}/items/${id}.md`;
const historyPath = (id: string) => `${ROOT}/history/${id}.jsonl`;

/**
 * What git does when two branches each add one blocker link: each link lives in a different
 * item file, so the merge takes one file from each branch and runs no driver. Branch "one"
 * adds `first` blocked by `second`, branch "two" adds `second` blocked by `first`, `laterOn`
 * says which branch made its change later.
 */
async function mergedCycle(laterOn: 'one' | 'two') {
  const memory = await memoryTracker();
  const { fs, clock, tracker } = memory;
  const first = (await tracker.create({ title: 'first' })).item.id;
  const second = (await tracker.create({ title: 'second' })).item.id;
  const base = { item: (await fs.readText(itemPath(second)))!, history: (await fs.readText(historyPath(second)))! };
  clock.advance(laterOn === 'one' ? 60_000 : 120_000);
  await tracker.addDependency(second, { kind: 'blockedBy', target: first });
  const branchTwo = { item: (await fs.readText(itemPath(second)))!, history: (await fs.readText(historyPath(second)))! };
  await fs.writeAtomic(itemPath(second), base.item);
  await fs.writeAtomic(historyPath(second), base.history);
  clock.set(Date.parse('2026-03-01T10:00:00.000Z') + (laterOn === 'one' ? 120_000 : 60_000));
  const onOne = await memory.reopen();
  await onOne.addDependency(first, { kind: 'blockedBy', target: second });
  await fs.writeAtomic(itemPath(second), branchTwo.item);
  await fs.writeAtomic(historyPath(second), branchTwo.history);
  return { ...memory, tracker: await memory.reopen(), first, second };
}

describe('cycle repair: the link to remove', () => {
  it('names the link the later branch added, the command that removes it and the MCP call', async () => {
    const { tracker, first, second } = await mergedCycle('two');
    const report = await tracker.validate();
    const cycle = report.findings.filter((f) => f.code === 'dependency_cycle');
    expect(cycle).toHaveLength(1);
    expect(cycle[0]).toMatchObject({
      severity: 'error',
      cycle: [second, first, second],
      edge: { itemId: second, field: 'blockedBy', target: first, addedAt: '2026-03-01T10:02:00.000Z' },
      command: `pm deps remove ${second} --blocked-by ${first}`,
      toolCall: { name: 'pm_deps', arguments: { action: 'remove', id: second, kind: 'blockedBy', target: first } },
    });
    expect(cycle[0]!.message).toBe(
      `dependency cycle: ${second} -> ${first} -> ${second}; remove the newest link, ${second} blocked by ${first} (added 2026-03-01T10:02:00.000Z): `
      + `pm deps remove ${second} --blocked-by ${first} (MCP: pm_deps with action remove, id ${second}, kind blockedBy, target ${first})`,
    );
  });

  it('follows the history, not the order of the cycle: the other branch later, the other link', async () => {
    const { tracker, first, second } = await mergedCycle('one');
    const [finding] = (await tracker.validate()).findings.filter((f) => f.code === 'dependency_cycle');
    expect(finding).toMatchObject({ edge: { itemId: first, target: second, addedAt: '2026-03-01T10:02:00.000Z' }, command: `pm deps remove ${first} --blocked-by ${second}` });
  });

  it('running the suggested repair leaves the tracker valid', async () => {
    const { tracker, second } = await mergedCycle('two');
    expect((await tracker.next()).item).toBeNull();
    const [finding] = (await tracker.validate()).findings.filter((f) => f.code === 'dependency_cycle');
    const { edge } = finding!;
    await tracker.removeDependency(edge!.itemId, { kind: 'blockedBy', target: edge!.target });
    expect((await tracker.validate()).ok).toBe(true);
    expect((await tracker.next()).item?.id).toBe(second);
  });

  it('prefers a link no history line records (an edit outside pm) and says so', async () => {
    const { tracker, fs } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    const b = (await tracker.create({ title: 'b', blockedBy: [a] })).item.id;
    await fs.writeAtomic(itemPath(a), (await fs.readText(itemPath(a)))!.replace('title: a', `title: a\nblockedBy:\n  - ${b}`));
    const [finding] = (await tracker.validate()).findings.filter((f) => f.code === 'dependency_cycle');
    expect(finding).toMatchObject({ edge: { itemId: a, target: b }, command: `pm deps remove ${a} --blocked-by ${b}` });
    expect(finding!.edge!.addedAt).toBeUndefined();
    expect(finding!.message).toContain(`remove ${a} blocked by ${b} (no history line records when it was added)`);
  });

  it('names the parent link to drop for a parent cycle', async () => {
    const { tracker, fs, clock } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    clock.advance(1000);
    const b = (await tracker.create({ title: 'b', parent: a })).item.id;
    await fs.writeAtomic(itemPath(a), (await fs.readText(itemPath(a)))!.replace('title: a', `title: a\nparent: ${b}`));
    const [finding] = (await tracker.validate()).findings.filter((f) => f.code === 'parent_cycle');
    expect(finding).toMatchObject({ edge: { itemId: a, field: 'parent', target: b }, command: `pm update ${a} --no-parent`, toolCall: { name: 'pm_update', arguments: { id: a, parent: null } } });
    expect(finding!.message).toMatch(/^parent cycle: .*; remove .* under parent .*: pm update .* --no-parent \(MCP: pm_update with id .*, parent null\)$/);
  });
});

describe('linkAppearances', () => {
  const line = (fields: Record<string, unknown>) => JSON.stringify(fields);

  it('dates the latest appearance: a link removed and added again counts from its return', () => {
    const l1 = line({ op: 'create', at: '2026-01-01T00:00:00.000Z', prev: null, patch: [{ op: 'add', path: '/blockedBy', value: ['pm-x'] }] });
    const l2 = line({ op: 'deps', at: '2026-01-02T00:00:00.000Z', prev: digest(l1), patch: [{ op: 'replace', path: '/blockedBy', value: [] }] });
    const l3 = line({ op: 'deps', at: '2026-01-03T00:00:00.000Z', prev: digest(l2), patch: [{ op: 'add', path: '/blockedBy/-', value: 'pm-x' }] });
    const l4 = line({ op: 'deps', at: '2026-01-04T00:00:00.000Z', prev: digest(l3), patch: [{ op: 'replace', path: '/blockedBy', value: ['pm-x', 'pm-y'] }] });
    const seen = linkAppearances([l1, l2, l3, l4].join('\n'), 'blockedBy', digest);
    expect(Object.fromEntries(seen)).toEqual({ 'pm-x': '2026-01-03T00:00:00.000Z', 'pm-y': '2026-01-04T00:00:00.000Z' });
  });

  it('judges each merged branch against its own chain, and a merge line adds nothing new', () => {
    const root = line({ op: 'create', at: '2026-01-01T00:00:00.000Z', prev: null, patch: [{ op: 'add', path: '/blockedBy', value: ['pm-x'] }] });
    const ours = line({ op: 'deps', at: '2026-01-02T00:00:00.000Z', prev: digest(root), patch: [{ op: 'replace', path: '/blockedBy', value: [] }] });
    // The other branch still had pm-x: replacing the list with one that keeps it adds only pm-y.
    const theirs = line({ op: 'deps', at: '2026-01-03T00:00:00.000Z', prev: digest(root), patch: [{ op: 'replace', path: '/blockedBy', value: ['pm-x', 'pm-y'] }] });
    const merge = line({ op: 'merge', at: '2026-01-03T00:00:00.000Z', prev: digest(theirs), parents: [digest(ours), digest(theirs)].sort(), patch: [] });
    const seen = linkAppearances([root, ours, theirs, merge, 'not json'].join('\n'), 'blockedBy', digest);
    expect(Object.fromEntries(seen)).toEqual({ 'pm-x': '2026-01-01T00:00:00.000Z', 'pm-y': '2026-01-03T00:00:00.000Z' });
  });

  it('reads the parent as a one-element list', () => {
    const l1 = line({ op: 'create', at: '2026-01-01T00:00:00.000Z', prev: null, patch: [{ op: 'add', path: '/parent', value: 'pm-p' }] });
    const l2 = line({ op: 'update', at: '2026-01-02T00:00:00.000Z', prev: digest(l1), patch: [{ op: 'replace', path: '/parent', value: 'pm-q' }] });
    expect(Object.fromEntries(linkAppearances(`${l1}\n${l2}\n`, 'parent', digest))).toEqual({ 'pm-p': '2026-01-01T00:00:00.000Z', 'pm-q': '2026-01-02T00:00:00.000Z' });
  });
});

describe('chooseCycleRepair', () => {
  it('without any dated link, removes the link that closes the cycle as found (stable)', () => {
    const repair = chooseCycleRepair(['pm-a', 'pm-b', 'pm-c', 'pm-a'], 'blockedBy', () => undefined);
    expect(repair).toMatchObject({ basis: 'unrecorded', edge: { itemId: 'pm-c', target: 'pm-a' }, command: 'pm deps remove pm-c --blocked-by pm-a' });
  });

  it('breaks a tie of times by the order of the cycle', () => {
    const at = new Map([['pm-b', '2026-01-01T00:00:00.000Z'], ['pm-a', '2026-01-01T00:00:00.000Z']]);
    expect(chooseCycleRepair(['pm-a', 'pm-b', 'pm-a'], 'blockedBy', () => at).edge).toMatchObject({ itemId: 'pm-b', target: 'pm-a' });
  });
});

describe('cycleFrom', () => {
  it('tells a cycle from the item whose link is removed, whichever node the search started at', () => {
    expect(cycleFrom(['a', 'b', 'c', 'a'], 'b')).toEqual(['b', 'c', 'a', 'b']);
    expect(cycleFrom(['a', 'b', 'c', 'a'], 'c')).toEqual(['c', 'a', 'b', 'c']);
    expect(cycleFrom(['a', 'b', 'c', 'a'], 'a')).toEqual(['a', 'b', 'c', 'a']);
  });

  it('leaves a cycle as found when the item is not on it', () => {
    expect(cycleFrom(['a', 'b', 'a'], 'z')).toEqual(['a', 'b', 'a']);
  });
});
