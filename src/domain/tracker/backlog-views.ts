import type { IndexedItem, ItemIndexStore } from '../../ports/item-index-store.js';
import { NotFoundError } from '../errors/index.js';
import { isActiveBlocker } from './blockers.js';
import { TERMINAL_STATUSES } from './config.js';
import { toSummary, type ItemSummary } from './index-entry.js';
import { runListQuery, type ListQuery, type ListResult } from './list-query.js';
import { readinessRequest, type NextQuery, type NextResult } from './next-query.js';
import { describeLapse, leaseState } from './readiness.js';

/**
 * The backlog views beside list (docs/CLI.md "pm ready", "pm blocked", "pm tree"): every ready
 * item, every blocked item with its open blockers, an item's children with their progress.
 * All read the derived index only; ready uses the one readiness rule (readiness.ts) through the
 * port's ReadinessQuery, as next and claim-next do, so the three agree for the same caller.
 */

/** The summaries with `parentTitle` filled in from the index (one lookup for all parents; absent when the parent is not indexed). */
export function withParentTitles<T extends ItemSummary>(index: Pick<ItemIndexStore, 'getMany'>, summaries: readonly T[]): T[] {
  const parents = [...new Set(summaries.flatMap((s) => (s.parent ? [s.parent] : [])))];
  if (parents.length === 0) return [...summaries];
  const titles = new Map(index.getMany(parents).map((entry) => [entry.id, entry.title]));
  return summaries.map((s) => {
    const title = s.parent ? titles.get(s.parent) : undefined;
    return title === undefined ? s : { ...s, parentTitle: title };
  });
}

export interface ReadyQuery extends Omit<NextQuery, 'alternatives'> {
  readonly priority?: readonly number[];
  readonly parent?: string;
  /** At most this many items (default 50). */
  readonly limit?: number;
}

/** A ready item and why it is ready ("open, unclaimed, no blockers"). */
export type ReadyItem = ItemSummary & { readonly reason: string };

export interface ReadyResult {
  readonly items: ReadyItem[];
  /** How many items are ready for the query in all (the items are the first `limit`). */
  readonly total: number;
  /** next's counts over the candidates (before the priority and parent filters). */
  readonly counts: NextResult['counts'];
}

/** Every ready item for the caller, in next's order (priority, then oldest, then id). */
export function runReadyQuery(index: ItemIndexStore, query: ReadyQuery, nowIso: string): ReadyResult {
  const limit = query.limit ?? 50;
  const narrowed = query.priority?.length || query.parent !== undefined || (query.assignedOnly && query.assignee !== undefined);
  const { counts, ready } = index.readiness(readinessRequest(query, nowIso, narrowed ? Math.max(limit, index.size()) : limit));
  const kept = narrowed ? ready.filter((entry) => keeps(entry, query)) : ready;
  return {
    items: kept.slice(0, limit).map((entry) => ({ ...toSummary(entry), reason: readyReason(entry, nowIso) })),
    total: narrowed ? kept.length : counts.ready,
    counts: { ...counts },
  };
}

function keeps(entry: IndexedItem, query: ReadyQuery): boolean {
  return (!query.priority?.length || query.priority.includes(entry.priority))
    && (query.parent === undefined || entry.parent === query.parent)
    && (!query.assignedOnly || entry.assignee === query.assignee);
}

/** Why an item is ready: its claim state and its blockers. */
export function readyReason(entry: IndexedItem, nowIso: string): string {
  const lease = leaseState(entry, nowIso);
  const state = lease.state === 'expired' ? describeLapse(lease.holder, lease.expiresAt, Date.parse(nowIso)) : 'open, unclaimed';
  return `${state}, ${entry.blockedBy.length ? `all ${entry.blockedBy.length} blocker(s) done` : 'no blockers'}`;
}

/** A blocker still holding an item back: its title and status, or `missing` when it is not indexed. */
export type OpenBlocker = { readonly id: string; readonly title: string; readonly status: string } | { readonly id: string; readonly missing: true };

export interface BlockedResult extends ListResult {
  /** The open blockers of the listed items, by id. */
  readonly blockers: Record<string, OpenBlocker>;
}

/** Items (not closed or canceled unless `status` says so) that an unfinished or missing blocker holds back. */
export function runBlockedQuery(index: ItemIndexStore, query: ListQuery): BlockedResult {
  const result = runListQuery(index, { ...query, blocked: true });
  const ids = [...new Set(result.items.flatMap((item) => item.blockedBy))];
  const known = new Map(index.getMany(ids).map((entry) => [entry.id, entry]));
  const blockers: Record<string, OpenBlocker> = {};
  for (const id of ids) {
    const entry = known.get(id);
    if (!isActiveBlocker(entry)) continue;
    blockers[id] = entry ? { id, title: entry.title, status: entry.status } : { id, missing: true };
  }
  return { ...result, blockers };
}

/** One item of a tree with its children and how many of them are done. */
export interface TreeNode {
  readonly item: ItemSummary;
  readonly progress: { readonly done: number; readonly total: number };
  readonly children: TreeNode[];
}

export interface TreeResult {
  readonly roots: TreeNode[];
}

/** How deep a tree goes (parent cycles are refused on write and reported by validate; this bounds a hand-made one). */
export const MAX_TREE_DEPTH = 32;

/**
 * The tree under `rootId` (every child, closed ones too, so progress counts them), or, without
 * one, the trees of every item that is not closed or canceled, has no parent and has children.
 */
export function runTreeQuery(index: ItemIndexStore, rootId: string | undefined): TreeResult {
  if (rootId !== undefined) {
    const root = index.get(rootId);
    if (!root) throw new NotFoundError(`no item ${rootId}`, { itemId: rootId });
    // One index page per item of the tree: the children of each, in priority order.
    const kidsOf = (id: string) => index.page({ filter: { parent: id }, sort: ['priority', 'created', 'id'], descending: false, limit: Math.max(1, index.size()) }).items;
    return { roots: [node(root, kidsOf, new Set(), 0)] };
  }
  const all = index.page({ filter: {}, sort: ['priority', 'created', 'id'], descending: false, limit: Math.max(1, index.size()) }).items;
  const children = new Map<string, IndexedItem[]>();
  for (const entry of all) if (entry.parent !== undefined) (children.get(entry.parent) ?? children.set(entry.parent, []).get(entry.parent)!).push(entry);
  const roots = all.filter((e) => e.parent === undefined && children.has(e.id) && !TERMINAL_STATUSES.has(e.status));
  return { roots: roots.map((root) => node(root, (id) => children.get(id) ?? [], new Set(), 0)) };
}

function node(entry: IndexedItem, kidsOf: (id: string) => readonly IndexedItem[], seen: Set<string>, depth: number): TreeNode {
  seen.add(entry.id);
  const kids = kidsOf(entry.id).filter((kid) => !seen.has(kid.id));
  return {
    item: toSummary(entry),
    progress: { done: kids.filter((kid) => TERMINAL_STATUSES.has(kid.status)).length, total: kids.length },
    children: depth + 1 >= MAX_TREE_DEPTH ? [] : kids.map((kid) => node(kid, kidsOf, seen, depth + 1)),
  };
}
