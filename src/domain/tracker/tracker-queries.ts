import { NotFoundError } from '../errors/index.js';
import { withActiveBlockers } from './blockers.js';
import type { ChainFault, HistoryEntry } from './history.js';
import { assertKnownFilter } from './item-rules.js';
import type { Item } from './item.js';
import { runListQuery, type ListQuery, type ListResult } from './list-query.js';
import { runNextQuery, type NextQuery, type NextResult } from './next-query.js';
import { runSearchQuery, searchTerms, snippetIn, type SearchQuery, type SearchResult } from './search-query.js';
import { markLapsed } from './readiness.js';
import { assertId, type TrackerParts } from './tracker-parts.js';
import { runBlockedQuery, runReadyQuery, runTreeQuery, withParentTitles, type BlockedResult, type ReadyQuery, type ReadyResult, type TreeNode, type TreeResult } from './backlog-views.js';

/** How a list is shown: `parentTitles` adds each child's parent title from the index (`pm list`; docs/CLI.md "pm list"). */
export interface ListOptions {
  readonly parentTitles?: boolean;
}

/** The item files a query had to leave out because they do not parse (none: the key is absent). */
export interface Unreadable {
  readonly unreadable?: { id: string; message: string }[];
}

export interface TrackerContext {
  readonly root: string;
  readonly idPrefix: string;
  readonly total: number;
  readonly byStatus: Record<string, number>;
  readonly byType: Record<string, number>;
  readonly next: NextResult['item'];
  readonly nextRationale: string;
  readonly claims: { id: string; title: string; holder: string; expiresAt: string }[];
  /** Claims whose lease ran out on items not closed or canceled: offered by next, shown with holder and expiry. */
  readonly expiredClaims: { id: string; title: string; holder: string; expiresAt: string }[];
  readonly recent: ListResult['items'];
  readonly unreadable: { id: string; message: string }[];
}

/** One claim: the item, its holder, when its lease runs (or ran) out (ISO time). */
export interface LiveClaim {
  readonly id: string;
  readonly holder: string;
  readonly expiresAt: string;
}

/**
 * The tracker's reads: single items and histories from the files, list/next/search/context
 * through the derived index (refreshed first, so a query never shows stale data; docs/TRACKER.md
 * "The derived index").
 */
export class TrackerQueries {
  constructor(private readonly parts: TrackerParts) {}

  async get(id: string): Promise<Item> {
    assertId(id);
    const item = await this.parts.store.readItem(id);
    if (!item) throw new NotFoundError(`no item ${id}`, { itemId: id });
    return item;
  }

  /**
   * List, next and search refuse a status or type config.yaml does not declare (a typo is not
   * "no items"), show only the blockers still holding an item back, and name the item files
   * they had to leave out because they do not parse (`unreadable`, absent when there are none).
   */
  async list(query: ListQuery = {}, options: ListOptions = {}): Promise<ListResult & Unreadable> {
    const { index, sync } = this.parts;
    await this.assertKnownFilters(query.status, query.type);
    return sync.query(() => {
      const result = runListQuery(index, query);
      const items = markLapsed(index, withActiveBlockers(index, result.items), this.nowIso());
      return { ...result, items: options.parentTitles ? withParentTitles(index, items) : items, ...this.unreadable() };
    });
  }

  async next(query: NextQuery = {}): Promise<NextResult & Unreadable> {
    const { index, sync, clock } = this.parts;
    await this.assertKnownFilters(undefined, query.type);
    return sync.query(() => {
      const now = new Date(clock.now()).toISOString();
      const result = runNextQuery(index, this.forCaller(query), now);
      const [item, ...alternatives] = markLapsed(index, withActiveBlockers(index, [...(result.item ? [result.item] : []), ...result.alternatives]), now);
      return { ...result, item: result.item ? item! : null, alternatives: result.item ? alternatives : [], ...this.unreadable() };
    });
  }

  /** Every ready item for the caller (backlog-views.ts), with the reason and the parent's title. */
  async readyItems(query: ReadyQuery = {}): Promise<ReadyResult & Unreadable> {
    const { index, sync } = this.parts;
    await this.assertKnownFilters(undefined, query.type);
    return sync.query(() => {
      const now = this.nowIso();
      const result = runReadyQuery(index, this.forCaller(query), now);
      return { ...result, items: withParentTitles(index, markLapsed(index, withActiveBlockers(index, result.items), now)), ...this.unreadable() };
    });
  }

  /** Items held back by an unfinished or missing blocker, with those blockers (backlog-views.ts). */
  async blocked(query: ListQuery = {}): Promise<BlockedResult & Unreadable> {
    const { index, sync } = this.parts;
    await this.assertKnownFilters(query.status, query.type);
    return sync.query(() => {
      const result = runBlockedQuery(index, query);
      return { ...result, items: withParentTitles(index, markLapsed(index, withActiveBlockers(index, result.items), this.nowIso())), ...this.unreadable() };
    });
  }

