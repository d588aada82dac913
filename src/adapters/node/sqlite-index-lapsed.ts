import { TERMINAL_STATUSES } from '../../domain/tracker/config.js';
import { classifyReadiness, type ReadinessCategory } from '../../domain/tracker/readiness.js';
import type { Readiness, ReadinessQuery } from '../../ports/item-index-store.js';
import type { SqliteStatement } from './sqlite-driver.js';
import { filterSql } from './sqlite-index-sql.js';

type Prepare = (sql: string) => SqliteStatement;
type Counts = { -readonly [K in keyof Readiness['counts']]: number };

/** One item whose claim has lapsed, as next's query needs it. */
export interface LapsedRow {
  readonly rid: number;
  readonly key: readonly [number, string, string];
  /** Its category by the readiness rule (src/domain/tracker/readiness.ts). */
  readonly category: ReadinessCategory;
  /** For an item with the asked status: the category the plain SQL counts gave it (the assignment holds it back even though it lapsed). */
  readonly counted?: ReadinessCategory;
}

/** The SQL condition (alias i) of a lapsed claim; its one parameter is nowIso. */
export const LAPSED_SQL = '(i.claim_holder IS NOT NULL AND i.claim_expires <= ?)';

const TERMINAL = [...TERMINAL_STATUSES];

/**
 * The candidates of next whose claim has lapsed (the port's ReadinessQuery): read one by one
 * through items_claims — there are as few as claims — and classified with the domain's rule,
 * since an assignment that lapsed with its holder's claim holds nothing back, which the kept
 * counts (keyed by assignee) cannot tell.
 */
export function lapsedCandidates(stmt: Prepare, query: ReadinessQuery): LapsedRow[] {
  const where = filterSql({ excludeStatuses: TERMINAL, ...(query.types?.length ? { types: query.types } : {}), ...(query.tagsAll?.length ? { tagsAll: query.tagsAll } : {}) });
  const rows = stmt(`SELECT i.rid, i.status, i.assignee, i.claim_holder, i.claim_expires, i.blocked, i.busy, i.priority, i.created, i.id FROM items i WHERE ${LAPSED_SQL} AND ${where.sql}`)
    .raw().all(query.nowIso, ...where.params) as [number, string, string | null, string, string, number, number, number, string, string][];
  return rows.map(([rid, status, assignee, holder, expires, blocked, busy, priority, created, id]) => {
    const item = { status, claimHolder: holder, claimExpiresAt: expires, ...(assignee !== null ? { assignee } : {}) };
    const marks = { blocked: blocked === 1, busy: busy === 1 };
    const category = classifyReadiness(item, marks, query.assignee, query.nowIso);
    if (status !== query.status) return { rid, key: [priority, created, id] as const, category };
    // The plain counts know no lapse: a lapsed claim counts as no claim, the assignment as it is.
    const counted = classifyReadiness({ status, ...(assignee !== null ? { assignee } : {}) }, marks, query.assignee, query.nowIso);
    return { rid, key: [priority, created, id] as const, category, counted };
  });
}

/** Moves the lapsed candidates from the categories the plain counts gave them (or none) to their own. */
export function correctCounts(counts: Counts, lapsed: readonly LapsedRow[]): Counts {
  const out = { ...counts };
  const field = { blocked: 'blocked', claimed: 'claimed', container: 'containers', ready: 'ready' } as const;
  for (const row of lapsed) {
    if (row.counted) out[field[row.counted]]--;
    else out.open++;
    out[field[row.category]]++;
  }
  return out;
}

/**
 * The rowids of the first `limit` ready items: the plain ready ones (in next's order already)
 * merged with the lapsed ready ones, by (priority, created, id); undefined when no lapsed item
 * is ready (the plain ones are the answer).
 */
export function mergeLapsed(rids: readonly number[], rows: readonly { readonly priority: number; readonly created: string; readonly id: string }[], lapsed: readonly LapsedRow[], limit: number): number[] | undefined {
  const ready = lapsed.filter((row) => row.category === 'ready');
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
