/**
 * Protocol constants for pm's MCP surface. Seed 004 ("MCP 2026-07-28 Protocol and
 * Compatibility Decision") is the authority: 2026-07-28 is canonical; the initialize-era
 * revisions form the legacy set, declared exactly once here.
 */

/** The canonical (modern, stateless) MCP revision pm speaks. Seed 004 "Decision". */
export const PM_MCP_PROTOCOL_VERSION = '2026-07-28';

/**
 * The initialize-era revisions the legacy adapter accepts, newest first. This is the single
 * declaration of that set (seed 004 "Legacy boundary"); the smoke gate reads it from the SDK.
 */
export const PM_MCP_LEGACY_PROTOCOL_VERSIONS: readonly ['2025-11-25', '2025-06-18'] = Object.freeze(['2025-11-25', '2025-06-18'] as const);

/**
 * The revisions selectable through per-request `_meta`: what `server/discover` lists as
 * `supportedVersions` and what `-32022` lists as `data.supported` on the modern path. The
 * legacy set is excluded because it cannot be selected that way (seed 004).
 */
export const PM_MCP_SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([PM_MCP_PROTOCOL_VERSION]);

/** A legacy (initialize-era) revision. */
export type PmMcpLegacyProtocolVersion = (typeof PM_MCP_LEGACY_PROTOCOL_VERSIONS)[number];

/** Which protocol era serves one message: modern per-request `_meta`, or the legacy adapter. */
export type McpEra = 'modern' | 'legacy';

/** Request/result `_meta` keys defined by 2026-07-28 (`RequestMetaObject`, `ResultMetaObject`, `NotificationMetaObject`). */
export const MCP_META = Object.freeze({
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  progressToken: 'progressToken',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  baggage: 'baggage',
} as const);

/** The request `_meta` keys whose presence marks a message as modern (2026-07-28 `RequestMetaObject`). */
export const MCP_MODERN_REQUEST_META_KEYS: readonly string[] = Object.freeze([
  MCP_META.protocolVersion,
  MCP_META.clientCapabilities,
  MCP_META.clientInfo,
  MCP_META.logLevel,
]);

/**
 * Methods removed from the modern path (2026-07-28 changelog; seed 004 "Removed, migrated,
 * and deprecated behavior"): answered with -32601 when a modern request names them.
 */
export const MCP_REMOVED_MODERN_METHODS: readonly string[] = Object.freeze([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'tasks/result',
  'tasks/list',
]);

/** `LoggingLevel`, least to most severe (RFC 5424 order, 2026-07-28 `server/utilities/logging`). */
export const MCP_LOG_LEVELS = Object.freeze(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const);

/** One `LoggingLevel` value. */
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

/** The MCP Streamable HTTP header carrying the revision (case-insensitive name). */
export const MCP_PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';

/** True when `version` is in the legacy set. */
export function isPmMcpLegacyProtocolVersion(version: unknown): version is PmMcpLegacyProtocolVersion {
  return typeof version === 'string' && (PM_MCP_LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}
