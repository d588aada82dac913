import type { Clock } from '../../../ports/clock.js';
import { serializeJsonRpcNotification } from '../json-rpc.js';
import { MCP_META } from '../protocol.js';
import type { PmMcpServerDescriptor } from '../server-descriptor.js';
import type { JsonObject, JsonRpcId } from '../wire-types.js';
import type { PmMcpChange, PmMcpChangeSource } from './change-source.js';
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

/** One open listen stream, as returned by {@link PmMcpSubscriptionRegistry.add}. */
export interface PmMcpSubscription {
  /** The listen request's JSON-RPC id (the subscription id on the wire). */
  readonly id: JsonRpcId;
  /** The acknowledged filter. */
  readonly filter: McpSubscriptionFilter;
  /** Resolves when the server ends the subscription gracefully ({@link PmMcpSubscriptionRegistry.shutdown}). */
  readonly ended: Promise<void>;
}

/** Writes one serialized JSON-RPC message on the listen stream. */
export type PmMcpSubscriptionSend = (message: string) => void;

const NOTIFICATION = Object.freeze({
  acknowledged: 'notifications/subscriptions/acknowledged',
  toolsListChanged: 'notifications/tools/list_changed',
  promptsListChanged: 'notifications/prompts/list_changed',
  resourcesListChanged: 'notifications/resources/list_changed',
  resourceUpdated: 'notifications/resources/updated',
});

function nonNegativeInteger(value: number | undefined, fallback: number, name: string): number {
  const out = value ?? fallback;
  if (!Number.isSafeInteger(out) || out < 0) throw new RangeError(`${name} must be an integer >= 0`);
  return out;
}

/** The ancestors of a hierarchical URI below its authority, nearest first (`a://b/c/d` → `a://b/c`, `a://b`). */
function* ancestorsOf(uri: string): Generator<string> {
  const scheme = uri.indexOf('://');
  if (scheme < 0) return;
  const floor = scheme + 3;
  let current = uri;
  for (;;) {
    const cut = current.lastIndexOf('/');
    if (cut < floor) return;
    current = current.slice(0, cut);
    if (current.length <= floor) return;
    yield current;
  }
}

/** One subscription's state: its filter, where it writes, and what is pending in the current burst. */
class Subscription implements PmMcpSubscription {
  readonly uris: ReadonlySet<string>;
  readonly ended: Promise<void>;
  private readonly meta: JsonObject;
  private finish!: () => void;
  private tools = false;
  private prompts = false;
  private resources = false;
  private readonly pendingUris = new Set<string>();
  private readonly collapsed = new Set<string>();

  constructor(
    readonly id: JsonRpcId,
    readonly filter: McpSubscriptionFilter,
    private readonly send: PmMcpSubscriptionSend,
    private readonly maxPendingUris: number,
  ) {
    this.uris = new Set(filter.resourceSubscriptions ?? []);
    this.meta = Object.freeze({ [MCP_META.subscriptionId]: id });
    this.ended = new Promise<void>((resolve) => (this.finish = resolve));
  }

  get hasPending(): boolean {
    return this.tools || this.prompts || this.resources || this.pendingUris.size > 0 || this.collapsed.size > 0;
  }

  acknowledge(): void {
    this.write(NOTIFICATION.acknowledged, { notifications: this.filter as JsonObject });
  }

  take(change: PmMcpChange): void {
    switch (change.kind) {
      case 'toolsListChanged':
        if (this.filter.toolsListChanged) this.tools = true;
        return;
      case 'promptsListChanged':
        if (this.filter.promptsListChanged) this.prompts = true;
        return;
      case 'resourcesListChanged':
        if (this.filter.resourcesListChanged) this.resources = true;
        return;
      case 'resourceUpdated':
        this.takeUri(change.uri);
    }
  }

  /** Writes the burst's notifications (list changes first, then updated URIs in arrival order) and resets. */
  flush(): void {
    const uris = [...this.pendingUris, ...[...this.collapsed].filter((uri) => !this.pendingUris.has(uri))];
    const lists = [this.tools && NOTIFICATION.toolsListChanged, this.prompts && NOTIFICATION.promptsListChanged, this.resources && NOTIFICATION.resourcesListChanged];
    this.tools = this.prompts = this.resources = false;
    this.pendingUris.clear();
    this.collapsed.clear();
    for (const method of lists) if (method) this.write(method, {});
    for (const uri of uris) this.write(NOTIFICATION.resourceUpdated, { uri });
  }

  end(): void {
    this.finish();
  }

  private takeUri(uri: string): void {
    if (!this.uris.size || this.pendingUris.has(uri)) return;
    if (this.uris.has(uri)) {
      this.pendingUris.add(uri); // bounded by the filter's own size
      return;
    }
    for (const ancestor of ancestorsOf(uri)) {
      const parent = this.uris.has(ancestor) ? ancestor : this.uris.has(`${ancestor}/`) ? `${ancestor}/` : undefined;
      if (parent === undefined) continue;
      if (this.pendingUris.size < this.maxPendingUris) this.pendingUris.add(uri);
      else this.collapsed.add(parent);
      return;
    }
  }

  private write(method: string, params: JsonObject): void {
    try {
      this.send(serializeJsonRpcNotification(method, { ...params, _meta: this.meta }));
    } catch {
      // A failing stream must not stop delivery to the others; its transport ends it.
    }
  }
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
