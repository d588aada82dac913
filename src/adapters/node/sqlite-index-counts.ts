import type { IndexFilter, Readiness, ReadinessQuery } from '../../ports/item-index-store.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-driver.js';
import { SQLITE_INDEX_COUNTS_DDL } from './sqlite-index-schema.js';
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

const COUNT_TRIGGERS = [...SQLITE_INDEX_COUNTS_DDL.matchAll(/CREATE TRIGGER IF NOT EXISTS (\w+)/g)].map((match) => match[1]!);

/**
 * Runs `copy` (the first build's copy of every row, in the caller's transaction) with the
 * count triggers dropped, then counts the copied rows in two grouped passes and creates the
 * triggers again: a trigger per copied row would cost several times the copy itself.
 */
export function copyUncounted(db: SqliteDatabase, copy: () => void): void {
  for (const trigger of COUNT_TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS main.${trigger}`);
  copy();
  db.exec(`DELETE FROM main.item_counts;
    INSERT INTO main.item_counts(status, type, assigned, who, blocked, busy, n)
      SELECT status, type, assignee IS NOT NULL, coalesce(assignee, ''), blocked, busy, count(*) FROM main.items GROUP BY 1, 2, 3, 4, 5, 6;
    DELETE FROM main.tag_counts;
    INSERT INTO main.tag_counts(tag, status, type, assigned, who, n)
      SELECT g.tag, i.status, i.type, i.assignee IS NOT NULL, coalesce(i.assignee, ''), count(*) FROM main.tags g JOIN main.items i ON i.rid = g.rid GROUP BY 1, 2, 3, 4, 5;`);
  db.exec(SQLITE_INDEX_COUNTS_DDL);
}
