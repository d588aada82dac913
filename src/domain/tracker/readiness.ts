import type { ItemIndexStore } from '../../ports/item-index-store.js';
import { TERMINAL_STATUSES } from './config.js';
import type { ItemSummary } from './index-entry.js';

/**
 * The one readiness rule (docs/TRACKER.md "Claims and leases"): which items next and
 * claim-next may offer to a caller, and why the others are held back. The index adapters
 * implement the ItemIndexStore port's ReadinessQuery with exactly these functions (the memory
 * adapter calls them per item; the SQLite adapter selects with the same conditions in SQL and
 * classifies the few lapsed claims here), and claim-next re-checks its pick against the item
 * file with {@link classifyReadiness} before it claims it.
 */

/** The claim fields readiness looks at (an index entry's or an item's). */
export interface LeaseFields {
  readonly claimHolder?: string;
  readonly claimExpiresAt?: string;
}

/** A claim's lease at a moment: live until it expires, then expired (shown so, and offered to others). */
export type LeaseState =
  | { readonly state: 'none' }
  | { readonly state: 'live'; readonly holder: string; readonly expiresAt: string }
  | { readonly state: 'expired'; readonly holder: string; readonly expiresAt: string };

export function leaseState(fields: LeaseFields, nowIso: string): LeaseState {
  if (fields.claimHolder === undefined) return { state: 'none' };
  const expiresAt = fields.claimExpiresAt ?? '';
  return { state: expiresAt > nowIso ? 'live' : 'expired', holder: fields.claimHolder, expiresAt };
}

/** The lease fields of an item's claim, for {@link leaseState}. */
export function leaseOf(claim: { readonly holder: string; readonly expiresAt: string } | undefined): LeaseFields {
  return claim ? { claimHolder: claim.holder, claimExpiresAt: claim.expiresAt } : {};
}

/** Whether an item's claim has lapsed: a holder whose lease has run out (at or before `nowIso`). */
export function isLapsed(fields: LeaseFields, nowIso: string): boolean {
  return fields.claimHolder !== undefined && (fields.claimExpiresAt ?? '') <= nowIso;
}

/** The fields the rule reads of an item (index entry or item file). */
export interface ReadinessFields extends LeaseFields {
  readonly status: string;
  readonly assignee?: string;
}

/**
 * Whether next looks at an item at all: its status is the asked one (open), or it is not
 * closed or canceled and its claim has lapsed — the work of a holder who stopped renewing is
 * offered again instead of staying hidden in in_progress.
 */
export function isReadinessCandidate(item: ReadinessFields, status: string, nowIso: string): boolean {
  return item.status === status || (!TERMINAL_STATUSES.has(item.status) && isLapsed(item, nowIso));
}

/** The readiness fields of an item file (its claim as lease fields). */
export function readinessFieldsOf(item: { readonly status: string; readonly assignee?: string; readonly claim?: { readonly holder: string; readonly expiresAt: string } }): ReadinessFields {
  return { status: item.status, ...(item.assignee !== undefined ? { assignee: item.assignee } : {}), ...leaseOf(item.claim) };
}

export type ReadinessCategory = 'blocked' | 'claimed' | 'container' | 'ready';

/**
 * The category of a candidate for `caller`, first match wins: blocked (an unfinished or missing
 * blocker: `marks.blocked`); claimed (a live claim of somebody else, or assigned elsewhere:
 * the item is assigned to somebody other than the caller — an assignment that only came with
 * a lapsed claim of that same person does not hold the item back); container (a child is
 * unfinished: `marks.busy`); else ready. With no caller, assignments hold nothing back.
 */
export function classifyReadiness(item: ReadinessFields, marks: { readonly blocked: boolean; readonly busy: boolean }, caller: string | undefined, nowIso: string): ReadinessCategory {
  if (marks.blocked) return 'blocked';
  const lease = leaseState(item, nowIso);
  if (lease.state === 'live' && lease.holder !== caller) return 'claimed';
  if (isAssignedElsewhere(item, caller, nowIso)) return 'claimed';
  if (marks.busy) return 'container';
  return 'ready';
}

/** Assigned to somebody other than `caller`, not counting an assignment that lapsed with its holder's claim. */
export function isAssignedElsewhere(item: ReadinessFields, caller: string | undefined, nowIso: string): boolean {
  if (caller === undefined || item.assignee === undefined || item.assignee === caller) return false;
  return !(isLapsed(item, nowIso) && item.claimHolder === item.assignee);
}

/** "claim by bob expired 12 min ago": why a lapsed item is offered (minutes, hours or days). */
export function describeLapse(holder: string, expiresAt: string, nowMs: number): string {
  return `claim by ${holder} expired ${ago(nowMs - Date.parse(expiresAt))}`;
}

function ago(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 120) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/**
 * The summaries with `claimExpired: true` on those whose claim has lapsed, so every listing
 * shows an expired claim as expired (list, next, search, context; the CLI says "claim by bob
 * expired"). Looks up only the summaries that carry a claim.
 */
export function markLapsed<T extends ItemSummary>(index: Pick<ItemIndexStore, 'getMany'>, summaries: readonly T[], nowIso: string): T[] {
  const claimed = summaries.filter((s) => s.claimHolder !== undefined).map((s) => s.id);
  if (claimed.length === 0) return [...summaries];
  const lapsed = new Set(index.getMany(claimed).filter((entry) => isLapsed(entry, nowIso)).map((entry) => entry.id));
  return summaries.map((s) => (lapsed.has(s.id) ? { ...s, claimExpired: true } : s));
}
