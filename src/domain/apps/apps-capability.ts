import { PmMcpMissingClientCapabilityError } from '../errors/mcp-errors.js';
import { hasMcpExtension, type McpRequestContext } from '../mcp/request-context.js';
import type { JsonObject, McpClientCapabilities } from '../mcp/wire-types.js';
import { PM_MCP_APP_MIME_TYPE, PM_MCP_APPS_EXTENSION_ID, PM_MCP_APPS_SPEC_VERSION } from './app-contracts.js';

/**
 * Whether a request opted in to MCP Apps (seed 000 "MCP Apps"; seed 004 "Skills and Apps
 * extensions"). Under 2026-07-28 the decision is made per request, from that request's declared
 * client capabilities alone.
 */

/** The declaration a request needs for Apps, as `ClientCapabilities` (the -32021 `requiredCapabilities`). */
export const PM_MCP_APPS_CLIENT_CAPABILITY: McpClientCapabilities = Object.freeze({
  extensions: Object.freeze({
    [PM_MCP_APPS_EXTENSION_ID]: Object.freeze({ specVersion: PM_MCP_APPS_SPEC_VERSION, mimeTypes: Object.freeze([PM_MCP_APP_MIME_TYPE]) }),
  }),
}) as McpClientCapabilities;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when `capabilities` declare the stable Apps extension compatibly: an
 * `io.modelcontextprotocol/ui` object whose `mimeTypes` (required by MCP Apps 2026-01-26 §Client
 * (Host) Capabilities) include `text/html;profile=mcp-app`, and whose `specVersion`, when
 * present, is `2026-01-26`. The stable specification defines only `mimeTypes`, so a host that
 * sends no `specVersion` is compatible; one naming another revision is not. Anything else —
 * absent, not an object, no such MIME type — is treated as no declaration at all (seed 004:
 * "An incompatible Apps declaration is treated as absent").
 */
export function hasPmMcpAppsCapability(capabilities: McpClientCapabilities | undefined): boolean {
  const declared = capabilities?.extensions?.[PM_MCP_APPS_EXTENSION_ID];
  if (!isObject(declared)) return false;
  if (declared.specVersion !== undefined && declared.specVersion !== PM_MCP_APPS_SPEC_VERSION) return false;
  return Array.isArray(declared.mimeTypes) && declared.mimeTypes.includes(PM_MCP_APP_MIME_TYPE);
}

/**
 * True when this request negotiated Apps compatibly: a 2026-07-28 request that declared the
 * extension in its own `_meta`, or a request of an initialize-era session whose `initialize`
 * declared it (docs/decisions/005-apps-in-initialize-era-sessions.md: for such a client the
 * session — the stdio process, the sealed HTTP session — is the request-local scope). A legacy
 * request outside such a session keeps its existing surface (seed 004 "Legacy boundary").
 */
export function requestNegotiatedPmMcpApps(ctx: Pick<McpRequestContext, 'era' | 'clientCapabilities' | 'extensions'>): boolean {
  if (ctx.era !== 'modern' && !hasMcpExtension(ctx, PM_MCP_APPS_EXTENSION_ID)) return false;
  return hasPmMcpAppsCapability(ctx.clientCapabilities);
}

/** The -32021 refusal of a `ui://` read by a request that did not negotiate Apps. */
export function pmMcpAppsCapabilityError(uri: string): PmMcpMissingClientCapabilityError {
  return new PmMcpMissingClientCapabilityError(
    PM_MCP_APPS_CLIENT_CAPABILITY as JsonObject,
    `Reading ${uri} needs the ${PM_MCP_APPS_EXTENSION_ID} extension (specVersion ${PM_MCP_APPS_SPEC_VERSION}, mimeTypes ["${PM_MCP_APP_MIME_TYPE}"]) declared on the request`,
  );
}
