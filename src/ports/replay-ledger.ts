/**
 * What has been used once already (seed 004 "MRTR, tasks, and cache behavior": continuation
 * state protected from replay; one-time semantics, where needed, enforced by the server).
 * Entries need only be remembered until they expire: after that, what they guard is refused
 * for its expiry anyway.
 */
export interface ReplayLedger {
  /** Records `token` as used until `expiresAt` (ms since the epoch); false when it was used already. */
  consume(token: string, expiresAt: number, now: number): Promise<boolean>;
}
