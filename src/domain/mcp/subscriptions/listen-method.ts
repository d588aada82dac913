import { z } from 'zod';
import { assertMcpClientCapabilities } from '../capabilities.js';
import { outboundNotificationText } from '../json-rpc.js';
import type { PmMcpMethodRegistry } from '../method-registry.js';
import { MCP_SUBSCRIPTIONS_LISTEN_METHOD } from '../methods/core-method-specs.js';
import { MCP_TASKS_EXTENSION_ID } from '../methods/task-method-specs.js';
import { MCP_META } from '../protocol.js';
import type { PmMcpServerExtension } from '../server-extension.js';
import type { McpSubscriptionFilter } from './subscription-filter.js';
import type { PmMcpSubscriptionRegistry } from './subscription-registry.js';
import { lazy } from '../../util/lazy.js';

/**
 * `subscriptions/listen` (2026-07-28 `basic/patterns/subscriptions`; seed 004 "Transport
 * behavior"). Modern path only (legacy: -32601); declared as a streaming method, so over HTTP
 * the client must accept an SSE stream.
 *
 * 1. Params are parsed with zod: `{notifications: SubscriptionFilter}`. Unknown filter fields
 *    (a future notification type) are allowed and simply not acknowledged.
 * 2. `taskIds` without `io.modelcontextprotocol/tasks` declared on this request → -32021 with
 *    `requiredCapabilities.extensions` naming it (SEP-2663). With it declared, taskIds are still
 *    not acknowledged: pm offers no task notifications.
 * 3. The first message is `notifications/subscriptions/acknowledged` echoing exactly the
 *    accepted subset; change notifications follow on the request's own channel, tagged with
 *    `io.modelcontextprotocol/subscriptionId` = this request's id.
 * 4. The request stays in flight until `notifications/cancelled` for its id (stdio) or the
 *    transport aborts it (HTTP stream closed): the subscription is freed and nothing more is
 *    written, not even a response. On server shutdown ({@link PmMcpSubscriptionRegistry.shutdown})
 *    it answers `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId": id}}`.
 */

/** Most resource URIs one listen request may name (bounds the subscription's own state). */
export const PM_MCP_MAX_RESOURCE_SUBSCRIPTIONS = 1000;

const MAX_URI_LENGTH = 2048;

/**
 * The `definePmMcpServer` options that advertise what listen streams over the tracker honour
 * (`resources.subscribe`, `resources.listChanged`); spread them into the server options when
 * installing subscriptions. tools/prompts `listChanged` stay off: pm's lists are fixed per process.
 */
export const PM_MCP_SUBSCRIPTION_SERVER_OPTIONS = Object.freeze({ resourcesSubscribe: true, resourcesListChanged: true } as const);

/** `SubscriptionFilter` (2026-07-28 schema), plus the tasks extension's `taskIds`. */
export const mcpSubscriptionFilterSchema = lazy(() =>
  z.looseObject({
    toolsListChanged: z.boolean().optional(),
    promptsListChanged: z.boolean().optional(),
    resourcesListChanged: z.boolean().optional(),
    resourceSubscriptions: z.array(z.string().max(MAX_URI_LENGTH)).max(PM_MCP_MAX_RESOURCE_SUBSCRIPTIONS).optional(),
    taskIds: z.array(z.string()).optional(),
  })
);

/** `SubscriptionsListenRequestParams` without `_meta` (removed before parsing). */
export const mcpSubscriptionsListenParamsSchema = lazy(() =>
  z.looseObject({
    notifications: mcpSubscriptionFilterSchema(),
  })
);

/**
 * Registers `subscriptions/listen` over `subscriptions` on the core's method registry, and its
 * drain hook: when the transport closes, every open stream answers its closing result.
 */
export function registerMcpSubscriptionsListenMethod(methods: PmMcpMethodRegistry, subscriptions: PmMcpSubscriptionRegistry): void {
  methods.onDrain(() => subscriptions.shutdown());
  methods.register({
    ...MCP_SUBSCRIPTIONS_LISTEN_METHOD,
    params: mcpSubscriptionsListenParamsSchema,
    handle: async (params, ctx) => {
      const id = ctx.requestId!; // a request always has one; notifications never reach a method
      const requested = params.notifications as McpSubscriptionFilter;
      if (requested.taskIds !== undefined) {
        assertMcpClientCapabilities(ctx, { extensions: { [MCP_TASKS_EXTENSION_ID]: {} } }, `subscriptions/listen: taskIds need the ${MCP_TASKS_EXTENSION_ID} extension declared on the request`);
      }
      const body = { _meta: { [MCP_META.subscriptionId]: id } };
      const signal = ctx.signal;
      if (signal.aborted) return { body }; // cancelled before it began: nothing is written
      const channel = ctx.channel;
      const subscription = subscriptions.add(id, requested, (message) => channel.send(outboundNotificationText(message)));
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<void>((resolve) => {
        onAbort = () => resolve();
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        await Promise.race([aborted, subscription.ended]);
      } finally {
        if (onAbort) signal.removeEventListener('abort', onAbort);
        subscriptions.remove(subscription);
      }
      // After a cancellation the dispatcher writes nothing; after a shutdown this is the graceful result.
      return { body };
    },
  });
}

/**
 * `subscriptions/listen` as a server extension (it advertises nothing under
 * `capabilities.extensions`: its support shows in `resources.subscribe` / `listChanged`, see
 * {@link PM_MCP_SUBSCRIPTION_SERVER_OPTIONS}).
 */
export function mcpSubscriptionsExtension(subscriptions: PmMcpSubscriptionRegistry): PmMcpServerExtension {
  return { id: 'subscriptions/listen', register: (methods) => registerMcpSubscriptionsListenMethod(methods, subscriptions) };
}
