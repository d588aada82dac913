import type { ItemIndexStore, ReadinessQuery } from '../../ports/item-index-store.js';
import { toSummary, type IndexEntry, type ItemSummary } from './index-entry.js';
import { describeLapse, leaseState } from './readiness.js';

export interface NextQuery {
  /**
   * Who is asking: items claimed by or assigned to somebody else are skipped (readiness.ts).
   * The tracker fills in the actor when absent, so every entry point applies the same rule.
   */
  readonly assignee?: string;
  readonly type?: readonly string[];
  readonly tag?: readonly string[];
  /** Only items assigned to `assignee` (`pm next --mine`), not unassigned ones too. */
  readonly assignedOnly?: boolean;
  /** How many runners-up to return beside the pick (default 3). */
  readonly alternatives?: number;
}

export interface NextResult {
  readonly item: ItemSummary | null;
  readonly rationale: string;
  readonly alternatives: ItemSummary[];
  readonly counts: { readonly open: number; readonly ready: number; readonly blocked: number; readonly claimed: number; readonly containers: number };
}

/**
 * The single best ready item: status open or its claim lapsed (readiness.ts), every blocker
 * closed or canceled, not claimed by anyone else (or the claim expired), not assigned to
 * somebody else, and not a container with open children. Among those: highest priority (0 first), then oldest, then id. The index sorts the
 * open items into those categories (the ReadinessQuery of the ItemIndexStore port spells the
 * rules out) and returns the first ready ones in that order.
 */
export function runNextQuery(index: ItemIndexStore, query: NextQuery, nowIso: string): NextResult {
  const keep = (query.alternatives ?? 3) + 1;
  const { counts, ready } = readinessOf(index, query, nowIso, keep);
  const best = ready.slice(0, keep);
  const pick = best[0];
  return {
    item: pick ? toSummary(pick) : null,
    rationale: pick ? explainPick(pick, counts, best, nowIso) : explainNone(counts),
    alternatives: best.slice(1).map(toSummary),
    counts: { ...counts },
  };
}

/** The index's readiness query for a caller and its filters (next, claim-next and ready ask alike). */
export function readinessRequest(query: Pick<NextQuery, 'assignee' | 'type' | 'tag'>, nowIso: string, limit: number): ReadinessQuery {
  return {
    status: 'open',
    nowIso,
    ...(query.assignee !== undefined ? { assignee: query.assignee } : {}),
    ...(query.type?.length ? { types: query.type } : {}),
    ...(query.tag?.length ? { tagsAll: query.tag } : {}),
    limit,
  };
}

/** The first `keep` ready items for the query and the counts, as next and claim-next read them from the index. */
export function readinessOf(index: ItemIndexStore, query: NextQuery, nowIso: string, keep: number): { counts: NextResult['counts']; ready: readonly IndexEntry[] } {
  const mine = query.assignedOnly === true && query.assignee !== undefined;
  // Only one's own items: every ready item is asked for and the others dropped here, so the index keeps one readiness rule.
  const { counts: all, ready: readyAll } = index.readiness(readinessRequest(query, nowIso, mine ? Math.max(keep, index.size()) : keep));
  const ready = mine ? readyAll.filter((entry) => entry.assignee === query.assignee) : readyAll;
  return { counts: mine ? { ...all, ready: ready.length } : all, ready };
}

/** Why the pick is ready, with the lapse of a claim it takes over ("claim by bob expired 12 min ago"). */
export function explainPick(pick: IndexEntry, counts: NextResult['counts'], best: readonly IndexEntry[], nowIso: string): string {
  const samePriority = best.filter((e) => e.priority === pick.priority).length;
  const lease = leaseState(pick, nowIso);
  const state = lease.state === 'expired' ? describeLapse(lease.holder, lease.expiresAt, Date.parse(nowIso)) : 'open, unclaimed';
  const parts = [
    `${pick.id} is ready: ${state}${pick.blockedBy.length ? `, all ${pick.blockedBy.length} blocker(s) done` : ', no blockers'}`,
    `priority P${pick.priority} is the highest among ${counts.ready} ready item(s)`,
  ];
  if (samePriority > 1) parts.push(`oldest of the P${pick.priority} items (created ${pick.created})`);
  if (counts.blocked + counts.claimed + counts.containers > 0) {
    parts.push(`skipped ${counts.blocked} blocked, ${counts.claimed} claimed or assigned elsewhere, ${counts.containers} with open children`);
  }
  return `${parts.join('; ')}.`;
}

export function explainNone(counts: NextResult['counts']): string {
  if (counts.open === 0) return 'Nothing is open and no claim has expired: every unfinished item is in progress under a live claim, or there is none (create an item or reopen one).';
  return `No open item is ready: ${counts.blocked} blocked by unfinished work, ${counts.claimed} claimed or assigned elsewhere, ${counts.containers} waiting on open children.`;
}
