import type { Clock } from '../../../ports/clock.js';
import type { PmMcpServerDescriptor } from '../server-descriptor.js';
import type { JsonRpcId } from '../wire-types.js';
import type { PmMcpChange, PmMcpChangeSource } from './change-source.js';
import { Subscription, type PmMcpSubscription, type PmMcpSubscriptionSend } from './subscription.js';

export type { PmMcpSubscription, PmMcpSubscriptionSend } from './subscription.js';
import { acceptMcpSubscriptionFilter, mcpSubscriptionSupportOf, type McpSubscriptionFilter, type McpSubscriptionSupport } from './subscription-filter.js';

/**
 * The subscription registry behind `subscriptions/listen` (public SDK; seed 004 "Transport
 * behavior"; docs/ARCHITECTURE.md "How a request flows": change notifications come only from
 * the subscription registry on a listen stream; 2026-07-28 `basic/patterns/subscriptions`).
 *
 * - `add` sends `notifications/subscriptions/acknowledged` with the accepted filter first, so
 *   nothing is ever sent for a subscription before its acknowledgement.
 * - Every notification carries `_meta["io.modelcontextprotocol/subscriptionId"]` = the listen
 *   request's id, same JSON type.
 * - A listener only hears what it asked for and what the server advertises:
 *   `notifications/{tools,prompts,resources}/list_changed` for the matching filter flag,
 *   `notifications/resources/updated {uri}` for a subscribed URI or a sub-resource of one
 *   (`pm://items` covers `pm://items/<id>`).
 * - Bursts are coalesced: changes are held until the stream has been quiet for `debounceMs`
 *   (at most `maxDelayMs` after the first change), through the Clock port, then each listener
 *   gets at most one of each list_changed and one `updated` per URI. The per-subscription queue
 *   is bounded: beyond `maxPendingUris` sub-resource URIs, further ones collapse into one
 *   `updated` for the subscribed parent URI (re-read it); exact URIs are bounded by the filter.
 * - The change sources run only while at least one subscription exists ("frees everything").
 */

/** Tuning of {@link PmMcpSubscriptionRegistry}. */
export interface PmMcpSubscriptionRegistryOptions {
  /** Quiet time that ends a burst (default 50 ms). */
  readonly debounceMs?: number;
  /** Longest a change waits under continuous churn (default 1000 ms). */
  readonly maxDelayMs?: number;
  /** Distinct sub-resource URIs held per subscription per burst before collapsing into the parent (default 256). */
  readonly maxPendingUris?: number;
}

function nonNegativeInteger(value: number | undefined, fallback: number, name: string): number {
  const out = value ?? fallback;
  if (!Number.isSafeInteger(out) || out < 0) throw new RangeError(`${name} must be an integer >= 0`);
  return out;
}

/** Registry of open listen streams; turns change batches into filtered, tagged, coalesced notifications. */
export class PmMcpSubscriptionRegistry {
  /** What this server acknowledges (derived from its advertised capabilities and the sources). */
  readonly support: McpSubscriptionSupport;
  private readonly subscriptions = new Set<Subscription>();
  private readonly debounceMs: number;
  private readonly maxDelayMs: number;
  private readonly maxPendingUris: number;
  private stops: (() => void)[] | undefined;
  /** Bumped whenever the sources start or stop, so a stopped source's late batch is dropped. */
  private sourceEpoch = 0;
  /** Bumped whenever pending changes are delivered or dropped, so a stale burst timer does nothing. */
  private burstEpoch = 0;
  private burstOpen = false;
  private burstStartedAt = 0;
  private lastChangeAt = 0;
  private closed = false;

  constructor(
    private readonly server: Pick<PmMcpServerDescriptor, 'capabilities'>,
    private readonly clock: Clock,
    private readonly sources: readonly PmMcpChangeSource[] = [],
    options: PmMcpSubscriptionRegistryOptions = {},
  ) {
    this.debounceMs = nonNegativeInteger(options.debounceMs, 50, 'debounceMs');
    this.maxDelayMs = Math.max(this.debounceMs, nonNegativeInteger(options.maxDelayMs, 1000, 'maxDelayMs'));
    this.maxPendingUris = nonNegativeInteger(options.maxPendingUris, 256, 'maxPendingUris');
    this.support = mcpSubscriptionSupportOf(this.server.capabilities, (uri) => this.sources.some((source) => source.coversUri(uri)));
  }

