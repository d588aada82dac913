import { ValidationError } from '../errors/index.js';
import { TERMINAL_STATUSES } from './config.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { toSummary, type IndexEntry, type ItemSummary } from './index-entry.js';

export const LIST_SORTS = ['priority', 'created', 'updated', 'title', 'id'] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export const MAX_LIST_LIMIT = 500;

export interface ListQuery {
  readonly status?: readonly string[];
  readonly type?: readonly string[];
  /** Items must carry every tag listed. */
  readonly tag?: readonly string[];
  readonly assignee?: string;
  readonly parent?: string;
  /** Items whose id starts with this text (id completion; MCP `completion/complete`). */
  readonly idPrefix?: string;
  /** Items that list this id among their blockers (the reverse dependency edge). */
  readonly blockedBy?: string;
  /** Case-insensitive substring of the title or body. */
  readonly text?: string;
  /** Include closed and canceled items when no status filter is given. */
  readonly all?: boolean;
  readonly sort?: ListSort;
  readonly order?: 'asc' | 'desc';
  readonly limit?: number;
  readonly cursor?: string;
}

export interface ListResult {
  readonly items: ItemSummary[];
  /** How many items match the filters in all (across every page). */
  readonly total: number;
  readonly nextCursor?: string;
}

type Key = (string | number)[];

const keyOf: Record<ListSort, (e: IndexEntry) => Key> = {
  priority: (e) => [e.priority, e.created, e.id],
  created: (e) => [e.created, e.id],
  updated: (e) => [e.updated, e.id],
  title: (e) => [e.text.title, e.id],
  id: (e) => [e.id],
};

function compareKeys(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Builds the filter predicate shared by list (and reused by the MCP resources). */
export function listPredicate(query: ListQuery): (entry: IndexEntry) => boolean {
  const statuses = query.status?.length ? new Set(query.status) : undefined;
  const types = query.type?.length ? new Set(query.type) : undefined;
  const text = query.text?.toLowerCase();
  return (e) => {
    if (statuses ? !statuses.has(e.status) : !query.all && TERMINAL_STATUSES.has(e.status)) return false;
    if (types && !types.has(e.type)) return false;
    if (query.tag && !query.tag.every((t) => e.tags.includes(t))) return false;
    if (query.assignee !== undefined && e.assignee !== query.assignee) return false;
    if (query.parent !== undefined && e.parent !== query.parent) return false;
    if (query.idPrefix !== undefined && !e.id.startsWith(query.idPrefix)) return false;
    if (query.blockedBy !== undefined && !e.blockedBy.includes(query.blockedBy)) return false;
    if (text && !e.text.title.includes(text) && !e.text.body.includes(text)) return false;
    return true;
  };
}

/**
 * Filters, sorts and pages the index with keyset cursors: a page never repeats or skips an
 * item that existed throughout, even when other items change between pages. Selection keeps
 * only the best `limit` rows (O(n log limit)), so a page costs one pass over the index.
 */
export function runListQuery(entries: Iterable<IndexEntry>, query: ListQuery): ListResult {
  const limit = query.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new ValidationError(`limit must be an integer from 1 to ${MAX_LIST_LIMIT}, got ${limit}`, { field: 'limit' });
  }
  const sort = query.sort ?? 'priority';
  const direction = (query.order ?? (sort === 'updated' ? 'desc' : 'asc')) === 'asc' ? 1 : -1;
  const fingerprint = JSON.stringify([query.status, query.type, query.tag, query.assignee, query.parent, query.text, query.all, sort, direction, query.idPrefix, query.blockedBy]);
  const after = query.cursor ? decodeCursor(query.cursor, fingerprint).key : undefined;
  const matches = listPredicate(query);
  const key = keyOf[sort];
  const top: { key: Key; entry: IndexEntry }[] = [];
  let total = 0;
  for (const entry of entries) {
    if (!matches(entry)) continue;
    total++;
    const k = key(entry);
    if (after && direction * compareKeys(k, after) <= 0) continue;
    insertBounded(top, { key: k, entry }, limit + 1, (a, b) => direction * compareKeys(a.key, b.key));
  }
  const page = top.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => toSummary(row.entry)),
    total,
    ...(top.length > limit && last ? { nextCursor: encodeCursor({ key: last.key, query: fingerprint }) } : {}),
  };
}

/** Keeps `rows` sorted and at most `bound` long while inserting `row`. */
export function insertBounded<T>(rows: T[], row: T, bound: number, compare: (a: T, b: T) => number): void {
  if (rows.length >= bound && compare(row, rows[rows.length - 1]!) >= 0) return;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(rows[mid]!, row) <= 0) lo = mid + 1;
    else hi = mid;
  }
  rows.splice(lo, 0, row);
  if (rows.length > bound) rows.pop();
}
