import type { IndexedItem, IndexFilter, IndexSortField } from '../../ports/item-index-store.js';
import { WORD_PATTERN } from './sqlite-index-words.js';

/** A WHERE clause and its positional parameters. */
export interface SqlCondition {
  readonly sql: string;
  readonly params: unknown[];
}

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** For a run of word characters of a text filter: the rowids of the items with a title or body word containing it, as a JSON array. */
export type TextRids = (piece: string) => string;

/**
 * The filter as SQL over `items` (alias i), condition for condition the in-memory adapter's
 * predicate. A text filter is narrowed by the word tables first when `textRids` is given (the
 * items with a title or body word containing each run of word characters of the text:
 * sqlite-index-search.ts); the exact substring test (`instr` on the lowercased texts) always decides.
 *
 * `perRow` is for a condition tested row by row along an index walk (page's walk): a tag or
 * blocker is then looked up for the row by its key (`EXISTS` on the primary key of `tags` or
 * `links`), where `IN (subquery)` would first collect every item with the tag — thousands of
 * rows at 100k items — for a walk that stops after a few hundred. Both forms select the same rows.
 */
export function filterSql(filter: IndexFilter, { perRow = false, textRids }: { readonly perRow?: boolean; readonly textRids?: TextRids } = {}): SqlCondition {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    parts.push(sql);
    params.push(...values);
  };
  if (filter.statuses) add(`i.status IN (${placeholders(filter.statuses)})`, ...filter.statuses);
  if (filter.excludeStatuses?.length) add(`i.status NOT IN (${placeholders(filter.excludeStatuses)})`, ...filter.excludeStatuses);
  if (filter.types) add(`i.type IN (${placeholders(filter.types)})`, ...filter.types);
  if (filter.priorities) add(`i.priority IN (${placeholders(filter.priorities)})`, ...filter.priorities);
  if (filter.blocked !== undefined) add('i.blocked = ?', filter.blocked ? 1 : 0);
  for (const tag of filter.tagsAll ?? []) add(perRow ? 'EXISTS (SELECT 1 FROM tags g WHERE g.rid = i.rid AND g.tag = ?)' : 'i.rid IN (SELECT rid FROM tags WHERE tag = ?)', tag);
  if (filter.assignee !== undefined) add('i.assignee = ?', filter.assignee);
  if (filter.parent !== undefined) add('i.parent = ?', filter.parent);
  if (filter.idPrefix !== undefined) add('substr(i.id, 1, ?) = ?', [...filter.idPrefix].length, filter.idPrefix);
  if (filter.blockedBy !== undefined) add(perRow ? 'EXISTS (SELECT 1 FROM links l WHERE l.rid = i.rid AND l.kind = 0 AND l.target = ?)' : 'i.rid IN (SELECT rid FROM links WHERE target = ? AND kind = 0)', filter.blockedBy);
  if (filter.text !== undefined) {
    // Every occurrence of a run of word characters of the text lies in a word of the item's title or body.
    if (textRids) for (const piece of new Set(filter.text.match(WORD_PATTERN) ?? [])) add('i.rid IN (SELECT value FROM json_each(?))', textRids(piece));
    add('(instr(i.title_lc, ?) > 0 OR instr((SELECT body_lc FROM texts WHERE rid = i.rid), ?) > 0)', filter.text, filter.text);
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}

const SORT_COLUMNS: Record<IndexSortField, string> = {
  priority: 'i.priority',
  created: 'i.created',
  updated: 'i.updated',
  titleText: 'i.title_lc',
  id: 'i.id',
};

export function sortColumns(sort: readonly IndexSortField[]): string[] {
  return sort.map((field) => SORT_COLUMNS[field]);
}

/** The columns an {@link IndexedItem} is read from (items i joined with texts t), in {@link rowToItem}'s order. */
export const ITEM_COLUMNS = 'i.id, i.title, i.type, i.status, i.priority, i.tags, i.parent, i.assignee, i.claim_holder, i.claim_expires, i.blocked_by, i.related, i.created, i.updated, i.revision, i.comments, i.title_lc, t.body_lc, t.comments_lc';
/** The tables {@link ITEM_COLUMNS} come from. */
export const ITEM_SOURCE = 'items i JOIN texts t ON t.rid = i.rid';

export type ItemRow = [string, string, string, string, number, string, string | null, string | null, string | null, string | null, string, string, string, string, number, number, string, string, string];

export function rowToItem(row: ItemRow): IndexedItem {
  const [id, title, type, status, priority, tags, parent, assignee, claimHolder, claimExpiresAt, blockedBy, related, created, updated, revision, comments, titleLc, bodyLc, commentsLc] = row;
  return {
    id,
    title,
    type,
    status,
    priority,
    tags: JSON.parse(tags) as string[],
    ...(parent !== null ? { parent } : {}),
    ...(assignee !== null ? { assignee } : {}),
    ...(claimHolder !== null ? { claimHolder } : {}),
    ...(claimExpiresAt !== null ? { claimExpiresAt } : {}),
    blockedBy: JSON.parse(blockedBy) as string[],
    related: JSON.parse(related) as string[],
    created,
    updated,
    revision,
    comments,
    text: { title: titleLc, body: bodyLc, comments: commentsLc },
  };
}

/** The values of an item's `items` row, in {@link ITEM_INSERT_COLUMNS}' order (after rid). */
export function itemValues(item: IndexedItem): unknown[] {
  return [
    item.id, item.title, item.type, item.status, item.priority, JSON.stringify(item.tags), item.parent ?? null, item.assignee ?? null,
    item.claimHolder ?? null, item.claimExpiresAt ?? null, JSON.stringify(item.blockedBy), JSON.stringify(item.related), item.created,
    item.updated, item.revision, item.comments, item.text.title,
  ];
}

export const ITEM_INSERT_COLUMNS = 'id, title, type, status, priority, tags, parent, assignee, claim_holder, claim_expires, blocked_by, related, created, updated, revision, comments, title_lc';
export const ITEM_INSERT_COUNT = 17;
