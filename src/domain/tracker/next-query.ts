import { TERMINAL_STATUSES } from './config.js';
import { toSummary, type IndexEntry, type ItemSummary } from './index-entry.js';
import { insertBounded } from './list-query.js';

export interface NextQuery {
  /** Who is asking: items assigned to somebody else are skipped. */
  readonly assignee?: string;
  readonly type?: readonly string[];
  readonly tag?: readonly string[];
  /** How many runners-up to return beside the pick (default 3). */
  readonly alternatives?: number;
}

export interface NextResult {
  readonly item: ItemSummary | null;
  readonly rationale: string;
  readonly alternatives: ItemSummary[];
  readonly counts: { readonly open: number; readonly ready: number; readonly blocked: number; readonly claimed: number; readonly containers: number };
}

const rank = (a: IndexEntry, b: IndexEntry): number =>
  a.priority - b.priority || (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1);

/**
 * The single best ready item: status open, every blocker closed or canceled, not claimed by
 * anyone (or the claim expired), not assigned to somebody else, and not a container with open
 * children. Among those: highest priority (0 first), then oldest, then id.
 */
export function runNextQuery(entries: Iterable<IndexEntry>, lookup: (id: string) => IndexEntry | undefined, query: NextQuery, nowIso: string): NextResult {
  const all = [...entries];
  const openChildren = new Map<string, number>();
  for (const e of all) if (e.parent && !TERMINAL_STATUSES.has(e.status)) openChildren.set(e.parent, (openChildren.get(e.parent) ?? 0) + 1);
  const counts = { open: 0, ready: 0, blocked: 0, claimed: 0, containers: 0 };
  const best: IndexEntry[] = [];
  const keep = (query.alternatives ?? 3) + 1;
  for (const e of all) {
    if (e.status !== 'open') continue;
    if (query.type?.length && !query.type.includes(e.type)) continue;
    if (query.tag?.length && !query.tag.every((t) => e.tags.includes(t))) continue;
    counts.open++;
    if (e.blockedBy.some((id) => !TERMINAL_STATUSES.has(lookup(id)?.status ?? 'open'))) { counts.blocked++; continue; }
    if (e.claimHolder && (e.claimExpiresAt ?? '') > nowIso && e.claimHolder !== query.assignee) { counts.claimed++; continue; }
    if (e.assignee && query.assignee !== undefined && e.assignee !== query.assignee) { counts.claimed++; continue; }
    if (openChildren.has(e.id)) { counts.containers++; continue; }
    counts.ready++;
    insertBounded(best, e, keep, rank);
  }
  const pick = best[0];
  return {
    item: pick ? toSummary(pick) : null,
    rationale: pick ? explain(pick, counts, best) : explainNone(counts),
    alternatives: best.slice(1).map(toSummary),
    counts,
  };
}

function explain(pick: IndexEntry, counts: NextResult['counts'], best: IndexEntry[]): string {
  const samePriority = best.filter((e) => e.priority === pick.priority).length;
  const parts = [
    `${pick.id} is ready: open, unclaimed${pick.blockedBy.length ? `, all ${pick.blockedBy.length} blocker(s) done` : ', no blockers'}`,
    `priority P${pick.priority} is the highest among ${counts.ready} ready item(s)`,
  ];
  if (samePriority > 1) parts.push(`oldest of the P${pick.priority} items (created ${pick.created})`);
  if (counts.blocked + counts.claimed + counts.containers > 0) {
    parts.push(`skipped ${counts.blocked} blocked, ${counts.claimed} claimed or assigned elsewhere, ${counts.containers} with open children`);
  }
  return `${parts.join('; ')}.`;
}

function explainNone(counts: NextResult['counts']): string {
  if (counts.open === 0) return 'Nothing is open: create an item or reopen one.';
  return `No open item is ready: ${counts.blocked} blocked by unfinished work, ${counts.claimed} claimed or assigned elsewhere, ${counts.containers} waiting on open children.`;
}
