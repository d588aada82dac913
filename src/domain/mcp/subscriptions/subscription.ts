import { serializeJsonRpcNotification } from '../json-rpc.js';
import { MCP_META } from '../protocol.js';
import type { JsonObject, JsonRpcId } from '../wire-types.js';
import type { PmMcpChange } from './change-source.js';
import type { McpSubscriptionFilter } from './subscription-filter.js';

/** One open listen stream, as returned by `PmMcpSubscriptionRegistry.add` (subscription-registry.ts). */
export interface PmMcpSubscription {
  /** The listen request's JSON-RPC id (the subscription id on the wire). */
  readonly id: JsonRpcId;
  /** The acknowledged filter. */
  readonly filter: McpSubscriptionFilter;
  /** Resolves when the server ends the subscription gracefully (`PmMcpSubscriptionRegistry.shutdown`). */
  readonly ended: Promise<void>;
}

/** Writes one serialized JSON-RPC message on the listen stream. */
export type PmMcpSubscriptionSend = (message: string) => void;

/** The notifications a listen stream carries (2026-07-28 `basic/patterns/subscriptions`). */
const NOTIFICATION = Object.freeze({
  acknowledged: 'notifications/subscriptions/acknowledged',
  toolsListChanged: 'notifications/tools/list_changed',
  promptsListChanged: 'notifications/prompts/list_changed',
  resourcesListChanged: 'notifications/resources/list_changed',
  resourceUpdated: 'notifications/resources/updated',
});

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
export class Subscription implements PmMcpSubscription {
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
