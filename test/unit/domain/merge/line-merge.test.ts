import { mergeLines } from '../../../../src/domain/merge/line-merge.js';

const style = { ours: 'ours', theirs: 'theirs' };
const merge = (b: string, o: string, t: string) => mergeLines(b.split(''), o.split(''), t.split(''), style);

describe('three-way line merge', () => {
  it('takes non-overlapping changes of both sides', () => {
    expect(merge('abcdefg', 'aXcdefg', 'abcdeYg')).toEqual({ lines: 'aXcdeYg'.split(''), conflicts: 0 });
    expect(merge('abc', 'abcd', 'zabc')).toEqual({ lines: 'zabcd'.split(''), conflicts: 0 });
    expect(merge('abc', 'ac', 'ac')).toEqual({ lines: ['a', 'c'], conflicts: 0 });
  });

  it('marks overlapping changes with standard conflict markers', () => {
    expect(merge('abc', 'aXc', 'aYc')).toEqual({ lines: ['a', '<<<<<<< ours', 'X', '=======', 'Y', '>>>>>>> theirs', 'c'], conflicts: 1 });
    expect(mergeLines([], ['x'], ['y'], { ...style, markerSize: 3 }).lines).toEqual(['<<< ours', 'x', '===', 'y', '>>> theirs']);
  });
});
