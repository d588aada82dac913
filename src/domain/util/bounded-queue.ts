/**
 * Bounds a queue at `max` entries by folding its oldest ones into one (the AnnouncementOutbox
 * port: a full queue never grows and never silently drops what it held). Returns `entries`
 * itself when it fits; otherwise one entry made by `collapse` from the oldest, then the newest
 * `max - 1` entries in order.
 */
export function collapseOldest<T>(entries: readonly T[], max: number, collapse: (folded: readonly T[]) => T): readonly T[] {
  if (max < 2) throw new RangeError(`a bounded queue holds at least 2 entries (got ${max})`);
  if (entries.length <= max) return entries;
  const keep = entries.length - (max - 1);
  return [collapse(entries.slice(0, keep)), ...entries.slice(keep)];
}
