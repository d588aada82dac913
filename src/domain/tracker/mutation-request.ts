import type { Item } from './item.js';
import type { MutationOp, Takeover } from './receipt.js';

/** Guards every mutation may carry (docs/TRACKER.md "Mutations": idempotency and guard). */
export interface MutationGuards {
  /** Refuse unless the item is still at this revision. */
  readonly expectedRevision?: number;
  /** A replay with the same key returns the first receipt and writes nothing. */
  readonly idempotencyKey?: string;
}

export interface MutationRequest extends MutationGuards {
  readonly op: MutationOp;
  /** The item id; for create the engine allocates it and passes it to apply. */
  readonly itemId?: string;
  readonly actor: string;
  /** The client software that carries the change (Receipt.client). */
  readonly client?: string;
  /** The caller's parameters, fingerprinted so a reused idempotency key is detected. */
  readonly params: unknown;
  /**
   * Picks the item under the write lock when `itemId` is not given (claim-next: the choice and
   * the change are one step, so concurrent callers never pick the same item). Runs after the
   * idempotency replay check; it may throw to refuse (e.g. nothing is ready).
   */
  readonly choose?: () => Promise<string>;
}

/** What a mutation may add to its receipt and history line besides the change itself. */
export interface ReceiptNote {
  readonly takeover?: Takeover;
}

export interface MutationContext {
  readonly now: string;
  readonly nowMs: number;
  readonly itemId: string;
  /** Adds to the receipt and history line of this change (ignored when nothing changes). */
  readonly annotate: (note: ReceiptNote) => void;
}

/** Computes the next state from the current one: an item, or null to delete it. Pure. */
export type ApplyMutation = (current: Item | undefined, context: MutationContext) => Item | null | Promise<Item | null>;
