import type { ReplayLedger } from '../../ports/replay-ledger.js';

/**
 * Used tokens in a Map, forgotten once expired: one-time state within one process (pm-mcp, one
 * pm-mcp-http instance). Every consume first drops what has expired, so the map holds only what
 * is still alive: its size is bounded by the rate of one-time states times their lifetime.
 */
export class MemoryReplayLedger implements ReplayLedger {
  private readonly used = new Map<string, number>();

  async consume(token: string, expiresAt: number, now: number): Promise<boolean> {
    for (const [known, until] of this.used) if (until <= now) this.used.delete(known);
    if (this.used.has(token)) return false;
    this.used.set(token, expiresAt);
    return true;
  }

  /** Tokens still remembered (tests). */
  get size(): number {
    return this.used.size;
  }
}
