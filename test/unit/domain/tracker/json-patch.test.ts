import { applyPatch, diffDocuments } from '../../../../src/domain/tracker/json-patch.js';

describe('json patch', () => {
  it('records appends to arrays as add /-, other changes as replace/add/remove', () => {
    const before = { a: 1, list: [1, 2], gone: 'x', same: { k: [1] } };
    const after = { a: 2, list: [1, 2, 3, 4], added: true, same: { k: [1] } };
    const patch = diffDocuments(before, after);
    expect(patch).toEqual([
      { op: 'replace', path: '/a', value: 2 },
      { op: 'add', path: '/list/-', value: 3 },
      { op: 'add', path: '/list/-', value: 4 },
      { op: 'remove', path: '/gone' },
      { op: 'add', path: '/added', value: true },
    ]);
    expect(applyPatch(before, patch)).toEqual(after);
  });

  it('replaces an array that did not only grow, and escapes keys', () => {
    const patch = diffDocuments({ 'a/b': [1, 2] }, { 'a/b': [2] });
    expect(patch).toEqual([{ op: 'replace', path: '/a~1b', value: [2] }]);
    expect(applyPatch({ 'a/b': [1, 2] }, patch)).toEqual({ 'a/b': [2] });
  });

  it('does not alter the input document', () => {
    const doc = { list: [1] };
    applyPatch(doc, [{ op: 'add', path: '/list/-', value: 2 }]);
    expect(doc).toEqual({ list: [1] });
  });
});
