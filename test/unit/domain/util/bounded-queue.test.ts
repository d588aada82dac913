import { collapseOldest } from '../../../../src/domain/util/bounded-queue.js';

describe('collapseOldest', () => {
  const fold = (folded: readonly string[]) => `[${folded.join('')}]`;

  it('returns a queue that fits as it is', () => {
    const queue = ['a', 'b'];
    expect(collapseOldest(queue, 2, fold)).toBe(queue);
  });

  it('folds the oldest into one entry so the queue holds exactly its bound', () => {
    expect(collapseOldest(['a', 'b', 'c', 'd', 'e'], 3, fold)).toEqual(['[abc]', 'd', 'e']);
  });

  it('refuses a bound that leaves no room beside the folded entry', () => {
    expect(() => collapseOldest(['a'], 1, fold)).toThrow(RangeError);
  });
});
