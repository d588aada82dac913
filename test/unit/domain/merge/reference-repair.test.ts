import { MemoryMergeSides } from '../../../../src/adapters/memory/memory-merge-sides.js';
import { rewriteReferences, type ReferencePlan } from '../../../../src/domain/merge/reference-repair.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';

const paths = new TrackerPaths(ROOT);
const line = (receiptId: string) => `${JSON.stringify({ receiptId, op: 'create' })}\n`;

/** A tracker with a kept item, a moved item (already renamed) and referrers of the kept id, and a merge of c-moved into c-kept. */
async function setUp() {
  const t = await memoryTracker();
  const kept = (await t.tracker.create({ title: 'Kept' })).item.id;
  const moved = (await t.tracker.create({ title: 'Moved' })).item.id;
  const blocked = (await t.tracker.create({ title: 'Blocked', blockedBy: [kept] })).item;
  const related = (await t.tracker.create({ title: 'Related', related: [kept] })).item;
  const child = (await t.tracker.create({ title: 'Child', parent: kept })).item;
  const sides = new MemoryMergeSides();
  sides.setSides(ROOT, 'c-kept', 'c-moved');
  sides.setFile('c-kept', paths.historyFile(kept), line('rcpt-kept'));
  sides.setFile('c-moved', paths.historyFile(kept), line('rcpt-moved'));
  const text = async (id: string) => (await t.fs.readText(paths.itemFile(id)))!;
  // blocked: only the moved side; related: both sides; child: only the kept side.
  sides.setFile('c-moved', paths.itemFile(blocked.id), await text(blocked.id));
  sides.setFile('c-moved', paths.itemFile(related.id), await text(related.id));
  sides.setFile('c-kept', paths.itemFile(related.id), await text(related.id));
  sides.setFile('c-kept', paths.itemFile(child.id), await text(child.id));
  const plan: ReferencePlan = { oldId: kept, newId: moved, keptRoot: 'rcpt-kept', movedRoot: 'rcpt-moved', referrers: [blocked, related, child] };
  return { ...t, kept, moved, blocked, related, child, sides, plan };
}

describe('rewriteReferences (pm merge fix-ids)', () => {
  it('rewrites a reference only the moved side had, keeps one only the kept side had, lists one both had', async () => {
    const s = await setUp();
    const outcome = await rewriteReferences({ sides: s.sides, writer: s.tracker }, s.fs, paths, s.plan, 'fixer');
    expect(outcome.rewritten).toEqual([{ itemId: s.blocked.id, field: 'blockedBy', receiptIds: [expect.any(String), expect.any(String)] }]);
    expect(outcome.toReview).toEqual([s.related.id]);
    expect((await s.tracker.get(s.blocked.id)).blockedBy).toEqual([s.moved]);
    expect((await s.tracker.get(s.related.id)).related).toEqual([s.kept]);
    expect((await s.tracker.get(s.child.id)).parent).toBe(s.kept);
    const history = await s.tracker.historyOf(s.blocked.id);
    expect(history.slice(-2).map((e) => ({ op: e.op, actor: e.actor, receiptId: e.receiptId }))).toEqual(outcome.rewritten[0]!.receiptIds.map((receiptId) => ({ op: 'deps', actor: 'fixer', receiptId })));
  });

  it('rewrites a parent with one update', async () => {
    const s = await setUp();
    s.sides.setFile('c-moved', paths.itemFile(s.child.id), (await s.fs.readText(paths.itemFile(s.child.id)))!);
    s.sides.setFile('c-kept', paths.itemFile(s.child.id), '---\nnot: an item\n---\n');
    const outcome = await rewriteReferences({ sides: s.sides, writer: s.tracker }, s.fs, paths, { ...s.plan, referrers: [s.child] }, 'fixer');
    expect(outcome.rewritten).toEqual([{ itemId: s.child.id, field: 'parent', receiptIds: [expect.any(String)] }]);
    expect((await s.tracker.get(s.child.id)).parent).toBe(s.moved);
  });

  it('lists every reference when HEAD is not a merge, or when both sides hold both items', async () => {
    const s = await setUp();
    const none = await rewriteReferences({ sides: new MemoryMergeSides(), writer: s.tracker }, s.fs, paths, s.plan, 'fixer');
    expect(none).toEqual({ rewritten: [], toReview: [s.blocked.id, s.child.id, s.related.id].sort() });
    s.sides.setFile('c-kept', paths.historyFile(s.kept), line('rcpt-kept') + line('rcpt-moved'));
    const both = await rewriteReferences({ sides: s.sides, writer: s.tracker }, s.fs, paths, s.plan, 'fixer');
    expect(both.rewritten).toEqual([]);
    expect((await s.tracker.get(s.blocked.id)).blockedBy).toEqual([s.kept]);
  });

  it('leaves a reference whose rewrite the tracker refuses (a cycle) as it was, listed for review', async () => {
    const s = await setUp();
    await s.tracker.addDependency(s.moved, { kind: 'blockedBy', target: s.blocked.id });
    const outcome = await rewriteReferences({ sides: s.sides, writer: s.tracker }, s.fs, paths, { ...s.plan, referrers: [s.blocked] }, 'fixer');
    expect(outcome).toEqual({ rewritten: [], toReview: [s.blocked.id] });
    expect((await s.tracker.get(s.blocked.id)).blockedBy).toEqual([s.kept]);
  });
});
