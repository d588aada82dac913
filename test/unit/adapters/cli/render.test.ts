import { renderItem, renderMutation } from '../../../../src/adapters/cli/render/item-view.js';
import { renderList } from '../../../../src/adapters/cli/render/list-view.js';
import { renderDependencies, renderHistory, renderValidation } from '../../../../src/adapters/cli/render/report-view.js';
import { columns, shortTime } from '../../../../src/adapters/cli/render/text.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { MutationResult, Receipt } from '../../../../src/domain/tracker/receipt.js';

const item: Item = {
  id: 'pm-abc123', title: 'Fix login', type: 'Task', status: 'closed', priority: 1, tags: ['auth'], blockedBy: ['pm-def456'], related: [],
  acceptance: [{ text: 'works', done: true }, { text: 'tested', done: false }], files: ['src/a.ts'], tests: [], custom: { points: 3 },
  closure: { at: '2026-03-01T12:00:00.000Z', by: 'bob', evidence: 'commit 123' },
  comments: [{ id: 'c-1', author: 'alice', at: '2026-03-01T11:00:00.000Z', text: 'first\nsecond line' }],
  created: '2026-03-01T10:00:00.000Z', updated: '2026-03-01T12:00:00.000Z', revision: 4, body: 'The body',
};
const receipt: Receipt = { receiptId: 'rcpt-1', op: 'update', itemId: item.id, actor: 'alice', at: item.updated, seq: 4, revisionBefore: 3, revisionAfter: 4, digestBefore: null, digestAfter: null };

describe('human renderers', () => {
  it('pm history shows the client software beside the actor when a line records one', () => {
    const text = renderHistory(item.id, [
      { ...receipt, seq: 1, patch: [], prev: null },
      { ...receipt, seq: 2, client: 'srv/0.1.0', patch: [], prev: 'sha256:0' },
    ]);
    const [first, second] = text.split('\n').filter((l) => l.includes('#'));
    expect(first).toMatch(/#1 .* alice +update/);
    expect(second).toMatch(/#2 .* alice via srv\/0\.1\.0 +update/);
  });

  it('formats times and columns', () => {
    expect(shortTime('2026-03-01T09:05:59.123Z')).toBe('2026-03-01 09:05Z');
    expect(columns([['a', 'bb', 'c'], ['ccc', 'd', 'e ']])).toEqual(['a    bb  c', 'ccc  d   e']);
  });

  it('renders an item with every section it has, and none it lacks', () => {
    const text = renderItem(item);
    expect(text).toContain('pm-abc123  Fix login\n');
    expect(text).toMatch(/  points: +3\n/);
    expect(text).toContain('Acceptance criteria:\n  1. [x] works\n  2. [ ] tested\n');
    expect(text).toContain('Files:\n  src/a.ts\n');
    expect(text).not.toContain('Tests:');
    expect(text).toContain('Closed 2026-03-01 12:00Z by bob:\n  commit 123\n');
    expect(text).toContain('Comments (1):\n  alice, 2026-03-01 11:00Z:\n    first\n    second line\n');
    expect(renderItem({ ...item, body: '', comments: [], closure: undefined, acceptance: [] })).not.toMatch(/\n\n\n|Comments|Closed/);
  });

  it('shows the parent with its title when it is known, and by id alone otherwise', () => {
    const child = { ...item, parent: 'pm-par001' };
    expect(renderItem(child, undefined, 'Checkout redesign')).toMatch(/  parent: +pm-par001  Checkout redesign\n/);
    expect(renderItem(child)).toMatch(/  parent: +pm-par001\n/);
  });

  it('says honestly when a mutation wrote nothing', () => {
    const base: MutationResult<Item> = { receipt, item, replayed: false, changed: true };
    expect(renderMutation('Updated', base)).toBe('Updated pm-abc123 "Fix login" (revision 4)\n  receipt rcpt-1\n');
    expect(renderMutation('Updated', { ...base, changed: false })).toBe('pm-abc123 "Fix login" already in that state; nothing written (revision 4)\n');
    expect(renderMutation('Updated', { ...base, replayed: true, changed: false, receipt: { ...receipt, idempotencyKey: 'k' } }))
      .toBe('Updated pm-abc123 "Fix login" (revision 4): replayed; idempotency key \'k\' matched receipt rcpt-1, nothing written\n');
    expect(renderMutation('Deleted', { receipt: { ...receipt, op: 'delete' }, item: null, replayed: false, changed: true })).toBe('Deleted pm-abc123\n  receipt rcpt-1\n');
  });

  it('renders list pages and empty results', () => {
    expect(renderList({ items: [], total: 0 })).toMatch(/^No items match/);
    expect(renderList({ items: [], total: 3 })).toBe('No more items.\n');
    const summary = { id: 'pm-abc123', title: 'Fix', type: 'Task', status: 'open', priority: 2, tags: [], claimHolder: 'bob', blockedBy: [], updated: item.updated, revision: 1 };
    expect(renderList({ items: [summary], total: 1 })).toBe('ID         PRI  STATUS  TYPE  TITLE\npm-abc123  P2   open    Task  Fix  (claimed by bob)\n\n1 item\n');
  });

  it('renders validation verdicts', () => {
    expect(renderValidation({ ok: true, items: 2, errors: 0, warnings: 0, findings: [] })).toBe('OK: 2 items checked, 0 warnings\n');
    const failed = renderValidation({ ok: false, items: 1, errors: 1, warnings: 0, findings: [{ severity: 'error', code: 'dangling_parent', message: 'x has parent y' }] });
    expect(failed).toBe('error  dangling_parent  x has parent y\n\nFAILED: 1 item checked, 1 error, 0 warnings\n');
  });

  it('renders dependencies, naming missing items', () => {
    const text = renderDependencies({ id: 'pm-a', title: 'A', status: 'open', blockedBy: [{ id: 'pm-gone', title: null, status: 'missing' }], blocks: [], related: [], openBlockers: 1 });
    expect(text).toBe('pm-a  A  (open; waiting on 1 open blocker)\nBlocked by:\n  pm-gone  missing  (missing item)\nBlocks:\n  (none)\nRelated:\n  (none)\n');
  });
});
