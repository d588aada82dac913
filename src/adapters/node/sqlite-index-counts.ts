import type { IndexFilter, Readiness, ReadinessQuery } from '../../ports/item-index-store.js';
import type { SqliteStatement } from './sqlite-driver.js';
import { filterSql } from './sqlite-index-sql.js';

type Prepare = (sql: string) => SqliteStatement;
type Counts = { -readonly [K in keyof Readiness['counts']]: number };

/** The filter fields the kept counts are keyed by (besides one tag). */
const COUNTED = new Set<string>(['statuses', 'excludeStatuses', 'types', 'assignee']);

/**
 * Totals and next's category counts from the kept counts (`item_counts`, `tag_counts`:
 * sqlite-index-schema.ts, docs/TRACKER.md "The derived index"): a sum over the few rows of the
 * filter's combinations instead of a pass over every matching item. Each method answers
 * undefined for a query the counts do not cover; the caller then counts the plain way, with
 * the same result.
 */
export class SqliteIndexCounts {
  constructor(private readonly stmt: Prepare) {}

  /** How many items match: filters of status, type, assignee and at most one distinct tag. */
  total(filter: IndexFilter): number | undefined {
    const { tagsAll, ...rest } = filter;
    if (Object.entries(rest).some(([key, value]) => value !== undefined && !COUNTED.has(key))) return undefined;
    const tags = [...new Set(tagsAll ?? [])];
    if (tags.length > 1) return undefined;
    const where = filterSql(rest);
    if (tags.length === 0) return this.stmt(`SELECT coalesce(sum(i.n), 0) FROM item_counts i WHERE ${where.sql}`).pluck().get(...where.params) as number;
    return this.stmt(`SELECT coalesce(sum(i.n), 0) FROM tag_counts i WHERE i.tag = ? AND ${where.sql}`).pluck().get(tags[0], ...where.params) as number;
  }

  /**
   * Next's counts (the port's ReadinessQuery categories) without a tag filter: blocked, busy
   * and assignee come from the counted combinations; a live claim is the only category that
   * depends on the time, and the few live claims are read one by one (items_claims) and moved
   * from the category the combinations put them in.
   */
  readiness(query: ReadinessQuery): Counts | undefined {
    if (query.tagsAll?.length) return undefined;
    const where = filterSql({ statuses: [query.status], ...(query.types?.length ? { types: query.types } : {}) });
    const mine = query.assignee;
    const elsewhere = (assignee: string | null) => mine !== undefined && assignee !== null && assignee !== mine;
    const counts: Counts = { open: 0, ready: 0, blocked: 0, claimed: 0, containers: 0 };
    const rows = this.stmt(`SELECT i.blocked, i.busy, i.assignee, sum(i.n) FROM item_counts i WHERE ${where.sql} GROUP BY i.blocked, i.busy, i.assigned, i.who`).raw().all(...where.params) as [number, number, string | null, number][];
    for (const [blocked, busy, assignee, n] of rows) {
      counts.open += n;
      if (blocked === 1) counts.blocked += n;
      else if (elsewhere(assignee)) counts.claimed += n;
      else if (busy === 1) counts.containers += n;
      else counts.ready += n;
    }
    const holder = mine ?? null;
    const claims = this.stmt(`SELECT i.busy, i.assignee FROM items i WHERE i.claim_holder IS NOT NULL AND i.claim_expires > ? AND (? IS NULL OR i.claim_holder <> ?) AND i.blocked = 0 AND ${where.sql}`)
      .raw().all(query.nowIso, holder, holder, ...where.params) as [number, string | null][];
    for (const [busy, assignee] of claims) {
      if (elsewhere(assignee)) continue;
      counts.claimed++;
      if (busy === 1) counts.containers--;
      else counts.ready--;
    }
    return counts;
  }
}
