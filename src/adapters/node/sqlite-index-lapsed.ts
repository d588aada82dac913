import { TERMINAL_STATUSES } from '../../domain/tracker/config.js';
import { classifyReadiness, type ReadinessCategory } from '../../domain/tracker/readiness.js';
import type { Readiness, ReadinessQuery } from '../../ports/item-index-store.js';
import type { SqliteStatement } from './sqlite-driver.js';
import { filterSql } from './sqlite-index-sql.js';

type Prepare = (sql: string) => SqliteStatement;
type Counts = { -readonly [K in keyof Readiness['counts']]: number };

/**
 * The items whose claim has lapsed that share everything the readiness rule reads of them
 * (src/domain/tracker/readiness.ts): whether their status is the asked one, the assignee, whether
 * the holder is the assignee, the blocked and busy marks. All of a group fall in one category.
 */
export interface LapsedGroup {
  readonly n: number;
  /** The category of its items by the readiness rule. */
  readonly category: ReadinessCategory;
  /** For items with the asked status: the category the plain SQL counts gave them (the assignment holds them back even though the claim lapsed). */
  readonly counted?: ReadinessCategory;
  /** Its key, as the SQL condition {@link LAPSED_GROUP_SQL} reads it. */
  readonly key: readonly [asked: number, assignee: string, holderIsAssignee: number, blocked: number, busy: number];
}

/** One lapsed item that is ready, with next's order key. */
export interface LapsedReadyRow {
  readonly rid: number;
  readonly key: readonly [number, string, string];
}

/** The SQL condition (alias i) of a lapsed claim; its one parameter is nowIso. */
export const LAPSED_SQL = '(i.claim_holder IS NOT NULL AND i.claim_expires <= ?)';

const TERMINAL = [...TERMINAL_STATUSES];

/** What groups lapsed items (alias i; its one parameter is the asked status): see {@link LapsedGroup}. */
const LAPSED_GROUP_SQL = "(i.status = ?), coalesce(i.assignee, ''), coalesce(i.claim_holder = i.assignee, 0), i.blocked, i.busy";

/** The filter of next's lapsed candidates: not closed or canceled, with the query's type and tag filters. */
function lapsedWhere(query: ReadinessQuery) {
  return filterSql({ excludeStatuses: TERMINAL, ...(query.types?.length ? { types: query.types } : {}), ...(query.tagsAll?.length ? { tagsAll: query.tagsAll } : {}) });
}

/**
 * The candidates of next whose claim has lapsed (the port's ReadinessQuery), counted by group
 * through items_claims and each group classified once with the domain's rule, since an
 * assignment that lapsed with its holder's claim holds nothing back, which the kept counts
 * (keyed by assignee) cannot tell. A tracker with 10,000 expired claims is a few groups, not
 * 10,000 rows classified on every call.
 */
export function lapsedGroups(stmt: Prepare, query: ReadinessQuery): LapsedGroup[] {
  const where = lapsedWhere(query);
  const rows = stmt(`SELECT ${LAPSED_GROUP_SQL}, min(i.claim_holder), min(i.claim_expires), count(*) FROM items i WHERE ${LAPSED_SQL} AND ${where.sql} GROUP BY 1, 2, 3, 4, 5`)
    .raw().all(query.status, query.nowIso, ...where.params) as [number, string, number, number, number, string, string, number][];
  return rows.map(([asked, assignee, holderIsAssignee, blocked, busy, someHolder, expires, n]) => {
    // A representative of the group: the rule reads the holder only as "is it the assignee".
    const holder = holderIsAssignee === 1 ? assignee : someHolder;
    const status = asked === 1 ? query.status : 'in_progress';
    const item = { status, claimHolder: holder, claimExpiresAt: expires, ...(assignee !== '' ? { assignee } : {}) };
    const marks = { blocked: blocked === 1, busy: busy === 1 };
    const category = classifyReadiness(item, marks, query.assignee, query.nowIso);
    const key = [asked, assignee, holderIsAssignee, blocked, busy] as const;
    if (asked !== 1) return { n, category, key };
    // The plain counts know no lapse: a lapsed claim counts as no claim, the assignment as it is.
    const counted = classifyReadiness({ status, ...(assignee !== '' ? { assignee } : {}) }, marks, query.assignee, query.nowIso);
    return { n, category, counted, key };
  });
}

/** The first `limit` lapsed items of the ready groups, in next's order (priority, created, id). */
export function lapsedReady(stmt: Prepare, query: ReadinessQuery, groups: readonly LapsedGroup[], limit: number): LapsedReadyRow[] {
  const ready = groups.filter((group) => group.category === 'ready');
  if (ready.length === 0 || limit <= 0) return [];
  const where = lapsedWhere(query);
  const keys = ready.map(() => '(?, ?, ?, ?, ?)').join(', ');
  const rows = stmt(`SELECT i.rid, i.priority, i.created, i.id FROM items i WHERE ${LAPSED_SQL} AND ${where.sql} AND (${LAPSED_GROUP_SQL}) IN (VALUES ${keys}) ORDER BY i.priority, i.created, i.id LIMIT ?`)
    .raw().all(query.nowIso, ...where.params, query.status, ...ready.flatMap((group) => group.key), limit) as [number, number, string, string][];
  return rows.map(([rid, priority, created, id]) => ({ rid, key: [priority, created, id] as const }));
}

/** Moves the lapsed candidates from the categories the plain counts gave them (or none) to their own. */
export function correctCounts(counts: Counts, groups: readonly LapsedGroup[]): Counts {
  const out = { ...counts };
  const field = { blocked: 'blocked', claimed: 'claimed', container: 'containers', ready: 'ready' } as const;
  for (const group of groups) {
    if (group.counted) out[field[group.counted]] -= group.n;
    else out.open += group.n;
    out[field[group.category]] += group.n;
  }
  return out;
}

/**
 * The rowids of the first `limit` ready items: the plain ready ones (in next's order already)
 * merged with the lapsed ready ones, by (priority, created, id); undefined when no lapsed item
 * is ready (the plain ones are the answer).
 */
export function mergeLapsed(rids: readonly number[], rows: readonly { readonly priority: number; readonly created: string; readonly id: string }[], ready: readonly LapsedReadyRow[], limit: number): number[] | undefined {
  if (ready.length === 0) return undefined;
  const all = [...rids.map((rid, n) => ({ rid, key: [rows[n]!.priority, rows[n]!.created, rows[n]!.id] as const })), ...ready];
  all.sort((a, b) => compareKey(a.key, b.key));
  return all.slice(0, limit).map((row) => row.rid);
}

function compareKey(a: readonly [number, string, string], b: readonly [number, string, string]): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0;
}
