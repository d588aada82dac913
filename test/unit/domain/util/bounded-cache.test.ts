import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';

afterEach(() => BoundedCache.bypass(false));

describe('BoundedCache', () => {
  test('keeps values and never holds more than its limit', () => {
    const cache = new BoundedCache<number, string>('numbers', 10);
    for (let i = 0; i < 1000; i++) {
      cache.set(i, `v${i}`);
      expect(cache.size).toBeLessThanOrEqual(10);
    }
    expect(cache.get(999)).toBe('v999');
    expect(cache.get(0)).toBeUndefined();
  });

  test('an entry in use survives every turnover (old-generation hits move back)', () => {
    const cache = new BoundedCache<string, number>('hot', 4);
    cache.set('hot', 1);
    for (let i = 0; i < 100; i++) {
      cache.set(`cold${i}`, i);
      expect(cache.get('hot')).toBe(1);
    }
  });

  test('getOrCreate computes once while kept; delete and clear forget', () => {
    const cache = new BoundedCache<string, object>('objects', 8);
    let made = 0;
    const make = () => ({ n: ++made });
    const first = cache.getOrCreate('a', make);
    expect(cache.getOrCreate('a', make)).toBe(first);
    expect(made).toBe(1);
    cache.delete('a');
    expect(cache.has('a')).toBe(false);
    cache.getOrCreate('b', make);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  test('undefined values are not kept', () => {
    const cache = new BoundedCache<string, string | undefined>('maybe', 4);
    cache.set('x', undefined);
    expect(cache.has('x')).toBe(false);
  });

  test('bypass turns every cache into the plain path', () => {
    const cache = new BoundedCache<string, number>('bypassed', 4);
    cache.set('a', 1);
    BoundedCache.bypass(true);
    expect(BoundedCache.bypassing).toBe(true);
    expect(cache.get('a')).toBeUndefined();
    let made = 0;
    cache.getOrCreate('b', () => ++made);
    cache.getOrCreate('b', () => ++made);
    expect(made).toBe(2);
    BoundedCache.bypass(false);
    expect(cache.get('a')).toBe(1);
  });

  test('a weight limit holds whatever the values weigh, and a value over half of it is not kept', () => {
    const cache = new BoundedCache<number, string>('texts', 1000, { max: 100, of: (text) => text.length });
    for (let i = 0; i < 500; i++) {
      cache.set(i, 'x'.repeat(1 + (i % 30)));
      expect(cache.weightHeld).toBeLessThanOrEqual(100);
      expect(cache.weightHeld).toBe([...Array(i + 1).keys()].reduce((sum, k) => sum + (cache.has(k) ? 1 + (k % 30) : 0), 0));
    }
    expect(cache.get(499)).toBe('x'.repeat(1 + (499 % 30)));
    cache.set(1000, 'y'.repeat(51));
    expect(cache.has(1000)).toBe(false);
    cache.set(1001, 'y'.repeat(50));
    expect(cache.get(1001)).toBe('y'.repeat(50));
  });

  test('replacing, deleting and moving an entry between generations keep its weight counted once', () => {
    const cache = new BoundedCache<string, string>('weights', 100, { max: 20, of: (text) => text.length });
    cache.set('a', 'aaaa');
    cache.set('a', 'aa');
    expect(cache.weightHeld).toBe(2);
    cache.set('b', 'bbbbbbbb');
    cache.set('c', 'cccc');
    expect(cache.weightHeld).toBe(14);
    expect(cache.get('a')).toBe('aa');
    expect(cache.weightHeld).toBe(14);
    cache.delete('b');
    expect(cache.weightHeld).toBe(6);
    cache.clear();
    expect(cache.weightHeld).toBe(0);
  });

  test('refuses a weight limit below 2', () => {
    expect(() => new BoundedCache<string, string>('light', 4, { max: 1, of: (text) => text.length })).toThrow(RangeError);
  });

  test('refuses a limit below 2', () => {
    expect(() => new BoundedCache('tiny', 1)).toThrow(RangeError);
  });
});
