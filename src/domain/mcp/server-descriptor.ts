import { deepFreeze } from '../util/canonical-json.js';
import { assertMcpInstructions, buildMcpServerCapabilities, PM_MCP_DISCOVER_TTL_MS, type McpServerFeatures } from './discover.js';
import type { PmMcpPromptRegistry } from './prompt-registry.js';
import type { PmMcpResourceRegistry } from './resource-registry.js';
import type { PmMcpToolRegistry } from './tool-registry.js';
import type { JsonObject, McpCachePolicy, McpImplementation, McpServerCapabilities } from './wire-types.js';

/**
 * A server's fixed description: identity, instructions, registries, offered extensions and
 * cache/page policy. Resolved and validated once; every request reads the same frozen value,
 * so discovery and lists are deterministic (seed 004: "deterministic capabilities").
 */

/** Default lifetime of public metadata lists (tools, prompts, resources, templates). */
export const PM_MCP_LIST_TTL_MS = 300_000;
/** Default page size of list methods. */
export const PM_MCP_PAGE_SIZE = 100;

/** What a host passes to define a server. */
export interface PmMcpServerOptions {
  readonly serverInfo: McpImplementation;
  readonly instructions?: string;
  readonly tools?: PmMcpToolRegistry;
  readonly resources?: PmMcpResourceRegistry;
  readonly prompts?: PmMcpPromptRegistry;
  /** Offered extensions (`capabilities.extensions`); negotiation keeps only these. */
  readonly extensions?: Readonly<Record<string, JsonObject>>;
  /** Ids of offered extensions the legacy `initialize` result declares too (default none). */
  readonly legacyExtensions?: readonly string[];
  /**
   * Ids of offered extensions that an initialize-era session negotiates by declaring them in
   * `initialize` (docs/decisions/005-apps-in-initialize-era-sessions.md): for such a client
   * the session is the request-local scope. Each must be among `legacyExtensions` (default none).
   */
  readonly legacySessionExtensions?: readonly string[];
  /** Advertise `logging` and honour request `logLevel` (deprecated feature; default off). */
  readonly logging?: boolean;
  /**
   * Declare `logging` in the legacy `initialize` result and serve `logging/setLevel` there
   * (seed 004 "Removed, migrated, and deprecated behavior": Logging survives only in bounded
   * legacy compatibility; 2025-11-25 `server/utilities/logging`). Default off.
   */
  readonly legacyLogging?: boolean;
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourcesSubscribe?: boolean;
  readonly listTtlMs?: number;
  readonly discoverTtlMs?: number;
  readonly pageSize?: number;
  /**
   * Work the server finishes before it serves anything but `server/discover` (the tracker
   * server reads config.yaml here): discover answers at once, every other request waits for
   * it once. A failure is that request's error, and the next request tries again.
   */
  readonly prepare?: () => Promise<unknown>;
}

/** The resolved description the dispatcher and core methods read. */
export interface PmMcpServerDescriptor {
  readonly serverInfo: McpImplementation;
  readonly instructions: string | undefined;
  readonly tools: PmMcpToolRegistry | undefined;
  readonly resources: PmMcpResourceRegistry | undefined;
  readonly prompts: PmMcpPromptRegistry | undefined;
  readonly features: McpServerFeatures;
  /** `ServerCapabilities` for `server/discover` (extensions included). */
  readonly capabilities: McpServerCapabilities;
  /** `ServerCapabilities` for legacy `initialize`: only the legacy extensions, no listChanged/subscribe (no listen stream there). */
  readonly legacyCapabilities: McpServerCapabilities;
  readonly extensions: Readonly<Record<string, JsonObject>>;
  /** The offers an initialize-era session negotiates by declaring them in `initialize` (see {@link PmMcpServerOptions.legacySessionExtensions}). */
  readonly legacySessionExtensions: Readonly<Record<string, JsonObject>>;
  readonly listCache: McpCachePolicy;
  readonly discoverTtlMs: number;
  readonly pageSize: number;
  readonly prepare: (() => Promise<unknown>) | undefined;
}

function ttl(value: number | undefined, fallback: number, name: string): number {
  const out = value ?? fallback;
  if (!Number.isSafeInteger(out) || out < 0) throw new RangeError(`${name} must be an integer >= 0`);
  return out;
}

/** Validates and freezes a server description. Throws RangeError on a bad configuration. */
export function definePmMcpServer(options: PmMcpServerOptions): PmMcpServerDescriptor {
  if (!options.serverInfo.name || !options.serverInfo.version) throw new RangeError('serverInfo needs name and version');
  assertMcpInstructions(options.instructions);
  const pageSize = options.pageSize ?? PM_MCP_PAGE_SIZE;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError('pageSize must be a positive integer');
  const extensions = deepFreeze(structuredClone({ ...(options.extensions ?? {}) }));
  const features: McpServerFeatures = Object.freeze({
    tools: options.tools !== undefined,
    resources: options.resources !== undefined,
    prompts: options.prompts !== undefined,
    completions: Boolean(options.prompts?.completes || options.resources?.completes),
    logging: options.logging ?? false,
    toolsListChanged: options.toolsListChanged ?? false,
    promptsListChanged: options.promptsListChanged ?? false,
    resourcesListChanged: options.resourcesListChanged ?? false,
    resourcesSubscribe: options.resourcesSubscribe ?? false,
    extensions,
  });
  for (const id of options.legacyExtensions ?? []) if (!Object.prototype.hasOwnProperty.call(extensions, id)) throw new RangeError(`legacy extension ${id} is not offered`);
  for (const id of options.legacySessionExtensions ?? []) if (!(options.legacyExtensions ?? []).includes(id)) throw new RangeError(`legacy session extension ${id} is not declared in initialize (legacyExtensions)`);
  const legacyFeatures: McpServerFeatures = {
    tools: features.tools,
    resources: features.resources,
    prompts: features.prompts,
    completions: features.completions,
    logging: options.legacyLogging ?? false,
    extensions: Object.fromEntries((options.legacyExtensions ?? []).map((id) => [id, extensions[id]!])),
  };
  return Object.freeze({
    serverInfo: deepFreeze(structuredClone(options.serverInfo)),
    instructions: options.instructions,
    tools: options.tools,
    resources: options.resources,
    prompts: options.prompts,
    features,
    capabilities: buildMcpServerCapabilities(features),
    legacyCapabilities: buildMcpServerCapabilities(legacyFeatures),
    extensions,
    legacySessionExtensions: Object.freeze(Object.fromEntries((options.legacySessionExtensions ?? []).map((id) => [id, extensions[id]!]))),
    listCache: Object.freeze({ ttlMs: ttl(options.listTtlMs, PM_MCP_LIST_TTL_MS, 'listTtlMs'), cacheScope: 'public' as const }),
    discoverTtlMs: ttl(options.discoverTtlMs, PM_MCP_DISCOVER_TTL_MS, 'discoverTtlMs'),
    pageSize,
    prepare: options.prepare,
  } satisfies PmMcpServerDescriptor);
}
