/** Operations recorded in history. */
export type MutationOp =
  | 'create' | 'update' | 'claim' | 'release' | 'close' | 'reopen' | 'comment'
  | 'deps' | 'delete' | 'external_edit' | 'merge' | 'rename';

/**
 * A claim taken from a holder whose lease had expired (docs/TRACKER.md "Claims and leases"):
 * recorded on the claim's receipt and history line, so `pm history` shows whose work was taken.
 */
export interface Takeover {
  readonly from: string;
  readonly expiredAt: string;
}

/**
 * The immutable record of one mutation, returned to the caller and written (with its patch
 * and chain digest) as one history line. Digests are `sha256:<hex>` of the item file bytes.
 */
export interface Receipt {
  readonly receiptId: string;
  readonly op: MutationOp;
  readonly itemId: string;
  /** Who made the change: a person or an authenticated principal (docs/MCP.md "Actor"). */
  readonly actor: string;
  /**
   * The client software that carried the change, `name/version` (an MCP client's
   * `clientInfo`), recorded beside the actor rather than as it: clients report their own or a
   * configured server name there, not who is working. Absent for the CLI and on older lines.
   */
  readonly client?: string;
  readonly at: string;
  readonly seq: number;
  readonly revisionBefore: number | null;
  readonly revisionAfter: number | null;
  readonly digestBefore: string | null;
  readonly digestAfter: string | null;
  readonly idempotencyKey?: string;
  /** Only on a claim that took over an expired lease of somebody else. */
  readonly takeover?: Takeover;
}

/** What every mutation returns: the receipt, the item as written, and whether it was a replay. */
export interface MutationResult<T = unknown> {
  readonly receipt: Receipt;
  readonly item: T;
  /** True when an idempotency key matched an earlier request and nothing was written. */
  readonly replayed: boolean;
  /** False when the request asked for the state the item already had (nothing written). */
  readonly changed: boolean;
  /** What the caller should know about a change that went through (absent when nothing). */
  readonly warnings?: readonly string[];
}
