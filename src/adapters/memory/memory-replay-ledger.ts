import type { ReplayLedger } from '../../ports/replay-ledger.js';

/**
 * Used tokens in a Map, forgotten once expired: one-time state within one process (embedding
 * hosts, tests). A lookup compares the expiry itself, so what the sweep has not dropped yet is
 * still judged right. The Map keeps insertion order, which is expiry order when every token
 * lives equally long (as sealed state does), so each consume drops expired tokens from the
 * oldest end and stops at the first live one: the map holds only what is alive, at O(1)
 * amortized cost per consume.
 */
export class MemoryReplayLedger implements ReplayLedger {
  private readonly used = new Map<string, number>();

  async consume(token: string, expiresAt: number, now: number): Promise<boolean> {
    for (const [known, until] of this.used) {
      if (until > now) break;
      this.used.delete(known);
    }
    const until = this.used.get(token);
    if (until !== undefined && until > now) return false;
    this.used.delete(token);
    this.used.set(token, expiresAt);
    return true;
  }

  /** Tokens still remembered (tests). */
  get size(): number {
    return this.used.size;
  }
}
