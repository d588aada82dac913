import type { Item } from './item.js';
import { readinessOf, explainPick, explainNone, type NextQuery, type NextResult } from './next-query.js';
import { classifyReadiness, isReadinessCandidate, readinessFieldsOf } from './readiness.js';
import type { Receipt } from './receipt.js';
import type { TrackerParts } from './tracker-parts.js';

/** How many ready items claim-next re-checks against their files before it reports nothing ready. */
const CANDIDATES = 16;

/** What claim-next answers (docs/TRACKER.md "Claims and leases"): the claimed item and why, or nothing ready with the counts. */
export interface ClaimNextResult {
  /** The item as claimed (null: nothing was ready for the caller). */
  readonly item: Item | null;
  readonly receipt?: Receipt;
  readonly replayed?: boolean;
  readonly warnings?: readonly string[];
  readonly rationale: string;
  readonly counts: NextResult['counts'];
}

/** Thrown by {@link NextChooser.choose} under the write lock: no candidate is ready; nothing is written. */
export class NothingReady extends Error {
  constructor(readonly counts: NextResult['counts']) {
    super('nothing ready');
  }
}

/**
 * Picks claim-next's item under the write lock: brings the index up to date (the batch's
 * earlier writes first), takes the ready items in next's order, and re-checks each against its
 * item file — the file is the truth — with the readiness rule, so the pick is still ready when
 * it is claimed in the same hold of the lock. Reads a bounded number of files, never all.
 */
export class NextChooser {
  rationale: string | undefined;
  counts: NextResult['counts'] | undefined;

  constructor(private readonly parts: TrackerParts, private readonly query: NextQuery) {}

  async choose(): Promise<string> {
    const { index, store, clock } = this.parts;
    await this.parts.refreshInMutation();
    const nowIso = new Date(clock.now()).toISOString();
    const { counts, ready } = readinessOf(index, this.query, nowIso, CANDIDATES);
    this.counts = counts;
    for (const entry of ready) {
      const item = await store.readItem(entry.id).catch(() => undefined);
      if (item && this.stillReady(item, nowIso)) {
        this.rationale = explainPick(entry, counts, ready, nowIso);
        return entry.id;
      }
    }
    throw new NothingReady(counts);
  }

  /** The answer for nothing ready: the rule's counts and what holds the items back. */
  static nothing(counts: NextResult['counts']): ClaimNextResult {
    return { item: null, rationale: explainNone(counts), counts: { ...counts } };
  }

  private stillReady(item: Item, nowIso: string): boolean {
    const fields = readinessFieldsOf(item);
    // Blockers and children come from the index just refreshed; the item's own fields from its file.
    return isReadinessCandidate(fields, 'open', nowIso) && classifyReadiness(fields, { blocked: false, busy: false }, this.query.assignee, nowIso) === 'ready';
  }
}