  /** An item's children and theirs, with progress; without an id, every open top-level item that has children. */
  async tree(rootId?: string): Promise<TreeResult & Unreadable> {
    if (rootId !== undefined) assertId(rootId);
    const { index, sync } = this.parts;
    return sync.query(() => {
      const now = this.nowIso();
      const decorate = (node: TreeNode): TreeNode => ({ ...node, item: markLapsed(index, withActiveBlockers(index, [node.item]), now)[0]!, children: node.children.map(decorate) });
      const roots = runTreeQuery(index, rootId).roots.map(decorate);
      // Only a root can have a parent outside the tree: its title is filled in, the others' parents are in view.
      const titled = withParentTitles(index, roots.map((root) => root.item));
      return { roots: roots.map((root, n) => ({ ...root, item: titled[n]! })), ...this.unreadable() };
    });
  }

  async search(query: SearchQuery): Promise<SearchResult & Unreadable> {
    const { index, sync, store } = this.parts;
    await this.assertKnownFilters(query.status, undefined);
    const { result, unreadable } = await sync.query(() => ({ result: runSearchQuery(index, query), unreadable: this.unreadable() }));
    const terms = searchTerms(query.query);
    // The index keeps lowercased text; the snippets a person reads come from the item files.
    const results = await Promise.all(result.results.map(async (hit) => {
      if (hit.snippet === undefined) return hit;
      const item = await store.readItem(hit.id).catch(() => undefined);
      const snippet = item ? snippetIn([item.body, item.comments.map((c) => c.text).join('\n')], terms).snippet : undefined;
      return snippet === undefined ? hit : { ...hit, snippet };
    }));
    // The blockers from the index once more: after a reset meanwhile they come from the rebuilt index.
    return { ...result, results: await sync.query(() => markLapsed(index, withActiveBlockers(index, results), this.nowIso())), ...unreadable };
  }

  async historyOf(id: string): Promise<HistoryEntry[]> {
    assertId(id);
    const entries = await this.parts.history.read(id);
    if (entries.length === 0 && !(await this.parts.store.exists(id))) throw new NotFoundError(`no item ${id} and no history for it`, { itemId: id });
    return entries;
  }

  /**
   * An item's history with the problems its chain verification found (the check `pm validate`
   * runs), so a reader can mark the lines that cannot be trusted instead of showing a forged
   * actor as recorded.
   */
  async verifiedHistory(id: string): Promise<{ entries: HistoryEntry[]; faults: readonly ChainFault[] }> {
    assertId(id);
    const result = await this.parts.history.verify(id);
    if (result.entries.length === 0 && result.faults.length === 0 && !(await this.parts.store.exists(id))) throw new NotFoundError(`no item ${id} and no history for it`, { itemId: id });
    return result;
  }

  /** A compact picture of the project: counts, what to do next, who holds what. */
  async context(): Promise<TrackerContext> {
    const { index, sync, clock, paths } = this.parts;
    const config = await this.parts.ready();
    return sync.query(() => {
      const now = new Date(clock.now()).toISOString();
      const overview = index.overview(now);
      const found = runNextQuery(index, this.forCaller({}), now);
      const next = { ...found, item: found.item ? markLapsed(index, [found.item], now)[0]! : null };
      const recent = markLapsed(index, withActiveBlockers(index, runListQuery(index, { all: true, sort: 'updated', limit: 5 }).items), now);
      return { root: paths.root, idPrefix: config.idPrefix, total: overview.total, byStatus: { ...overview.byStatus }, byType: { ...overview.byType }, next: next.item, nextRationale: next.rationale, claims: overview.claims.map((claim) => ({ ...claim })), expiredClaims: overview.expiredClaims.map((claim) => ({ ...claim })), recent, unreadable: index.problems() };
    });
  }

  /**
   * The claims on unfinished items, live and lapsed, earliest expiry first: what a lease timer
   * waits for and what tells it a lease ran out (docs/MCP.md "Subscriptions").
   */
  async claimLeases(): Promise<LiveClaim[]> {
    const { index, sync } = this.parts;
    return sync.query(() => {
      const { claims, expiredClaims } = index.overview(this.nowIso());
      return [...expiredClaims, ...claims].map(({ id, holder, expiresAt }) => ({ id, holder, expiresAt }));
    });
  }

  private nowIso(): string {
    return new Date(this.parts.clock.now()).toISOString();
  }

  /** The query with its caller: the actor when it names nobody, so CLI, MCP and context apply one rule. */
  private forCaller(query: NextQuery): NextQuery {
    return query.assignee !== undefined ? query : { ...query, assignee: this.parts.defaultActor };
  }

  private async assertKnownFilters(statuses: readonly string[] | undefined, types: readonly string[] | undefined): Promise<void> {
    if (!statuses?.length && !types?.length) return;
    const config = await this.parts.ready();
    assertKnownFilter(config, 'status', statuses);
    assertKnownFilter(config, 'type', types);
  }

  private unreadable(): Unreadable {
    const problems = this.parts.index.problems();
    return problems.length ? { unreadable: problems.map((p) => ({ ...p })) } : {};
  }
}
