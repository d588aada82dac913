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
 * A cache whose values vary widely in size (the YAML of an item's comments, a serialized result)
 * is also bounded by weight: `weigh` gives a value's weight (its characters, its entries) and a
 * generation turns over when it holds `maxWeight / 2`, so the cache never holds more than
 * `maxWeight`; a value heavier than half of it is not kept (its caller's plain path computes it
 * each time). A count alone bounds the entries, not the bytes: 128 lists of an item's 5,000
 * comments are ~100 MB (docs/TRACKER.md "Memory").
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
  private readonly halfWeight: number;
  private youngWeight = 0;
  private oldWeight = 0;

  /**
   * @param name what the cache holds (diagnostics and test names)
   * @param limit the most entries kept (at least 2)
   * @param weight the most total weight kept, and how much a value weighs (a cheap, fixed
   *   function of the value); absent: entries are only counted
   */
  constructor(
    readonly name: string,
    readonly limit: number,
    private readonly weight?: { readonly max: number; readonly of: (value: V) => number },
  ) {
    if (!Number.isSafeInteger(limit) || limit < 2) throw new RangeError(`cache ${name}: limit must be an integer >= 2`);
    if (weight && !(weight.max >= 2)) throw new RangeError(`cache ${name}: the weight limit must be >= 2`);
    this.half = Math.ceil(limit / 2);
    this.halfWeight = weight ? weight.max / 2 : Infinity;
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

  /** The total weight held (both generations; 0 for a cache without weights). */
  get weightHeld(): number {
    return this.youngWeight + this.oldWeight;
  }

  /** The value kept for `key`, or undefined. */
  get(key: K): V | undefined {
    if (BoundedCache.bypassed) return undefined;
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const aged = this.old.get(key);
    if (aged !== undefined) {
      this.old.delete(key);
      this.oldWeight -= this.weigh(aged);
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
    this.delete(key);
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
    const young = this.young.get(key);
    if (young !== undefined) {
      this.young.delete(key);
      this.youngWeight -= this.weigh(young);
    }
    const aged = this.old.get(key);
    if (aged !== undefined) {
      this.old.delete(key);
      this.oldWeight -= this.weigh(aged);
    }
  }

  /** Forgets everything. */
  clear(): void {
    this.young.clear();
    this.old.clear();
    this.youngWeight = 0;
    this.oldWeight = 0;
  }

  /** Puts a key absent from both generations into the young one, turning generations over first when it is full. */
  private insert(key: K, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.halfWeight) return;
    if (this.young.size >= this.half || this.youngWeight + weight > this.halfWeight) {
      this.old = this.young;
      this.oldWeight = this.youngWeight;
      this.young = new Map();
      this.youngWeight = 0;
    }
    this.young.set(key, value);
    this.youngWeight += weight;
  }

  private weigh(value: V): number {
    return this.weight ? this.weight.of(value) : 0;
  }
}