  /** Number of open subscriptions. */
  get size(): number {
    return this.subscriptions.size;
  }

  /** True while the change sources run (from the first subscription until the last one ends). */
  get watching(): boolean {
    return this.stops !== undefined;
  }

  /** The subset of `requested` this server honours (the acknowledgement's `notifications`). */
  accept(requested: McpSubscriptionFilter): McpSubscriptionFilter {
    return acceptMcpSubscriptionFilter(requested, this.support);
  }

  /**
   * Opens a subscription: writes the acknowledgement (echoing `acceptedFilter` reduced to what
   * the server supports, so a raw request filter is safe too) as its first message, then
   * delivers matching changes through `send` until {@link remove}. Starts the change sources
   * for the first subscription. After {@link shutdown}, the subscription is acknowledged and
   * ended at once.
   */
  add(subscriptionId: JsonRpcId, acceptedFilter: McpSubscriptionFilter, send: PmMcpSubscriptionSend): PmMcpSubscription {
    const subscription = new Subscription(subscriptionId, this.accept(acceptedFilter), send, this.maxPendingUris);
    subscription.acknowledge();
    if (this.closed) {
      subscription.end();
      return subscription;
    }
    this.subscriptions.add(subscription);
    if (!this.stops) this.startSources();
    return subscription;
  }

  /**
   * Closes a subscription; nothing more is written through its `send`. Subscriptions are
   * removed by handle, not by id: JSON-RPC ids are unique per connection only, and an HTTP
   * server opens a connection per POST, so two clients may both listen as `"listen-1"`.
   * Stops the change sources when the last subscription goes. False when it was not open.
   */
  remove(subscription: PmMcpSubscription): boolean {
    if (!this.subscriptions.delete(subscription as Subscription)) return false;
    if (this.subscriptions.size === 0) this.stopSources();
    return true;
  }

  /** Queues changes for the current burst (a source's emitter; hosts may publish their own, e.g. a tool list that changed). */
  publish(changes: PmMcpChange | readonly PmMcpChange[]): void {
    if (this.closed || this.subscriptions.size === 0) return;
    const list: readonly PmMcpChange[] = Array.isArray(changes) ? changes : [changes as PmMcpChange];
    if (!list.length) return;
    for (const subscription of this.subscriptions) for (const change of list) subscription.take(change);
    const now = this.clock.now();
    this.lastChangeAt = now;
    if (!this.burstOpen) {
      this.burstOpen = true;
      this.burstStartedAt = now;
      void this.waitForQuiet(this.burstEpoch);
    }
  }

  /** Delivers everything pending now, without waiting for the burst to end. */
  flush(): void {
    this.endBurst();
    for (const subscription of this.subscriptions) if (subscription.hasPending) subscription.flush();
  }

  /**
   * Server shutdown: delivers what is pending, stops the sources and ends every subscription
   * gracefully — each `ended` resolves, and the listen method then answers with
   * `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId": id}}`
   * (2026-07-28 `basic/patterns/subscriptions` "server-initiated end"). Later `add` calls are
   * acknowledged and ended at once.
   */
  shutdown(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    const open = [...this.subscriptions];
    this.subscriptions.clear();
    this.stopSources();
    for (const subscription of open) subscription.end();
  }

  private endBurst(): void {
    this.burstOpen = false;
    this.burstEpoch++;
  }

  private async waitForQuiet(epoch: number): Promise<void> {
    for (;;) {
      const due = Math.min(this.lastChangeAt + this.debounceMs, this.burstStartedAt + this.maxDelayMs);
      const now = this.clock.now();
      if (now >= due) break;
      await this.clock.sleep(due - now);
      if (epoch !== this.burstEpoch) return; // delivered, shut down or emptied meanwhile
    }
    this.flush();
  }

  private startSources(): void {
    const epoch = ++this.sourceEpoch;
    const emit = (changes: readonly PmMcpChange[]) => {
      if (epoch === this.sourceEpoch) this.publish(changes);
    };
    this.stops = [];
    for (const source of this.sources) this.stops.push(source.start(emit));
  }

  private stopSources(): void {
    const stops = this.stops ?? [];
    this.stops = undefined;
    this.sourceEpoch++;
    this.endBurst();
    for (const stop of stops) stop();
  }
}
