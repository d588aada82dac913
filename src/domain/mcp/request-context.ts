import type { Principal } from '../../ports/authorizer.js';
import type { MessageSink } from '../../ports/message-sink.js';
import type { TransportFacts } from '../../ports/transport.js';
import { PmMcpInvalidParamsError, PmMcpUnsupportedProtocolVersionError } from '../errors/mcp-errors.js';
import { SILENT_MCP_NOTIFIER, type McpRequestNotifier } from './notifier.js';
import {
  isPmMcpLegacyProtocolVersion,
  MCP_LOG_LEVELS,
  MCP_MODERN_REQUEST_META_KEYS,
  MCP_PROTOCOL_VERSION_HEADER,
  PM_MCP_LEGACY_PROTOCOL_VERSIONS,
  PM_MCP_PROTOCOL_VERSION,
  type McpEra,
  type McpLogLevel,
  type PmMcpLegacyProtocolVersion,
} from './protocol.js';
import { MCP_MODERN_ONLY_METHODS } from './methods/method-catalog.js';
import { frozenJsonCopy, mcpClientCapabilitiesSchema, mcpImplementationSchema, parseModernRequestMeta, readMcpProgressToken, readMcpTraceContext, type McpTraceContext } from './request-meta.js';
import type { JsonObject, JsonRpcId, McpClientCapabilities, McpImplementation } from './wire-types.js';

/** The part of a JSON-RPC request or notification the resolver reads. */
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

/**
 * Everything a handler may know about the request it serves, resolved from that message (and,
 * on the legacy path only, the connection's initialize). Immutable; nothing in it is shared
 * with any other request. Seed 004 "Decision"; 2026-07-28 `basic/index` §Statelessness.
 */
export interface McpRequestContext {
  readonly era: McpEra;
  /** The revision serving this request: 2026-07-28, or the legacy revision in effect. */
  readonly revision: string;
  readonly method: string;
  /** The JSON-RPC id (undefined for notifications). */
  readonly requestId: JsonRpcId | undefined;
  readonly clientCapabilities: McpClientCapabilities;
  readonly clientInfo: McpImplementation | undefined;
  /** Extensions this request negotiated: declared by the client and offered by the server, with the client's settings. */
  readonly extensions: Readonly<Record<string, JsonObject>>;
  readonly logLevel: McpLogLevel | undefined;
  readonly progressToken: string | number | undefined;
  readonly trace: McpTraceContext;
  /** Who is calling, when the transport authenticated the request (HTTP bearer); undefined on stdio. */
  readonly principal: Principal | undefined;
  readonly transport: TransportFacts['kind'];
  /** Aborted when the client cancels this request (stdio `notifications/cancelled`, HTTP stream close). */
  readonly signal: AbortSignal;
  /** Request-scoped progress and log notifications. */
  readonly notify: McpRequestNotifier;
  /**
   * This request's own channel (its SSE stream over HTTP, the shared stdout on stdio) for
   * messages the method itself emits while in flight — a `subscriptions/listen` stream's
   * acknowledgement and change notifications (2026-07-28 `basic/patterns/subscriptions`).
   * Writes are dropped once the request has completed or been cancelled. Silent when the
   * context was resolved without one.
   */
  readonly channel: MessageSink;
}

/** The resolved fields a notifier factory receives. */
export interface McpNotifierFields {
  readonly era: McpEra;
  readonly progressToken: string | number | undefined;
  readonly logLevel: McpLogLevel | undefined;
}

/** Options for {@link resolveMcpRequestContext}. */
export interface ResolveMcpRequestContextOptions {
  /** The era, when the caller has decided it already (the dispatcher decides once per request). */
  readonly era?: McpEra;
  /** Whether a method is modern-only (the server's method registry); default: the methods the SDK knows. */
  readonly isModernOnly?: (method: string) => boolean;
  /** The legacy connection state (stdio after `initialize`); ignored on the modern path. */
  readonly legacy?: McpLegacyConnectionState;
  /** The level an earlier legacy `logging/setLevel` on the connection chose (stdio); ignored on the modern path. */
  readonly legacyLogLevel?: McpLogLevel;
  /** Extension ids the server offers; negotiation keeps only these. Omitted: every declared extension. */
  readonly serverExtensions?: Readonly<Record<string, unknown>>;
  /** The cancellation signal, or a factory called on first access (no AbortController for handlers that never look). */
  readonly signal?: AbortSignal | (() => AbortSignal);
  /** The notifier, or a factory given this request's progress token and log level. */
  readonly notify?: McpRequestNotifier | ((fields: McpNotifierFields) => McpRequestNotifier);
  /** The principal, when the transport facts do not carry one. */
  readonly principal?: Principal;
  /** The request's own channel, or a factory called on first access (see {@link McpRequestContext.channel}). */
  readonly channel?: MessageSink | (() => MessageSink);
}

