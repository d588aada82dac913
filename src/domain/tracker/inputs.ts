import type { MutationGuards } from './mutation-engine.js';

/** Fields for a new item; everything but the title has a default from config.yaml. */
export interface CreateInput {
  readonly title: string;
  readonly type?: string;
  readonly status?: string;
  readonly priority?: number;
  readonly body?: string;
  readonly tags?: readonly string[];
  readonly parent?: string;
  readonly assignee?: string;
  readonly blockedBy?: readonly string[];
  readonly related?: readonly string[];
  readonly acceptance?: readonly string[];
  readonly files?: readonly string[];
  readonly tests?: readonly string[];
  readonly custom?: Readonly<Record<string, string | number | boolean>>;
}

/** A partial change; null clears an optional field, add/remove edit lists in place. */
export interface UpdateInput {
  readonly title?: string;
  readonly body?: string;
  readonly type?: string;
  readonly status?: string;
  readonly priority?: number;
  readonly parent?: string | null;
  readonly assignee?: string | null;
  readonly tags?: readonly string[];
  readonly addTags?: readonly string[];
  readonly removeTags?: readonly string[];
  readonly acceptance?: readonly string[];
  readonly addAcceptance?: readonly string[];
  /** 1-based indexes of acceptance criteria to mark done / not done. */
  readonly checkAcceptance?: readonly number[];
  readonly uncheckAcceptance?: readonly number[];
  readonly addFiles?: readonly string[];
  readonly removeFiles?: readonly string[];
  readonly addTests?: readonly string[];
  readonly removeTests?: readonly string[];
  /** Set custom fields; null removes one. */
  readonly custom?: Readonly<Record<string, string | number | boolean | null>>;
}

/** Options every mutation takes: who acts, plus the optional guards. */
export interface MutationOptions extends MutationGuards {
  readonly actor?: string;
  /** The client software that carries the change, recorded on the receipt beside the actor (Receipt.client). */
  readonly client?: string;
  /**
   * Refuse instead of warn: claiming an item with unfinished blockers, changing an item
   * somebody else has claimed (default: `strict` in config.yaml, else false).
   */
  readonly strict?: boolean;
}

export interface ClaimInput {
  /** Who takes the item (default: the actor). */
  readonly holder?: string;
  /** Lease length in whole minutes, 1-10080 (default: `claimLeaseMinutes` in config.yaml). */
  readonly leaseMinutes?: number;
  /**
   * Lease length in seconds, 1-604800, for leases shorter than a minute or not whole minutes
   * (docs/TRACKER.md "Claims and leases"); give this or `leaseMinutes`, not both.
   */
  readonly leaseSeconds?: number;
  /** Take it even though somebody else holds an unexpired claim. */
  readonly force?: boolean;
  /** Only renew the caller's own claim (a heartbeat): refused when somebody else holds it or nobody does. */
  readonly renew?: boolean;
}

export interface ReleaseInput {
  readonly force?: boolean;
}

export interface CloseInput {
  /** What shows the work is done (a commit, a passing test, a link). Required. */
  readonly evidence: string;
  /** 'closed' (default) or 'canceled'. */
  readonly as?: 'closed' | 'canceled';
}

export type DependencyKind = 'blockedBy' | 'blocks' | 'related';

export interface DependencyInput {
  readonly kind: DependencyKind;
  readonly target: string;
}
