/**
 * The one bounded cache behind every speed-up in pm: one small mechanism for every speed-up,
 * so each is bounded and can be switched off the same way. A cache only ever saves work that
 * can be done again: a value it forgets is recomputed by the caller's plain path, so the bound
 * protects memory without changing results.
 *
 * Eviction is two-generation ("segmented clear"): entries go into a young generation; when it
 * holds `limit / 2` entries it becomes the old generation and the previous old one is dropped.
 * A hit in the old generation moves the entry back to the young one. Every operation is O(1),
 * a hit in the young generation costs one map lookup (no reordering on every hit as an LRU
 * list would), the cache never holds more than `limit` entries, and an entry still in use
 * survives every turnover.
 *
 * `BoundedCache.bypass(true)` turns every cache off (each `get` misses, nothing is kept): tests
 * run the same operations with and without caching and compare, proving each speed-up is
 * invisible.
 */
export class BoundedCache<K, V> {
  private static bypassed = false;

  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  /**
   * @param name what the cache holds (diagnostics and test names)
   * @param limit the most entries kept (at least 2)
   */
  constructor(
    readonly name: string,
    readonly limit: number,
  ) {
    if (!Number.isSafeInteger(limit) || limit < 2) throw new RangeError(`cache ${name}: limit must be an integer >= 2`);
    this.half = Math.ceil(limit / 2);
  }

  /** Turns every cache off (true) or on again (false); for tests comparing against the plain path. */
  static bypass(off: boolean): void {
    BoundedCache.bypassed = off;
  }

  /** True while caches are bypassed. */
  static get bypassing(): boolean {
    return BoundedCache.bypassed;
  }

  /** The number of entries held (both generations). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  /** The value kept for `key`, or undefined. */
  get(key: K): V | undefined {
    if (BoundedCache.bypassed) return undefined;
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const aged = this.old.get(key);
    if (aged !== undefined) {
      this.old.delete(key);
      this.insert(key, aged);
    }
    return aged;
  }

  /** True when a value is kept for `key`. */
  has(key: K): boolean {
    return !BoundedCache.bypassed && (this.young.has(key) || this.old.has(key));
  }

  /** Keeps `value` for `key` (undefined values are not kept: `get` could not tell them from a miss). */
  set(key: K, value: V): void {
    if (BoundedCache.bypassed || value === undefined) return;
    this.old.delete(key);
    this.insert(key, value);
  }

  /** The value for `key`, computed by `make` and kept when absent. */
  getOrCreate(key: K, make: (key: K) => V): V {
    const known = this.get(key);
    if (known !== undefined) return known;
    const value = make(key);
    this.set(key, value);
    return value;
  }

  /** Forgets `key`. */
  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  private insert(key: K, value: V): void {
    const young = this.young;
    if (!young.has(key) && young.size >= this.half) {
      this.old = young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}
