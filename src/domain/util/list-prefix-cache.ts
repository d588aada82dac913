import { BoundedCache } from './bounded-cache.js';

interface Remembered<V> {
  readonly tag: string;
  readonly entries: readonly unknown[];
  readonly value: V;
}

/** What {@link ListPrefixCache.find} found: the value of the list's first `length` entries. */
export interface ListPrefix<V> {
  readonly length: number;
  readonly value: V;
}

/**
 * Values computed over a whole list of frozen entries (the YAML of an item's comments, a check
 * of every entry), kept so that the next list, the same entries with one more at the end as
 * the next mutation leaves it, computes only for its new entry. Lists are matched by the
 * identity of their entries: a list is remembered under its last entry, and a later list is
 * found from its own last or second-to-last entry and accepted only when every entry before
 * that is the same object as the remembered one's. Items are immutable and a mutation keeps
 * the entries it does not change (docs/TRACKER.md "Mutations"), so this is the common case;
 * any other list simply misses. Behind {@link BoundedCache}, so bypassing caches turns it off.
 */
export class ListPrefixCache<V> {
  private readonly lists: BoundedCache<object, Remembered<V>>;

  /**
   * @param limit the most lists kept
   * @param maxEntries the most entries of all kept lists together: a list's value grows with its
   *   entries (an item's 5,000 comments), so the lists are bounded by their entries, not only
   *   counted; a list longer than half of this is not kept (its fold starts from the first entry)
   */
  constructor(name: string, limit: number, maxEntries: number) {
    this.lists = new BoundedCache(name, limit, { max: maxEntries, of: (list) => list.entries.length });
  }

  /** The entries of every kept list together (at most `maxEntries`). */
  get entriesHeld(): number {
    return this.lists.weightHeld;
  }

  /**
   * `step` folded over the list's entries from `start`, resumed after the longest remembered
   * prefix of the list; the longest prefix of frozen entries is then remembered with its value.
   * (An entry a mutation just added is not frozen yet, so each list is remembered without it
   * and found again from the next list, which has one entry more.)
   */
  fold(tag: string, list: readonly unknown[], start: V, step: (value: V, entry: unknown) => V): V {
    const known = this.find(tag, list);
    let value = known?.value ?? start;
    let frozen = known?.length ?? 0;
    let frozenValue = value;
    const from = frozen;
    for (let k = from; k < list.length; k++) {
      value = step(value, list[k]);
      if (frozen === k && isFrozenObject(list[k])) {
        frozen++;
        frozenValue = value;
      }
    }
    if (frozen > from) this.remember(tag, frozen === list.length ? list : list.slice(0, frozen), frozenValue);
    return value;
  }

  /** The longest remembered list of the same `tag` that `list` starts with (all of it, or all but its last one or two entries). */
  find(tag: string, list: readonly unknown[]): ListPrefix<V> | undefined {
    for (let length = list.length; length >= Math.max(1, list.length - 2); length--) {
      const last = list[length - 1];
      if (!isFrozenObject(last)) continue;
      const known = this.lists.get(last);
      if (known && known.tag === tag && known.entries.length === length && startsWith(list, known.entries)) return { length, value: known.value };
    }
    return undefined;
  }

  /** Remembers the value of `list`, a list of frozen entries (copied unless frozen itself, so a caller changing its array later changes nothing here). */
  private remember(tag: string, list: readonly unknown[], value: V): void {
    this.lists.set(list[list.length - 1] as object, { tag, entries: Object.isFrozen(list) ? list : Object.freeze([...list]), value });
  }
}

function isFrozenObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && Object.isFrozen(value);
}

function startsWith(list: readonly unknown[], prefix: readonly unknown[]): boolean {
  if (list === prefix) return true;
  for (let k = 0; k < prefix.length; k++) if (list[k] !== prefix[k]) return false;
  return true;
}
