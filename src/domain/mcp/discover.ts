import { canonicalJson, deepFreeze } from '../util/canonical-json.js';
import { buildMcpCompleteResult } from './envelope.js';
import { PM_MCP_SUPPORTED_PROTOCOL_VERSIONS } from './protocol.js';
import type { JsonObject, McpImplementation, McpServerCapabilities } from './wire-types.js';

/**
 * `server/discover` (2026-07-28 `server/discover`; seed 004 "Decision": supported modern
 * revisions, deterministic capabilities, public cache policy, server identity, bounded
 * instructions). The legacy set is deliberately absent from `supportedVersions`.
 */

/** Upper bound on `instructions` (characters): guidance, not a manual. */
export const PM_MCP_MAX_INSTRUCTIONS_LENGTH = 2048;

/** Default cache lifetime of the discover result (one hour, public). */
export const PM_MCP_DISCOVER_TTL_MS = 3_600_000;

/** Which features a server serves, from which its `ServerCapabilities` are derived. */
export interface McpServerFeatures {
  readonly tools?: boolean;
  readonly resources?: boolean;
  readonly prompts?: boolean;
  readonly completions?: boolean;
  /** Advertise `logging` (required before any `notifications/message`). Deprecated feature; default off. */
  readonly logging?: boolean;
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourcesSubscribe?: boolean;
  /** Offered extensions and their settings (`capabilities.extensions`). */
  readonly extensions?: Readonly<Record<string, JsonObject>>;
}

/**
 * Builds `ServerCapabilities` deterministically: fixed member order, extensions sorted by id,
 * `listChanged`/`subscribe` only when true. `includeExtensions: false` gives the legacy form.
 */
export function buildMcpServerCapabilities(features: McpServerFeatures, includeExtensions = true): McpServerCapabilities {
  const caps: Record<string, unknown> = {};
  if (features.completions) caps.completions = {};
  if (features.logging) caps.logging = {};
  if (features.prompts) caps.prompts = features.promptsListChanged ? { listChanged: true } : {};
  if (features.resources) {
    caps.resources = {
      ...(features.resourcesSubscribe ? { subscribe: true } : {}),
      ...(features.resourcesListChanged ? { listChanged: true } : {}),
    };
  }
  if (features.tools) caps.tools = features.toolsListChanged ? { listChanged: true } : {};
  const ids = Object.keys(features.extensions ?? {}).sort();
  if (includeExtensions && ids.length) {
    caps.extensions = Object.fromEntries(ids.map((id) => [id, JSON.parse(canonicalJson(features.extensions![id]))]));
  }
  return deepFreeze(caps) as McpServerCapabilities;
}

/** Options for {@link buildMcpDiscoverResult}. */
export interface McpDiscoverOptions {
  readonly serverInfo: McpImplementation;
  readonly capabilities: McpServerCapabilities;
  readonly instructions?: string;
  readonly ttlMs?: number;
}

/** Throws when `instructions` break the bound (checked when a server is defined, not per request). */
export function assertMcpInstructions(instructions: string | undefined): void {
  if (instructions !== undefined && instructions.length > PM_MCP_MAX_INSTRUCTIONS_LENGTH) {
    throw new RangeError(`instructions are ${instructions.length} characters; the bound is ${PM_MCP_MAX_INSTRUCTIONS_LENGTH}`);
  }
}

/** The `DiscoverResult` members without the envelope (the dispatcher adds resultType, cache fields, serverInfo). */
export function buildMcpDiscoverBody(options: Pick<McpDiscoverOptions, 'capabilities' | 'instructions'>): JsonObject {
  assertMcpInstructions(options.instructions);
  return {
    supportedVersions: [...PM_MCP_SUPPORTED_PROTOCOL_VERSIONS],
    capabilities: JSON.parse(canonicalJson(options.capabilities)) as JsonObject,
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
  };
}

/**
 * The complete `DiscoverResult` (public SDK): `resultType`, `supportedVersions` (modern only),
 * `capabilities`, optional `instructions`, `ttlMs` + `cacheScope: "public"` and serverInfo in
 * result `_meta`. Its content never varies per caller, so public caching is sound.
 */
export function buildMcpDiscoverResult(options: McpDiscoverOptions): JsonObject {
  return buildMcpCompleteResult(buildMcpDiscoverBody(options), {
    serverInfo: options.serverInfo,
    cache: { ttlMs: options.ttlMs ?? PM_MCP_DISCOVER_TTL_MS, cacheScope: 'public' },
  });
}
