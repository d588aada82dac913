import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { ListPrefixCache } from '../../../../src/domain/util/list-prefix-cache.js';

const entries = (n: number) => Array.from({ length: n }, (_, k) => Object.freeze({ k }));

/** A fold that records which entries it was called for. */
function counting(cache: ListPrefixCache<string>, tag: string) {
  const seen: number[] = [];
  const fold = (list: readonly { k: number }[]) => cache.fold(tag, list, '', (acc, entry) => {
    seen.push((entry as { k: number }).k);
    return `${acc}${(entry as { k: number }).k},`;
  });
  return { seen, fold };
}

describe('ListPrefixCache', () => {
  it('resumes after the remembered prefix: a list with one entry more folds only that entry', () => {
    const cache = new ListPrefixCache<string>('test lists', 16);
    const all = entries(5);
    const { seen, fold } = counting(cache, 'a');
    expect(fold(all.slice(0, 3))).toBe('0,1,2,');
    expect(fold(all.slice(0, 4))).toBe('0,1,2,3,');
    expect(fold(all)).toBe('0,1,2,3,4,');
    expect(fold(all)).toBe('0,1,2,3,4,');
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    const other = counting(cache, 'b');
    expect(other.fold(all)).toBe('0,1,2,3,4,');
    expect(other.seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('remembers the frozen prefix when the last entry is not frozen yet, and finds it from the next list', () => {
    const cache = new ListPrefixCache<string>('test lists', 16);
    const all = entries(3);
    const { seen, fold } = counting(cache, 'a');
    const fresh = { k: 3 };
    expect(fold([...all, fresh])).toBe('0,1,2,3,');
    Object.freeze(fresh);
    expect(fold([...all, fresh, { k: 4 }])).toBe('0,1,2,3,4,');
    expect(seen).toEqual([0, 1, 2, 3, 3, 4]);
  });

  it('folds everything when an earlier entry is another object', () => {
    const cache = new ListPrefixCache<string>('test lists', 16);
    const all = entries(3);
    const { seen, fold } = counting(cache, 'a');
    fold(all);
    expect(fold([Object.freeze({ k: 7 }), all[1]!, all[2]!])).toBe('7,1,2,');
    expect(seen).toEqual([0, 1, 2, 7, 1, 2]);
  });

  it('keeps a copy of an unfrozen list, so changing the array afterwards is not seen', () => {
    const cache = new ListPrefixCache<string>('test lists', 16);
    const [a, b, c] = entries(3);
    const list = [a!, b!];
    const { fold } = counting(cache, 'a');
    fold(list);
    list[0] = c!;
    expect(fold(list)).toBe('2,1,');
    expect(fold([a!, b!])).toBe('0,1,');
  });

  it('folds every entry while caches are bypassed', () => {
    const cache = new ListPrefixCache<string>('test lists', 16);
    const all = entries(2);
    const { seen, fold } = counting(cache, 'a');
    BoundedCache.bypass(true);
    try {
      fold(all);
      fold(all);
    } finally {
      BoundedCache.bypass(false);
    }
    expect(seen).toEqual([0, 1, 0, 1]);
  });
});
