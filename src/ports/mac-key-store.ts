/** One secret key for message authentication codes. */
export interface MacKey {
  /** A short, stable name of the key (carried in what it seals, so the verifier picks the key). */
  readonly id: string;
  readonly secret: Uint8Array;
  /** When it was created (ms since the epoch). */
  readonly createdAt: number;
  /** When a newer key replaced it (ms since the epoch); absent for the current key. */
  readonly retiredAt?: number;
}

/**
 * The keys that seal MRTR continuation state (seed 004 "MRTR, tasks, and cache behavior":
 * `requestState` is HMAC-sealed): the current key seals, and keys it replaced still verify
 * until their state can no longer be alive. Kept where no client can read it (the node adapter:
 * the tracker's git-ignored runtime area, mode 0600).
 */
export interface MacKeyStore {
  /** The current key, created on first use. */
  current(): Promise<MacKey>;
  /** The current key and every retired one still on record, current first. */
  keys(): Promise<readonly MacKey[]>;
  /** Makes a fresh key current; the previous one is kept, marked retired `now`, and keys retired before `dropRetiredBefore` are forgotten. */
  rotate(now: number, dropRetiredBefore: number): Promise<MacKey>;
}
