import { TERMINAL_STATUSES } from './config.js';
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
 * Picks claim-next's item under the write lock: brings the index up to date with what changed
 * outside pm, takes the ready items in next's order, and re-checks each against the state the
 * running batch left (docs/TRACKER.md "Many writes at once": claim-next chooses within the
 * batch, without writing its earlier changes first) or else its item file — the file is the
 * truth — with the readiness rule, so the pick is still ready when it is claimed in the same
 * hold of the lock. Reads a bounded number of files, never all.
 *
 * The index does not hold the batch's earlier changes yet, so the choice is conservative about
 * them: an item the batch changed (claimed, closed, updated) is passed over, as is one whose
 * blocker the batch left unfinished or that the batch gave an unfinished child; a blocker the
 * batch closed still counts as open until the batch is written. The candidates read go beyond
 * the usual bound by the number of staged items, so a batch of claim-nexts does not run out.
 * The counts and rationale of a pick are the index's, from before the batch; when nothing is
 * ready that way, the batch is written first and the choice made again from the files.
 */
export class NextChooser {
  rationale: string | undefined;
  counts: NextResult['counts'] | undefined;

  constructor(private readonly parts: TrackerParts, private readonly query: NextQuery) {}

  async choose(): Promise<string> {
    await this.parts.refreshOutsideBatch();
    const staged = this.parts.engine.stagedItems();
    try {
      return await this.chooseFrom(staged);
    } catch (error) {
      // Nothing ready with changes staged: the batch is written and the choice made again, so
      // "nothing ready" and its counts are always exact.
      if (!(error instanceof NothingReady) || staged.size === 0) throw error;
      await this.parts.refreshInMutation();
      return this.chooseFrom(new Map());
    }
  }

  private async chooseFrom(staged: ReadonlyMap<string, Item | null>): Promise<string> {
    const { index, store, clock } = this.parts;
    const nowIso = new Date(clock.now()).toISOString();
    const { counts, ready } = readinessOf(index, this.query, nowIso, CANDIDATES + staged.size);
    this.counts = counts;
    for (const entry of ready) {
      if (staged.has(entry.id) || this.heldBackByBatch(entry.id, entry.blockedBy, staged)) continue;
      const item = await store.readItem(entry.id).catch(() => undefined);
      if (item && this.stillReady(item, nowIso) && !this.heldBackByBatch(item.id, item.blockedBy, staged)) {
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

  /** A blocker the batch left unfinished (or deleted), or a child the batch left unfinished. */
  private heldBackByBatch(id: string, blockedBy: readonly string[], staged: ReadonlyMap<string, Item | null>): boolean {
    for (const blocker of blockedBy) {
      if (!staged.has(blocker)) continue;
      const state = staged.get(blocker);
      if (!state || !TERMINAL_STATUSES.has(state.status)) return true;
    }
    for (const other of staged.values()) if (other && other.parent === id && !TERMINAL_STATUSES.has(other.status)) return true;
    return false;
  }

  private stillReady(item: Item, nowIso: string): boolean {
    const fields = readinessFieldsOf(item);
    // Blockers and children come from the index just refreshed; the item's own fields from its file.
    return isReadinessCandidate(fields, 'open', nowIso) && classifyReadiness(fields, { blocked: false, busy: false }, this.query.assignee, nowIso) === 'ready';
  }
}
