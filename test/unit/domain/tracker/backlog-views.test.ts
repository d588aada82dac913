import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { runBlockedQuery, runReadyQuery, runTreeQuery, withParentTitles } from '../../../../src/domain/tracker/backlog-views.js';
import { toSummary } from '../../../../src/domain/tracker/index-entry.js';
import { entry, put } from '../../adapters/item-index-contract.js';

const NOW = '2026-03-01T12:00:00.000Z';

function indexOf(...entries: ReturnType<typeof entry>[]): MemoryItemIndex {
  const index = new MemoryItemIndex();
  index.apply(entries.map((e, n) => put(e, n)));
  return index;
}

describe('backlog views over the index', () => {
  it('ready: every ready item in next\'s order; a lapsed claim says whose and when', () => {
    const index = indexOf(
      entry('pm-a', { priority: 1, created: '2026-01-02T00:00:00.000Z' }),
      entry('pm-b', { priority: 1, created: '2026-01-01T00:00:00.000Z', claimHolder: 'bob', claimExpiresAt: '2026-03-01T09:00:00.000Z', status: 'in_progress' }),
      entry('pm-c', { priority: 0, blockedBy: ['pm-a'] }),
      entry('pm-d', { priority: 3, parent: 'pm-a' }),
    );
    const ready = runReadyQuery(index, { assignee: 'alice' }, NOW);
    expect(ready.items.map((i) => [i.id, i.reason])).toEqual([
      ['pm-b', 'claim by bob expired 3 h ago, no blockers'],
      ['pm-d', 'open, unclaimed, no blockers'],
    ]);
    expect(ready.counts).toMatchObject({ ready: 2, blocked: 1, containers: 1 });
    expect(runReadyQuery(index, { priority: [3], limit: 1 }, NOW)).toMatchObject({ total: 1, items: [{ id: 'pm-d' }] });
  });

  it('blocked: items held back, with their open or missing blockers only', () => {
    const index = indexOf(entry('pm-a', { blockedBy: ['pm-done', 'pm-open', 'pm-gone'] }), entry('pm-done', { status: 'closed' }), entry('pm-open', { title: 'Open one' }), entry('pm-x', { blockedBy: ['pm-done'] }));
    const blocked = runBlockedQuery(index, {});
    expect(blocked.items.map((i) => i.id)).toEqual(['pm-a']);
    expect(blocked.blockers).toEqual({ 'pm-open': { id: 'pm-open', title: 'Open one', status: 'open' }, 'pm-gone': { id: 'pm-gone', missing: true } });
  });

  it('tree: stops at a hand-made parent cycle instead of looping', () => {
    const index = indexOf(entry('pm-a', { parent: 'pm-b' }), entry('pm-b', { parent: 'pm-a' }), entry('pm-c', { parent: 'pm-a', status: 'closed' }));
    const tree = runTreeQuery(index, 'pm-a');
    expect(tree.roots[0]!.progress).toEqual({ done: 1, total: 2 });
    expect(tree.roots[0]!.children.find((c) => c.item.id === 'pm-b')!.children).toEqual([]);
    expect(runTreeQuery(index, undefined).roots).toEqual([]);
  });

  it('parent titles: filled from the index, absent for a parent it does not hold', () => {
    const index = indexOf(entry('pm-p', { title: 'Epic' }), entry('pm-a', { parent: 'pm-p' }), entry('pm-b', { parent: 'pm-gone' }));
    const titled = withParentTitles(index, index.getMany(['pm-a', 'pm-b']).map(toSummary));
    expect(titled.map((s) => s.parentTitle)).toEqual(['Epic', undefined]);
  });
});
