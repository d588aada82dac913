import { hasMcpExtension, type McpRequestContext } from '../mcp/request-context.js';
import type { JsonObject } from '../mcp/wire-types.js';
import { PM_MCP_TOKEN_ESTIMATE_METHOD } from './token-estimate.js';

/**
 * The optional progressive-tool-discovery extension (seed 004 "Decision": request-local,
 * negotiated per request; unnegotiated clients keep the complete profile-selected list). A
 * client opts in by declaring the id in the `clientCapabilities.extensions` of each request;
 * the server advertises it in `server/discover` with the settings below.
 */
export const PM_TOOL_DISCOVERY_EXTENSION_ID = 'dev.unbrained.pm/progressive-tool-discovery';

/** The tool that expands the entry catalogue (present only for negotiated requests). */
export const PM_DISCOVER_TOOL_NAME = 'pm_discover';

/** Where negotiated tool results carry their one canonical value (seed 004 "Decision"). */
export const PM_TOOL_DISCOVERY_CANONICAL_RESULT = 'structuredContent.result';

/** Bounds of discovery: entry catalogue size, pm_discover's token budget and page size. */
export const PM_TOOL_DISCOVERY_LIMITS = Object.freeze({
  /** pm_discover plus four everyday tools. */
  entryCatalogSize: 5,
  tokenBudgetDefault: 2000,
  tokenBudgetMin: 200,
  tokenBudgetMax: 16_000,
  limitDefault: 5,
  limitMax: 20,
  maxNames: 20,
  maxNeedLength: 500,
});

/** What `server/discover` advertises under `capabilities.extensions[PM_TOOL_DISCOVERY_EXTENSION_ID]`. */
export const PM_TOOL_DISCOVERY_SERVER_CAPABILITY: JsonObject = Object.freeze({
  entryCatalogSize: PM_TOOL_DISCOVERY_LIMITS.entryCatalogSize,
  discoverTool: PM_DISCOVER_TOOL_NAME,
  tokenBudgetDefault: PM_TOOL_DISCOVERY_LIMITS.tokenBudgetDefault,
  tokenBudgetMax: PM_TOOL_DISCOVERY_LIMITS.tokenBudgetMax,
  tokenEstimate: PM_MCP_TOKEN_ESTIMATE_METHOD,
  canonicalResult: PM_TOOL_DISCOVERY_CANONICAL_RESULT,
});

/**
 * True when this request negotiated progressive tool discovery: a 2026-07-28 request that
 * declared the extension (legacy requests negotiate no extensions; seed 004 "Legacy boundary").
 * Any declared settings object is accepted: the extension has no client settings yet.
 */
export function hasPmToolDiscovery(ctx: Pick<McpRequestContext, 'era' | 'extensions'>): boolean {
  return ctx.era === 'modern' && hasMcpExtension(ctx, PM_TOOL_DISCOVERY_EXTENSION_ID);
}
