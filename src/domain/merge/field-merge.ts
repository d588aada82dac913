import { deepEqual } from '../tracker/json-patch.js';

/** Which side a both-sides change went to, and why (recorded in the merge receipt). */
export interface FieldDecision {
  readonly field: string;
  readonly ours: unknown;
  readonly theirs: unknown;
  readonly took: 'ours' | 'theirs';
  readonly rule: string;
}

/** The side whose value wins where both sides changed a field to different values. */
export type Winner = 'ours' | 'theirs';

/**
 * Three-way merge of one value: unchanged on a side means the other side's change wins; both
 * changed alike is that value; both changed differently goes to `winner` and is recorded.
 */
export function mergeValue<T>(field: string, base: T, ours: T, theirs: T, winner: Winner, rule: string, decisions: FieldDecision[]): T {
  if (deepEqual(ours, theirs)) return ours;
  if (deepEqual(base, ours)) return theirs;
  if (deepEqual(base, theirs)) return ours;
  decisions.push({ field, ours: ours ?? null, theirs: theirs ?? null, took: winner, rule });
  return winner === 'ours' ? ours : theirs;
}

/**
 * Three-way merge of a set kept as a list: an element is in the result when a side has it
 * and neither side removed it (had it in the base and dropped it). Kept elements stay in the
 * base's order; the additions follow in sorted order, so the result does not depend on which
 * side is "ours".
 */
export function mergeSet(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  const inBase = new Set(base);
  const inOurs = new Set(ours);
  const inTheirs = new Set(theirs);
  const kept = base.filter((value) => inOurs.has(value) && inTheirs.has(value));
  const added = [...new Set([...ours, ...theirs])].filter((value) => !inBase.has(value)).sort();
  return [...kept, ...added];
}

/** Three-way merge of a record of scalars, key by key (a key absent on a side is a removal there). */
export function mergeRecord<V>(field: string, base: Readonly<Record<string, V>>, ours: Readonly<Record<string, V>>, theirs: Readonly<Record<string, V>>, winner: Winner, rule: string, decisions: FieldDecision[]): Record<string, V> {
  const out: Record<string, V> = {};
  for (const key of [...new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)])].sort()) {
    const value = mergeValue(`${field}.${key}`, base[key], ours[key], theirs[key], winner, rule, decisions);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * Three-way merge of a list of entries with an identity (comments by id, criteria by text):
 * entries are a union by key with removals honoured, an entry changed on both sides goes to
 * `winner`; `order` sorts the result.
 */
export function mergeKeyed<E>(field: string, base: readonly E[], ours: readonly E[], theirs: readonly E[], key: (entry: E) => string, order: (a: E, b: E) => number, winner: Winner, rule: string, decisions: FieldDecision[]): E[] {
  const byKey = (list: readonly E[]) => new Map(list.map((entry) => [key(entry), entry]));
  const b = byKey(base);
  const o = byKey(ours);
  const t = byKey(theirs);
  const out: E[] = [];
  for (const k of new Set([...b.keys(), ...o.keys(), ...t.keys()])) {
    const merged = mergeValue(`${field}[${k}]`, b.get(k), o.get(k), t.get(k), winner, rule, decisions);
    if (merged !== undefined) out.push(merged);
  }
  return out.sort(order);
}
