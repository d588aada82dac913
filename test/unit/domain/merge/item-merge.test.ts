import { mergeItemFiles } from '../../../../src/domain/merge/item-merge.js';
import { parseItem, serializeItem } from '../../../../src/domain/tracker/item-codec.js';
import type { Item } from '../../../../src/domain/tracker/item.js';

const style = { ours: 'ours', theirs: 'theirs' };
const base: Item = {
  id: 'pm-abc123', title: 'Base', type: 'Task', status: 'open', priority: 2, tags: ['a', 'b'], blockedBy: ['pm-dep001'], related: [], acceptance: [{ text: 'works', done: false }],
  files: [], tests: [], custom: { size: 'M' }, comments: [{ id: 'c-1', author: 'x', at: '2026-01-01T00:00:00.000Z', text: 'first' }],
  created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', revision: 3, body: 'one\ntwo\nthree',
};
const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const side = (change: Partial<Item>): Item => ({ ...base, ...change });
const run = (o: Item, t: Item, b: Item | null = base) => mergeItemFiles(b ? serializeItem(b) : '', serializeItem(o), serializeItem(t), 'items/pm-abc123.md', style);
const merged = (o: Item, t: Item) => parseItem(run(o, t).text, 'merged');

describe('item merge', () => {
  it('takes one-sided changes, unions sets with removals honoured, and raises the revision above both', () => {
    const ours = side({ title: 'Ours', tags: ['a', 'x'], revision: 4, updated: at(1) });
    const theirs = side({ priority: 0, tags: ['a', 'b', 'y'], blockedBy: [], revision: 6, updated: at(2), custom: { size: 'L', team: 'web' } });
    expect(merged(ours, theirs)).toMatchObject({ title: 'Ours', priority: 0, tags: ['a', 'x', 'y'], blockedBy: [], custom: { size: 'L', team: 'web' }, revision: 7, updated: at(2) });
  });

  it('gives a field both sides changed to the later update, records it, and does not depend on which side is ours', () => {
    const ours = side({ title: 'Early', updated: at(1), revision: 4 });
    const theirs = side({ title: 'Late', updated: at(5), revision: 4 });
    const result = run(ours, theirs);
    expect(parseItem(result.text, 'm').title).toBe('Late');
    expect(result.receipt?.decisions).toEqual([{ field: 'title', ours: 'Early', theirs: 'Late', took: 'theirs', rule: expect.stringContaining('later updated') }]);
    expect(run(theirs, ours).text).toBe(result.text);
    const tieA = side({ title: 'A', updated: at(3) });
    const tieB = side({ title: 'B', updated: at(3) });
    expect(run(tieA, tieB).text).toBe(run(tieB, tieA).text);
  });

  it('unions comments by id in time order and moves status with its closure', () => {
    const closure = { at: at(4), by: 'x', evidence: 'done' };
    const ours = side({ status: 'closed', closure, comments: [...base.comments, { id: 'c-3', author: 'a', at: at(3), text: 'late' }], updated: at(4) });
    const theirs = side({ status: 'in_progress', comments: [...base.comments, { id: 'c-2', author: 'b', at: at(2), text: 'early' }], updated: at(2) });
    const item = merged(ours, theirs);
    expect(item.comments.map((c) => c.id)).toEqual(['c-1', 'c-2', 'c-3']);
    expect(item).toMatchObject({ status: 'closed', closure });
  });

  it('merges bodies line by line and marks overlapping edits in the body only (exit non-zero)', () => {
    const clean = run(side({ body: 'ONE\ntwo\nthree' }), side({ body: 'one\ntwo\nTHREE' }));
    expect(clean.conflicted).toBe(false);
    expect(parseItem(clean.text, 'm').body).toBe('ONE\ntwo\nTHREE');
    const conflicting = run(side({ body: 'one\nTWO-a\nthree', updated: at(1) }), side({ body: 'one\nTWO-b\nthree', title: 'T', updated: at(2) }));
    expect(conflicting.conflicted).toBe(true);
    const item = parseItem(conflicting.text, 'm');
    expect(item.title).toBe('T');
    expect(item.body).toBe('one\n<<<<<<< ours\nTWO-a\n=======\nTWO-b\n>>>>>>> theirs\nthree');
  });

  it('keeps the first-created item when both sides created the same id, and falls back to text for a file that does not parse', () => {
    const first = side({ title: 'First', created: at(1), updated: at(1) });
    const second = side({ title: 'Second', created: at(2), updated: at(9) });
    const result = run(second, first, null);
    expect(result.receipt?.collision).toEqual({ kept: 'theirs' });
    expect(parseItem(result.text, 'm').title).toBe('First');
    const broken = mergeItemFiles(serializeItem(base), 'not an item\n', serializeItem(base), 'x.md', style);
    expect(broken).toMatchObject({ conflicted: true, fallback: expect.stringContaining('front matter') });
  });
});
