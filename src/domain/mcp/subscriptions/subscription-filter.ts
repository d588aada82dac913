import type { McpServerCapabilities } from '../wire-types.js';

/**
 * The `SubscriptionFilter` of `subscriptions/listen` (2026-07-28 schema `SubscriptionFilter`,
 * `basic/patterns/subscriptions`) and the rule for the acknowledged subset: a type is acknowledged only when the
 * server advertises it in `server/discover` (`tools.listChanged`, `prompts.listChanged`,
 * `resources.listChanged`, `resources.subscribe`) and, for resource URIs, only when a change
 * source can actually report changes for that URI. Omitted or `false` fields are not subscribed
 * and are left out of the acknowledgement. `taskIds` (tasks extension, SEP-2663) is never
 * acknowledged here: pm offers no task notifications yet.
 */
export interface McpSubscriptionFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
  /** Tasks extension: requires `io.modelcontextprotocol/tasks` declared on the request (-32021 otherwise). */
  readonly taskIds?: readonly string[];
}

/** Which notification types a server can honour on a listen stream. */
export interface McpSubscriptionSupport {
  readonly toolsListChanged: boolean;
  readonly promptsListChanged: boolean;
  readonly resourcesListChanged: boolean;
  /** `resources.subscribe` is advertised; each URI must also pass `coversUri`. */
  readonly resourceSubscriptions: boolean;
  coversUri(uri: string): boolean;
}

/** The listen-stream support implied by advertised `ServerCapabilities` (nothing beyond what discover says). */
export function mcpSubscriptionSupportOf(capabilities: McpServerCapabilities, coversUri: (uri: string) => boolean): McpSubscriptionSupport {
  return Object.freeze({
    toolsListChanged: capabilities.tools?.listChanged === true,
    promptsListChanged: capabilities.prompts?.listChanged === true,
    resourcesListChanged: capabilities.resources?.listChanged === true,
    resourceSubscriptions: capabilities.resources?.subscribe === true,
    coversUri,
  });
}

/**
 * The subset of `requested` the server will honour (the acknowledgement's `notifications`).
 * Boolean fields are kept only when `true` and supported; resource URIs are kept in request
 * order, without duplicates, when supported and covered; an empty URI list is omitted.
 * Idempotent: accepting an accepted filter returns an equal filter.
 */
export function acceptMcpSubscriptionFilter(requested: McpSubscriptionFilter, support: McpSubscriptionSupport): McpSubscriptionFilter {
  const out: { -readonly [K in keyof McpSubscriptionFilter]: McpSubscriptionFilter[K] } = {};
  if (requested.toolsListChanged === true && support.toolsListChanged) out.toolsListChanged = true;
  if (requested.promptsListChanged === true && support.promptsListChanged) out.promptsListChanged = true;
  if (requested.resourcesListChanged === true && support.resourcesListChanged) out.resourcesListChanged = true;
  if (support.resourceSubscriptions && requested.resourceSubscriptions?.length) {
    const uris = [...new Set(requested.resourceSubscriptions)].filter((uri) => typeof uri === 'string' && support.coversUri(uri));
    if (uris.length) out.resourceSubscriptions = Object.freeze(uris);
  }
  return Object.freeze(out);
}
