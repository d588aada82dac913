import type { Clock } from '../../ports/clock.js';
import type { PmMcpChange, PmMcpChangeEmitter, PmMcpChangeSource } from '../mcp/subscriptions/change-source.js';
import type { LiveClaim } from '../tracker/tracker-queries.js';
import { PM_MCP_CLAIMS_URI, PM_MCP_CONTEXT_URI, PM_MCP_ITEMS_URI, pmMcpItemUri } from './tracker-change-source.js';

/**
 * Lease expiry on listen streams (docs/MCP.md "Subscriptions"; docs/TRACKER.md "Claims and
 * leases"): a lease that runs out changes what `pm://claims`, `pm://context` and the item read
 * as, yet writes no file, so the file watch never sees it. This source wraps the tracker's item
 * source (the file watch, or the file watch merged with other instances' announcements), passes
 * its changes through, and adds the expiries:
 *
 * - it reads the claims of unfinished items, live and lapsed (the tracker's query over the
 *   index), when it starts and again after every batch of item changes — a claim renewed,
 *   released, closed or taken over moves or cancels the timer;
 * - it arms one timer through the Clock port for the earliest live expiry; when that passes it
 *   reads again (so a renewal not yet reported is seen first), and every claim that lapsed since
 *   the last read is told as `resourceUpdated` for `pm://items/<id>` (version
 *   `lease-expired:<holder>:<expiresAt>`, distinct from every file version, so no dedupe by
 *   version swallows it), `pm://claims` and `pm://context`; then it re-reads and re-arms.
 *
 * It runs only while a listen stream is open (as every source) and holds one timer at most.
 * Expiries are never published on the cross-instance bus: each instance's own source sees the
 * same files and tells its own streams, so a stream hears an expiry once.
 */

/** The version an expiry names for an item: no file signature has this form. */
export function pmLeaseExpiredVersion(claim: Pick<LiveClaim, 'holder' | 'expiresAt'>): string {
  return `lease-expired:${claim.holder}:${claim.expiresAt}`;
}

/** Reads the claims on unfinished items, live and lapsed (`Tracker.claimLeases`). */
export type PmLiveClaimsReader = () => Promise<readonly LiveClaim[]>;

/** setTimeout's longest delay; a longer wait re-arms when it ends. */
const MAX_TIMER_MS = 2_147_483_647;

/** A {@link PmMcpChangeSource} that adds lease expiries to the tracker's item changes. */
export class PmMcpLeaseExpirySource implements PmMcpChangeSource {
  /**
   * @param items the tracker's item source; its batches pass through and trigger a re-read
   * @param readClaims the claims, live and lapsed (`() => tracker.claimLeases()`)
   * @param clock the Clock port the timer runs on
   */
  constructor(
    private readonly items: PmMcpChangeSource,
    private readonly readClaims: PmLiveClaimsReader,
    private readonly clock: Clock,
  ) {}

  coversUri(uri: string): boolean {
    return this.items.coversUri(uri);
  }

  start(emit: PmMcpChangeEmitter): () => void {
    const timer = new LeaseTimer(this.readClaims, this.clock, emit);
    const stopItems = this.items.start((changes) => {
      emit(changes);
      if (changes.some(touchesItems)) timer.reread();
    });
    timer.reread();
    return () => {
      timer.stop();
      stopItems();
    };
  }
}

function touchesItems(change: PmMcpChange): boolean {
  return change.kind === 'resourcesListChanged' || (change.kind === 'resourceUpdated' && (change.uri.startsWith(`${PM_MCP_ITEMS_URI}/`) || change.uri === PM_MCP_CLAIMS_URI));
}

/** What was last read, one armed timer, and one sequential re-read loop. */
class LeaseTimer {
  /** Lapsed claims already known (id@expiresAt): told, or lapsed before the stream opened. */
  private lapsed: Set<string> | undefined;
  private wake: AbortController | undefined;
  private reading = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly readClaims: PmLiveClaimsReader,
    private readonly clock: Clock,
    private readonly emit: PmMcpChangeEmitter,
  ) {}

  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  /** Reads the claims again (coalesced: one read at a time, one more after it when asked meanwhile). */
  reread(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.readLoop();
  }

  private async readLoop(): Promise<void> {
    let claims: readonly LiveClaim[] | undefined;
    try {
      do {
        this.again = false;
        // An index that cannot be read keeps the timer as it is; the next item change reads again.
        claims = await this.readClaims().catch(() => claims);
      } while (this.again && !this.stopped);
    } finally {
      this.reading = false;
    }
    if (claims && !this.stopped) this.settle(claims);
  }

  /**
   * Tells the claims that lapsed since the last read (none on the first: what lapsed before the
   * stream opened is old news), then arms the timer for the earliest live one.
   */
  private settle(claims: readonly LiveClaim[]): void {
    const now = this.clock.now();
    const lapsed = claims.filter((claim) => Date.parse(claim.expiresAt) <= now);
    const fresh = this.lapsed ? lapsed.filter((claim) => !this.lapsed!.has(keyOf(claim))) : [];
    this.lapsed = new Set(lapsed.map(keyOf)); // only what is still there: the set stays as small as the tracker's lapsed claims
    if (fresh.length) {
      this.emit([
        ...fresh.map((claim): PmMcpChange => ({ kind: 'resourceUpdated', uri: pmMcpItemUri(claim.id), version: pmLeaseExpiredVersion(claim) })),
        { kind: 'resourceUpdated', uri: PM_MCP_CLAIMS_URI },
        { kind: 'resourceUpdated', uri: PM_MCP_CONTEXT_URI },
      ]);
    }
    const live = claims.filter((claim) => Date.parse(claim.expiresAt) > now);
    this.arm(live.length ? Math.min(...live.map((claim) => Date.parse(claim.expiresAt))) - now : undefined);
  }

  private disarm(): void {
    this.wake?.abort();
    this.wake = undefined;
  }

  /** One timer for `ms` from now (none when undefined: idle); when it ends the claims are read again, so a renewal is seen before anything is told. */
  private arm(ms: number | undefined): void {
    this.disarm();
    if (ms === undefined) return;
    const wake = new AbortController();
    this.wake = wake;
    void this.clock.sleep(Math.min(MAX_TIMER_MS, Math.max(1, ms)), wake.signal).then(() => {
      if (wake.signal.aborted || this.stopped) return;
      this.wake = undefined;
      this.reread();
    });
  }
}

function keyOf(claim: LiveClaim): string {
  return `${claim.id}@${claim.holder}@${claim.expiresAt}`;
}
