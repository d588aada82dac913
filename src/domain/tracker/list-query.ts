import { NotFoundError, ValidationError } from '../errors/index.js';
import { TERMINAL_STATUSES } from './config.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { IndexFilter, IndexSortField, ItemIndexStore } from '../../ports/item-index-store.js';
import { toSummary, type IndexEntry, type ItemSummary } from './index-entry.js';

export const LIST_SORTS = ['priority', 'created', 'updated', 'title', 'id'] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export const MAX_LIST_LIMIT = 500;

export interface ListQuery {
  readonly status?: readonly string[];
  readonly type?: readonly string[];
  /** Priorities 0 (highest) to 4 (lowest): items with one of these. */
  readonly priority?: readonly number[];
  /** Only items an unfinished or missing blocker holds back (true), or none does (false): blockers.ts. */
  readonly blocked?: boolean;
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
  /** Continue after this item, in the query's order (a short, human form of a cursor). */
  readonly after?: string;
}

export interface ListResult {
  readonly items: ItemSummary[];
  /** How many items match the filters in all (across every page). */
  readonly total: number;
  readonly nextCursor?: string;
}

const SORT_FIELDS: Record<ListSort, readonly IndexSortField[]> = {
  priority: ['priority', 'created', 'id'],
  created: ['created', 'id'],
  updated: ['updated', 'id'],
  title: ['titleText', 'id'],
  id: ['id'],
};

const sortValue = (entry: IndexEntry, field: IndexSortField): string | number => (field === 'titleText' ? entry.text.title : entry[field]);

/** The filters of a list query as the index takes them (also used by the MCP resources). */
export function listFilter(query: ListQuery): IndexFilter {
  const text = query.text?.toLowerCase();
  return {
    ...(query.status?.length ? { statuses: query.status } : query.all ? {} : { excludeStatuses: [...TERMINAL_STATUSES] }),
    ...(query.type?.length ? { types: query.type } : {}),
    ...(query.priority?.length ? { priorities: query.priority } : {}),
    ...(query.blocked !== undefined ? { blocked: query.blocked } : {}),
    ...(query.tag?.length ? { tagsAll: query.tag } : {}),
    ...(query.assignee !== undefined ? { assignee: query.assignee } : {}),
    ...(query.parent !== undefined ? { parent: query.parent } : {}),
    ...(query.idPrefix !== undefined ? { idPrefix: query.idPrefix } : {}),
    ...(query.blockedBy !== undefined ? { blockedBy: query.blockedBy } : {}),
    ...(text ? { text } : {}),
  };
}

/**
 * Filters, sorts and pages the index with keyset cursors: a page never repeats or skips an
 * item that existed throughout, even when other items change between pages. The index selects
 * and orders the page (by the sort's key fields, id last, so the order is total); one row past
 * the page tells whether another page follows.
 */
export function runListQuery(index: ItemIndexStore, query: ListQuery): ListResult {
  const limit = query.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new ValidationError(`limit must be an integer from 1 to ${MAX_LIST_LIMIT}, got ${limit}`, { field: 'limit' });
  }
  const sort = query.sort ?? 'priority';
  const direction = (query.order ?? (sort === 'updated' ? 'desc' : 'asc')) === 'asc' ? 1 : -1;
  const fingerprint = JSON.stringify([query.status, query.type, query.tag, query.assignee, query.parent, query.text, query.all, sort, direction, query.idPrefix, query.blockedBy, ...(query.priority || query.blocked !== undefined ? [query.priority, query.blocked] : [])]);
  const fields = SORT_FIELDS[sort];
  const after = query.cursor ? decodeCursor(query.cursor, fingerprint).key : query.after !== undefined ? keyOf(index, query.after, fields) : undefined;
  const { items, total } = index.page({ filter: listFilter(query), sort: fields, descending: direction < 0, ...(after ? { after } : {}), limit: limit + 1 });
  const page = items.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toSummary),
    total,
    ...(items.length > limit && last ? { nextCursor: encodeCursor({ key: fields.map((field) => sortValue(last, field)), query: fingerprint }) } : {}),
  };
}

/** The sort key of the item a page continues after (`after`: its current values). */
function keyOf(index: ItemIndexStore, id: string, fields: readonly IndexSortField[]): (string | number)[] {
  const entry = index.get(id);
  if (!entry) throw new NotFoundError(`no item ${id} to continue after`, { field: 'after', itemId: id });
  return fields.map((field) => sortValue(entry, field));
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
