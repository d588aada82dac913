/**
 * Drives `subscriptions/listen` over the real dispatcher (the fake MCP server harness, whose
 * every written message is validated against the 2026-07-28 schema) with the tracker's file
 * change source over an in-memory tracker and a ManualClock.
 */
import type { FileSystem } from '../../src/ports/file-system.js';
import type { TransportFacts } from '../../src/ports/transport.js';
import {
  MCP_META,
  PM_MCP_SUBSCRIPTION_SERVER_OPTIONS,
  PmMcpSubscriptionRegistry,
  registerMcpSubscriptionsListenMethod,
  type JsonRpcId,
  type PmMcpChangeSource,
  type PmMcpServerOptions,
  type PmMcpSubscriptionRegistryOptions,
} from '../../src/domain/mcp/index.js';
import { PmMcpTrackerChangeSource } from '../../src/domain/mcp-tracker/index.js';
import { McpHarness, MODERN_META, type Written } from './mcp-fake-server.js';
import { memoryTracker, ROOT } from './memory-tracker.js';

export const SUBSCRIPTION_ID = MCP_META.subscriptionId;
export const ITEMS_DIR = `${ROOT}/items`;

/** Lets every pending microtask and immediate run (memory fs calls, stat passes, sleeps that woke). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

export interface SubscriptionSetupOptions {
  readonly server?: Partial<PmMcpServerOptions>;
  readonly registry?: PmMcpSubscriptionRegistryOptions;
  /** Replace the file system the change source watches (e.g. a wrapper that counts or injects events). */
  readonly watchFs?: (fs: FileSystem) => FileSystem;
  readonly extraSources?: readonly PmMcpChangeSource[];
}

/** An in-memory tracker, a harnessed dispatcher with `subscriptions/listen` installed, and helpers. */
export async function subscriptionSetup(options: SubscriptionSetupOptions = {}) {
  const t = await memoryTracker();
  await t.tracker.list(); // the tracker's own item index watches the items directory once loaded
  const trackerWatchers = t.fs.watcherCount();
  const h = new McpHarness({ ...PM_MCP_SUBSCRIPTION_SERVER_OPTIONS, ...options.server });
  const watchedFs = options.watchFs ? options.watchFs(t.fs) : t.fs;
  const source = new PmMcpTrackerChangeSource(watchedFs, t.clock, ITEMS_DIR);
  const registry = new PmMcpSubscriptionRegistry(h.server, t.clock, [source, ...(options.extraSources ?? [])], options.registry);
  registerMcpSubscriptionsListenMethod(h.methods, registry);

  /** Opens a listen stream; the promise resolves when the request ends (with what was written for it). */
  const listen = (id: JsonRpcId, notifications: Record<string, unknown>, meta: Record<string, unknown> = {}, facts?: TransportFacts) =>
    h.send({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications, _meta: { ...MODERN_META, ...meta } } }, '2026-07-28', facts);

  /** Everything written so far that belongs to subscription `id`: its notifications and its response. */
  const messagesOf = (id: JsonRpcId): Written['value'][] =>
    h.written.map((w) => w.value).filter((v) => v.id === id || (v.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.[SUBSCRIPTION_ID] === id);

  /** The notifications of subscription `id` after its acknowledgement, as `method uri?` strings. */
  const eventsOf = (id: JsonRpcId): string[] =>
    messagesOf(id)
      .slice(1)
      .map((v) => {
        const params = v.params as { uri?: string } | undefined;
        return params?.uri ? `${String(v.method)} ${params.uri}` : String(v.method ?? 'response');
      });

  const cancel = (id: JsonRpcId, reason = 'client closing') => h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });

  /** Lets pending stat passes publish, moves the clock, and lets the woken burst timers run. */
  const advance = async (ms: number) => {
    await settle();
    t.clock.advance(ms);
    await settle();
  };

  /** Watch listeners on the memory file system beyond the tracker's own index watch (i.e. the subscriptions' watch). */
  const subscriptionWatchers = () => t.fs.watcherCount() - trackerWatchers;

  return { ...t, h, registry, source, listen, messagesOf, eventsOf, cancel, advance, subscriptionWatchers, trackerWatchers };
}

export type SubscriptionSetup = Awaited<ReturnType<typeof subscriptionSetup>>;
