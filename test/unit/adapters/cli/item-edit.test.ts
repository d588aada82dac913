import { editToUpdate } from '../../../../src/adapters/cli/item-edit.js';
import type { Item } from '../../../../src/domain/tracker/item.js';

const base: Item = {
  id: 'pm-abc123', title: 'T', type: 'Task', status: 'open', priority: 2, tags: ['a'], blockedBy: [], related: [],
  acceptance: [{ text: 'one', done: false }, { text: 'two', done: true }], files: ['src/a.ts'], tests: [], custom: { size: 'M', keep: 1 },
  comments: [], created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', revision: 3, body: 'Body',
};

describe('editToUpdate (pm edit)', () => {
  it('is empty when nothing editable changed (a body differing only in surrounding blank lines included)', () => {
    expect(editToUpdate(base, { ...base, body: '\nBody\n' })).toEqual({});
  });

  it('turns each edited field into the update input pm update would take', () => {
    const edited: Item = { ...base, title: 'New', priority: 0, parent: 'pm-parent1', assignee: 'bob', tags: ['b'], files: ['src/b.ts'], tests: ['t.ts'], custom: { size: 'L', extra: true }, body: 'Other' };
    expect(editToUpdate(base, edited)).toEqual({
      title: 'New', priority: 0, parent: 'pm-parent1', assignee: 'bob', tags: ['b'], body: 'Other',
      addFiles: ['src/b.ts'], removeFiles: ['src/a.ts'], addTests: ['t.ts'], custom: { size: 'L', keep: null, extra: true },
    });
    expect(editToUpdate({ ...base, parent: 'pm-parent1', assignee: 'bob' }, base)).toEqual({ parent: null, assignee: null });
  });

  it('marks criteria when only their done flags changed, and replaces the list (with its marks) otherwise', () => {
    expect(editToUpdate(base, { ...base, acceptance: [{ text: 'one', done: true }, { text: 'two', done: false }] })).toEqual({ checkAcceptance: [1], uncheckAcceptance: [2] });
    expect(editToUpdate(base, { ...base, acceptance: [{ text: 'zero', done: true }, { text: 'one', done: false }] })).toEqual({ acceptance: ['zero', 'one'], checkAcceptance: [1] });
  });

  it('refuses changes to fields pm or other commands own, naming them all', () => {
    const edited: Item = { ...base, id: 'pm-other1', comments: [{ id: 'c1', author: 'x', at: base.created, text: 'hi' }], related: ['pm-zzz999'], claim: { holder: 'x', claimedAt: base.created, expiresAt: base.created } };
    expect(() => editToUpdate(base, edited)).toThrow('pm edit cannot change id (an id never changes); comments (use pm comment); claim (use pm claim or pm release); related (use pm deps add/remove --related)');
  });
});
