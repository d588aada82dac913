import type { TransportFacts } from '../../ports/transport.js';
import { PmMcpInvalidParamsError, PmMcpUnsupportedProtocolVersionError } from '../errors/mcp-errors.js';
import {
  isPmMcpLegacyProtocolVersion,
  MCP_LOG_LEVELS,
  MCP_PROTOCOL_VERSION_HEADER,
  PM_MCP_LEGACY_PROTOCOL_VERSIONS,
  PM_MCP_PROTOCOL_VERSION,
  type McpLogLevel,
  type PmMcpLegacyProtocolVersion,
} from './protocol.js';
import { frozenJsonCopy, mcpClientCapabilitiesSchema, mcpImplementationSchema, readMcpProgressToken, readMcpTraceContext, type McpTraceContext } from './request-meta.js';
import type { JsonObject, JsonRpcId, McpClientCapabilities, McpImplementation } from './wire-types.js';

/** The part of a JSON-RPC request or notification the request context is resolved from. */
export interface McpInboundMessage {
  readonly id?: JsonRpcId;
  readonly method: string;
  readonly params?: JsonObject;
}

/**
 * What an earlier legacy `initialize` on the same stdio connection supplied. Only the legacy
 * path reads it (an initialize-era client declares identity once); modern requests never do.
 */
export interface McpLegacyConnectionState {
  readonly revision: PmMcpLegacyProtocolVersion;
  readonly clientCapabilities: McpClientCapabilities;
  readonly clientInfo: McpImplementation | undefined;
}

/** A request header by name, matched without regard to case (HTTP header names are case-insensitive). */
export function transportHeader(facts: TransportFacts, name: string): string | undefined {
  const headers = facts.headers;
  if (!headers) return undefined;
  if (headers[name] !== undefined) return headers[name];
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** The -32022 refusal of a legacy `initialize`: message and data name every revision it accepts (seed 004). */
export function legacyVersionRefusal(requested: string): PmMcpUnsupportedProtocolVersionError {
  const accepted = PM_MCP_LEGACY_PROTOCOL_VERSIONS.join(', ');
  return new PmMcpUnsupportedProtocolVersionError(
    requested,
    PM_MCP_LEGACY_PROTOCOL_VERSIONS,
    `Unsupported protocol version ${JSON.stringify(requested)}: initialize accepts ${accepted}; ${PM_MCP_PROTOCOL_VERSION} is served through per-request _meta`,
  );
}

function legacyRevision(message: McpInboundMessage, facts: TransportFacts, state: McpLegacyConnectionState | undefined): PmMcpLegacyProtocolVersion {
  if (message.method === 'initialize') {
    const requested = message.params?.protocolVersion;
    if (requested === undefined) return PM_MCP_LEGACY_PROTOCOL_VERSIONS[0];
    if (typeof requested !== 'string') throw new PmMcpInvalidParamsError('initialize: protocolVersion must be a string', { field: 'protocolVersion' });
    if (!isPmMcpLegacyProtocolVersion(requested)) throw legacyVersionRefusal(requested);
    return requested;
  }
  const fromHeader = transportHeader(facts, MCP_PROTOCOL_VERSION_HEADER)?.trim();
  if (isPmMcpLegacyProtocolVersion(fromHeader)) return fromHeader;
  return state?.revision ?? PM_MCP_LEGACY_PROTOCOL_VERSIONS[0];
}

function legacyIdentity(message: McpInboundMessage, state: McpLegacyConnectionState | undefined): { caps: McpClientCapabilities; info: McpImplementation | undefined } {
  if (message.method !== 'initialize') return { caps: state?.clientCapabilities ?? {}, info: state?.clientInfo };
  const caps = mcpClientCapabilitiesSchema().safeParse(message.params?.capabilities ?? {});
  if (!caps.success) throw new PmMcpInvalidParamsError('initialize: capabilities must be a ClientCapabilities object', { field: 'capabilities' });
  const rawInfo = message.params?.clientInfo;
  const info = rawInfo === undefined ? undefined : mcpImplementationSchema().safeParse(rawInfo);
  if (info && !info.success) throw new PmMcpInvalidParamsError('initialize: clientInfo needs string name and version', { field: 'clientInfo' });
  return { caps: caps.data as McpClientCapabilities, info: info?.data as McpImplementation | undefined };
}

/**
 * The log level of a legacy request (2025-11-25 `server/utilities/logging`): the level a
 * `logging/setLevel` asks for (so its own exchange already carries messages at that level), or
 * the one an earlier `logging/setLevel` chose on the same connection.
 */
function legacyLogLevel(message: McpInboundMessage, connectionLevel: McpLogLevel | undefined): McpLogLevel | undefined {
  if (message.method !== 'logging/setLevel') return connectionLevel;
  const level = message.params?.level;
  return (MCP_LOG_LEVELS as readonly unknown[]).includes(level) ? (level as McpLogLevel) : connectionLevel;
}

/** What a legacy request's context holds besides its era and (no) extensions. */
export interface McpLegacyRequestFields {
  readonly revision: PmMcpLegacyProtocolVersion;
  readonly clientCapabilities: McpClientCapabilities;
  readonly clientInfo: McpImplementation | undefined;
  readonly logLevel: McpLogLevel | undefined;
  readonly progressToken: string | number | undefined;
  readonly trace: McpTraceContext;
}

/**
 * The fields of a legacy request's context (seed 004 "Legacy boundary"): the revision and the
 * client's identity come from this `initialize`, an HTTP legacy version header or the
 * connection's earlier initialize; progress token and trace context from `_meta`, which must be
 * an object when present (-32602).
 */
export function legacyRequestFields(
  message: McpInboundMessage,
  facts: TransportFacts,
  rawMeta: unknown,
  state: McpLegacyConnectionState | undefined,
  connectionLogLevel: McpLogLevel | undefined,
): McpLegacyRequestFields {
  if (rawMeta !== undefined && (typeof rawMeta !== 'object' || rawMeta === null || Array.isArray(rawMeta))) {
    throw new PmMcpInvalidParamsError('Malformed _meta: must be an object', { field: '_meta' });
  }
  const meta = (rawMeta ?? {}) as JsonObject;
  const identity = legacyIdentity(message, state);
  return {
    revision: legacyRevision(message, facts, state),
    clientCapabilities: frozenJsonCopy(identity.caps),
    clientInfo: identity.info && frozenJsonCopy(identity.info),
    logLevel: legacyLogLevel(message, connectionLogLevel),
    progressToken: readMcpProgressToken(meta),
    trace: readMcpTraceContext(meta),
  };
}