const SILENT_CHANNEL: MessageSink = Object.freeze({ send: () => undefined });

function header(facts: TransportFacts, name: string): string | undefined {
  const headers = facts.headers;
  if (!headers) return undefined;
  if (headers[name] !== undefined) return headers[name];
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

function metaOf(message: McpInboundMessage): unknown {
  return message.params?._meta;
}

const isKnownModernOnly = (method: string): boolean => MCP_MODERN_ONLY_METHODS.includes(method);

/**
 * Decides the era of one message (seed 004 "Legacy boundary"; 2026-07-28 `basic/versioning`):
 * request `_meta` carrying any modern key (protocolVersion, clientCapabilities, clientInfo,
 * logLevel) → modern; otherwise `initialize` → legacy; over HTTP a legacy
 * `MCP-Protocol-Version` header → legacy; a method declared modern-only (`server/discover`,
 * `subscriptions/listen`, extension methods) → modern, so a bare probe is told which `_meta`
 * is missing; any other `MCP-Protocol-Version` header → modern; everything else
 * (unversioned) → legacy. Decide it before any modern header rule, or legacy
 * HTTP traffic (which has no `Mcp-Method`) would be refused.
 */
export function decideMcpEra(message: McpInboundMessage, facts: TransportFacts, isModernOnly: (method: string) => boolean = isKnownModernOnly): McpEra {
  const meta = metaOf(message);
  if (meta && typeof meta === 'object' && !Array.isArray(meta) && MCP_MODERN_REQUEST_META_KEYS.some((key) => key in meta)) return 'modern';
  if (message.method === 'initialize') return 'legacy';
  const version = header(facts, MCP_PROTOCOL_VERSION_HEADER)?.trim();
  if (isPmMcpLegacyProtocolVersion(version)) return 'legacy';
  if (isModernOnly(message.method)) return 'modern';
  if (version !== undefined && version !== '') return 'modern';
  return 'legacy';
}

const NO_EXTENSIONS: Readonly<Record<string, JsonObject>> = Object.freeze({});

function negotiate(declared: McpClientCapabilities, offered: Readonly<Record<string, unknown>> | undefined): Readonly<Record<string, JsonObject>> {
  const extensions = declared.extensions;
  if (!extensions) return NO_EXTENSIONS;
  const out: Record<string, JsonObject> = {};
  for (const id in extensions) {
    if (!offered || Object.prototype.hasOwnProperty.call(offered, id)) out[id] = extensions[id]!;
  }
  return Object.freeze(out);
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
  const fromHeader = header(facts, MCP_PROTOCOL_VERSION_HEADER)?.trim();
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

/**
 * Resolves the one immutable request context for `message` (public SDK; seed 004 "Decision").
 * Modern: validated from this request's `_meta` alone — missing/malformed keys -32602, an
 * unsupported version -32022 with `{supported, requested}`. Legacy: the revision comes from
 * `initialize` (omitted → 2025-11-25; outside the set → -32022 naming every accepted
 * revision), an HTTP legacy version header, the connection's earlier initialize, or 2025-11-25.
 */
export function resolveMcpRequestContext(message: McpInboundMessage, transportFacts: TransportFacts, options: ResolveMcpRequestContextOptions = {}): McpRequestContext {
  const era = options.era ?? decideMcpEra(message, transportFacts, options.isModernOnly);
  const rawMeta = metaOf(message);
  let fields: ContextFields;
  if (era === 'modern') {
    const meta = parseModernRequestMeta(rawMeta);
    fields = {
      era,
      revision: meta.protocolVersion,
      clientCapabilities: meta.clientCapabilities,
      clientInfo: meta.clientInfo,
      extensions: negotiate(meta.clientCapabilities, options.serverExtensions),
      logLevel: meta.logLevel,
      progressToken: meta.progressToken,
      trace: meta.trace,
    };
  } else {
    if (rawMeta !== undefined && (typeof rawMeta !== 'object' || rawMeta === null || Array.isArray(rawMeta))) {
      throw new PmMcpInvalidParamsError('Malformed _meta: must be an object', { field: '_meta' });
    }
    const meta = (rawMeta ?? {}) as JsonObject;
    const identity = legacyIdentity(message, options.legacy);
    fields = {
      era,
      revision: legacyRevision(message, transportFacts, options.legacy),
      clientCapabilities: frozenJsonCopy(identity.caps),
      clientInfo: identity.info && frozenJsonCopy(identity.info),
      extensions: NO_EXTENSIONS,
      logLevel: legacyLogLevel(message, options.legacyLogLevel),
      progressToken: readMcpProgressToken(meta),
      trace: readMcpTraceContext(meta),
    };
  }
  const notify = typeof options.notify === 'function' ? options.notify({ era, progressToken: fields.progressToken, logLevel: fields.logLevel }) : options.notify ?? SILENT_MCP_NOTIFIER;
  return new ResolvedMcpRequestContext(fields, message, options.principal ?? transportFacts.principal, transportFacts.kind, options.signal, notify, options.channel);
}

/**
 * The frozen context object. Fields are assigned explicitly (no spreads: spreading then
 * freezing is slow in V8), and `signal` is a getter so the AbortController is only created
 * for handlers that read it.
 */
class ResolvedMcpRequestContext implements McpRequestContext {
  readonly era: McpEra;
  readonly revision: string;
  readonly method: string;
  readonly requestId: JsonRpcId | undefined;
  readonly clientCapabilities: McpClientCapabilities;
  readonly clientInfo: McpImplementation | undefined;
  readonly extensions: Readonly<Record<string, JsonObject>>;
  readonly logLevel: McpLogLevel | undefined;
  readonly progressToken: string | number | undefined;
  readonly trace: McpTraceContext;
  readonly principal: Principal | undefined;
  readonly transport: TransportFacts['kind'];
  readonly notify: McpRequestNotifier;
  #signal: AbortSignal | (() => AbortSignal) | undefined;
  #channel: MessageSink | (() => MessageSink) | undefined;

  constructor(
    fields: ContextFields,
    message: McpInboundMessage,
    principal: Principal | undefined,
    transport: TransportFacts['kind'],
    signal: AbortSignal | (() => AbortSignal) | undefined,
    notify: McpRequestNotifier,
    channel: MessageSink | (() => MessageSink) | undefined,
  ) {
    this.era = fields.era;
    this.revision = fields.revision;
    this.method = message.method;
    this.requestId = message.id;
    this.clientCapabilities = fields.clientCapabilities;
    this.clientInfo = fields.clientInfo;
    this.extensions = fields.extensions;
    this.logLevel = fields.logLevel;
    this.progressToken = fields.progressToken;
    this.trace = fields.trace;
    this.principal = principal;
    this.transport = transport;
    this.notify = notify;
    this.#signal = signal;
    this.#channel = channel;
    Object.freeze(this);
  }

  get signal(): AbortSignal {
    const current = this.#signal;
    if (typeof current === 'object') return current;
    const resolved = typeof current === 'function' ? current() : new AbortController().signal;
    this.#signal = resolved;
    return resolved;
  }

  get channel(): MessageSink {
    const current = this.#channel;
    if (typeof current === 'object') return current;
    const resolved = typeof current === 'function' ? current() : SILENT_CHANNEL;
    this.#channel = resolved;
    return resolved;
  }
}

type ContextFields = Pick<McpRequestContext, 'era' | 'revision' | 'clientCapabilities' | 'clientInfo' | 'extensions' | 'logLevel' | 'progressToken' | 'trace'>;

/**
 * Who is asking, as one string: the authenticated principal's id, or `anonymous` when the
 * transport authenticated nobody (stdio, HTTP without authorization). What per-caller state —
 * sealed requestState, durable tasks — is bound to.
 */
export function mcpCallerOf(ctx: Pick<McpRequestContext, 'principal'>): string {
  return ctx.principal?.id ?? 'anonymous';
}

/**
 * The same request detached from the exchange that carried it, for work that outlives the
 * response (a durable task): its own cancellation signal, and no notifier or channel, since the
 * exchange is over. Everything else — era, capabilities, negotiated extensions, principal — is
 * the request's own.
 */
export function detachMcpRequestContext(ctx: McpRequestContext, signal: AbortSignal): McpRequestContext {
  return new ResolvedMcpRequestContext(ctx, { method: ctx.method, ...(ctx.requestId !== undefined ? { id: ctx.requestId } : {}) }, ctx.principal, ctx.transport, signal, SILENT_MCP_NOTIFIER, SILENT_CHANNEL);
}

/** True when this request negotiated the extension `id`. */
export function hasMcpExtension(ctx: Pick<McpRequestContext, 'extensions'>, id: string): boolean {
  return Object.prototype.hasOwnProperty.call(ctx.extensions, id);
}
