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
    const cache = new ListPrefixCache<string>('test lists', 16, 1024);
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
    const cache = new ListPrefixCache<string>('test lists', 16, 1024);
    const all = entries(3);
    const { seen, fold } = counting(cache, 'a');
    const fresh = { k: 3 };
    expect(fold([...all, fresh])).toBe('0,1,2,3,');
    Object.freeze(fresh);
    expect(fold([...all, fresh, { k: 4 }])).toBe('0,1,2,3,4,');
    expect(seen).toEqual([0, 1, 2, 3, 3, 4]);
  });

  it('folds everything when an earlier entry is another object', () => {
    const cache = new ListPrefixCache<string>('test lists', 16, 1024);
    const all = entries(3);
    const { seen, fold } = counting(cache, 'a');
    fold(all);
    expect(fold([Object.freeze({ k: 7 }), all[1]!, all[2]!])).toBe('7,1,2,');
    expect(seen).toEqual([0, 1, 2, 7, 1, 2]);
  });

  it('keeps a copy of an unfrozen list, so changing the array afterwards is not seen', () => {
    const cache = new ListPrefixCache<string>('test lists', 16, 1024);
    const [a, b, c] = entries(3);
    const list = [a!, b!];
    const { fold } = counting(cache, 'a');
    fold(list);
    list[0] = c!;
    expect(fold(list)).toBe('2,1,');
    expect(fold([a!, b!])).toBe('0,1,');
  });

  it('folds every entry while caches are bypassed', () => {
    const cache = new ListPrefixCache<string>('test lists', 16, 1024);
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

  it('keeps at most maxEntries entries of lists, and folds a list too long to keep from its first entry each time', () => {
    const cache = new ListPrefixCache<string>('test lists', 64, 40);
    const all = entries(30);
    const { seen, fold } = counting(cache, 'a');
    const plain = (n: number) => all.slice(0, n).map((e) => `${e.k},`).join('');
    for (let n = 1; n <= 20; n++) {
      expect(fold(all.slice(0, n))).toBe(plain(n));
      expect(cache.entriesHeld).toBeLessThanOrEqual(40);
    }
    expect(seen).toEqual([...Array(20).keys()]);
    seen.length = 0;
    expect(fold(all.slice(0, 21))).toBe(plain(21));
    expect(fold(all.slice(0, 22))).toBe(plain(22));
    // 21 and 22 entries are over half of maxEntries, not kept: each resumes from the kept 20.
    expect(seen).toEqual([20, 20, 21]);
    const long = entries(25);
    const other = counting(cache, 'b');
    expect(other.fold(long)).toBe(long.map((e) => `${e.k},`).join(''));
    expect(other.fold(long)).toBe(long.map((e) => `${e.k},`).join(''));
    expect(other.seen).toEqual([...Array(25).keys(), ...Array(25).keys()]);
    expect(cache.entriesHeld).toBeLessThanOrEqual(40);
  });
});
