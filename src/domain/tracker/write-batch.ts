import { StorageError } from '../errors/index.js';
import type { HistoryEntry } from './history.js';
import type { HistoryHead, HistoryLog } from './history-log.js';
import type { IndexSync } from './index-sync.js';
import type { ItemStore, StoredItem } from './item-store.js';
import type { Item } from './item.js';

/** Mutations run under one hold of the write lock at most, so other processes get their turn. */
export const MAX_BATCH = 64;

/** An item's state as the writes of the running batch left it. */
export interface StagedState {
  /** The item after the batch's last write of it (null: deleted). */
  readonly stored: StoredItem | null;
  /** The history head after the batch's last line for it. */
  readonly head: HistoryHead;
}

interface StagedItem extends StagedState {
  readonly lines: string[];
}

/**
 * The writes of one group commit (docs/TRACKER.md "Mutations"), coalesced per item: every
 * mutation of an item in the batch gets its own history line, revision and receipt, computed
 * from the state the previous one left in memory, and {@link flush} then appends all of the
 * item's lines in order with one write before it replaces the item file once with the last
 * state. The history stays write-ahead (a process killed between the two leaves lines the next
 * read rolls forward, see MutationEngine) and no caller is answered before the flush.
 */
export class WriteBatch {
  private readonly staged = new Map<string, StagedItem>();
  private readonly failed = new Map<string, unknown>();

  constructor(private readonly deps: { readonly store: ItemStore; readonly history: HistoryLog; readonly index: Pick<IndexSync, 'recordItem' | 'recordRemoval'> }) {}

  /** What this batch has staged for an item and not yet written; undefined when nothing. */
  get(itemId: string): StagedState | undefined {
    return this.staged.get(itemId);
  }

  /** Every item this batch has staged and not yet written, as its last staged state (null: deleted). */
  stagedItems(): ReadonlyMap<string, Item | null> {
    return new Map([...this.staged].map(([id, state]) => [id, state.stored?.item ?? null]));
  }

  /**
   * Stages one mutation of an item: its history line linked after the batch's previous line for
   * the item (or the file's head) and the item's next state. Refused when an earlier flush of
   * this item failed in this batch: a line linked to a state that never reached the disk would
   * break the chain.
   */
  async stage(itemId: string, entry: Omit<HistoryEntry, 'seq' | 'prev'>, next: StoredItem | null): Promise<HistoryEntry> {
    if (this.failed.has(itemId)) throw this.failed.get(itemId);
    const before = this.staged.get(itemId);
    const prepared = this.deps.history.prepare(before?.head ?? (await this.deps.history.settleTail(itemId)), entry);
    this.staged.set(itemId, { stored: next, head: prepared.head, lines: [...(before?.lines ?? []), prepared.line] });
    return prepared.entry;
  }

  /**
   * Writes what is staged: per item its history lines (one append), then its file (one atomic
   * replace, or the removal) and its index record. An item whose write fails is remembered
   * ({@link failure}) and the others are still written. A failed item leaves its files as they
   * were (docs/TRACKER.md "Mutations"): a failed append is cut back by the history log, and
   * lines whose item file could not be written are cut off again, so a write reported as failed
   * is never rolled forward later. Only when that cut fails too do the lines stay, as a
   * write-ahead record the next write completes (the error says so).
   */
  async flush(): Promise<void> {
    const items = [...this.staged];
    this.staged.clear();
    // Items are independent: their writes overlap (with PM_DURABLE=1 the fsyncs of one batch's
    // items wait on the disk together); each item's own order, lines before file, is kept.
    await Promise.all(items.map(async ([itemId, { stored, head, lines }]) => {
      try {
        await this.deps.history.appendPrepared(itemId, lines, head);
      } catch (error) {
        this.failed.set(itemId, error);
        return;
      }
      try {
        await this.commit(itemId, stored?.item ?? null, stored?.text ?? null);
      } catch (error) {
        const cut = await this.deps.history.cutBack(itemId, head);
        this.failed.set(itemId, cut ? error : rolledForwardLater(error, itemId));
      }
    }));
  }

  /**
   * Makes the item file match the history's after-state, then records it in the derived index
   * (shared by every pm process, so the next query anywhere sees it). A process killed between
   * the two leaves a file whose signature the index does not know: the next check re-reads it.
   */
  async commit(itemId: string, next: Item | null, text: string | null): Promise<void> {
    const { store, index } = this.deps;
    if (next && text !== null) {
      const sig = await store.writeText(itemId, text, next);
      if (sig) index.recordItem(next, sig);
    } else {
      await store.remove(itemId);
      index.recordRemoval(itemId);
    }
  }

  /** Why the writes of an item failed in this batch (undefined: they did not). */
  failure(itemId: string): unknown {
    return this.failed.get(itemId);
  }

  /** Whether the item has a failed write in this batch. */
  hasFailed(itemId: string): boolean {
    return this.failed.has(itemId);
  }

  /** Starts the next batch (call after {@link flush}). */
  reset(): void {
    this.staged.clear();
    this.failed.clear();
  }
}

/**
 * The lines at the end of a history the item file (at `digest`) does not reflect yet: the
 * last ones written by one batch, linked to each other, the first of them starting from the
 * file's state (at most {@link MAX_BATCH}). Empty when there is no such run (the file was changed
 * outside pm). The next write rolls them forward; `pm validate` reports them as interrupted.
 */
export function unappliedTail(entries: readonly HistoryEntry[], digest: string | null): HistoryEntry[] {
  for (let start = entries.length - 1; start >= 0 && entries.length - start <= MAX_BATCH; start--) {
    const entry = entries[start]!;
    if (start < entries.length - 1 && entry.digestAfter !== entries[start + 1]!.digestBefore) return [];
    if (entry.digestBefore === digest) return entries.slice(start);
  }
  return [];
}


/** A failed item write whose history lines could not be cut off: they stay as its write-ahead record. */
function rolledForwardLater(error: unknown, itemId: string): unknown {
  const note = `the item file of ${itemId} could not be written and its history line could not be cut back either, so the next write of ${itemId} completes this change (retry with the same idempotency key to get its receipt)`;
  return error instanceof StorageError ? error.about(note, { cutBack: false }) : error;
}
