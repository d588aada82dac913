import type { Principal } from '../../ports/authorizer.js';
import type { MessageSink } from '../../ports/message-sink.js';
import type { TransportFacts } from '../../ports/transport.js';
import { legacyRequestFields, transportHeader, type McpInboundMessage, type McpLegacyConnectionState } from './legacy-request-fields.js';
import { SILENT_MCP_NOTIFIER, type McpRequestNotifier } from './notifier.js';
import { isPmMcpLegacyProtocolVersion, MCP_META, MCP_MODERN_REQUEST_META_KEYS, MCP_PROTOCOL_VERSION_HEADER, type McpEra, type McpLogLevel } from './protocol.js';
import { MCP_MODERN_ONLY_METHODS } from './methods/method-catalog.js';
import { parseModernRequestMeta, type McpTraceContext } from './request-meta.js';
import type { JsonObject, JsonRpcId, McpClientCapabilities, McpImplementation } from './wire-types.js';

export { legacyVersionRefusal, type McpInboundMessage, type McpLegacyConnectionState } from './legacy-request-fields.js';

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
  /**
   * Extension ids a legacy session negotiates by declaring them in `initialize` (the server's
   * `legacySessionExtensions`); omitted: none, so legacy requests negotiate no extension.
   */
  readonly legacySessionExtensions?: Readonly<Record<string, unknown>>;
  /** The cancellation signal, or a factory called on first access (no AbortController for handlers that never look). */
  readonly signal?: AbortSignal | (() => AbortSignal);
  /** The notifier, or a factory given this request's progress token and log level. */
  readonly notify?: McpRequestNotifier | ((fields: McpNotifierFields) => McpRequestNotifier);
  /** The principal, when the transport facts do not carry one. */
  readonly principal?: Principal;
  /** The request's own channel, or a factory called on first access (see {@link McpRequestContext.channel}). */
  readonly channel?: MessageSink | (() => MessageSink);
}

/** The HTTP header a legacy session's sealed id travels in (http/legacy-session.ts). */
const MCP_SESSION_ID_HEADER = 'mcp-session-id';

const SILENT_CHANNEL: MessageSink = Object.freeze({ send: () => undefined });

function metaOf(message: McpInboundMessage): unknown {
  return message.params?._meta;
}

const isKnownModernOnly = (method: string): boolean => MCP_MODERN_ONLY_METHODS.includes(method);

/**
 * Decides the era of one message (seed 004 "Legacy boundary"; 2026-07-28 `basic/versioning`:
 * `initialize` selects legacy semantics for the process or session, and unversioned requests
 * stay on the legacy path because they cannot claim the current revision):
 * - `_meta` carrying `io.modelcontextprotocol/protocolVersion` → modern, always;
 * - inside an initialized legacy session (stdio after `initialize`: `legacySession`; over HTTP
 *   a legacy `MCP-Protocol-Version` header, or an `Mcp-Session-Id` without any version header,
 *   which only the legacy path issues) every other request is legacy, whatever other
 *   modern keys its `_meta` holds (a client in legacy mode may send
 *   `io.modelcontextprotocol/logLevel` alone);
 * - outside one, `_meta` carrying any other modern key (clientCapabilities, clientInfo,
 *   logLevel) → modern, so a modern client that forgot the version is told which key is missing;
 * - otherwise `initialize` → legacy; a method declared modern-only (`server/discover`,
 *   `subscriptions/listen`, extension methods) → modern, so a bare probe is told which `_meta`
 *   is missing; any other `MCP-Protocol-Version` header → modern; everything else
 *   (unversioned) → legacy.
 * Decide it before any modern header rule, or legacy HTTP traffic (which has no `Mcp-Method`)
 * would be refused.
 */
export function decideMcpEra(message: McpInboundMessage, facts: TransportFacts, isModernOnly: (method: string) => boolean = isKnownModernOnly, legacySession = false): McpEra {
  const meta = metaOf(message);
  const keyed = meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as JsonObject) : undefined;
  if (keyed && MCP_META.protocolVersion in keyed) return 'modern';
  const version = transportHeader(facts, MCP_PROTOCOL_VERSION_HEADER)?.trim();
  const sealedSession = version === undefined && transportHeader(facts, MCP_SESSION_ID_HEADER) !== undefined;
  if (legacySession || sealedSession || isPmMcpLegacyProtocolVersion(version)) return 'legacy';
  if (keyed && MCP_MODERN_REQUEST_META_KEYS.some((key) => key in keyed)) return 'modern';
  if (message.method === 'initialize') return 'legacy';
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
    const legacy = legacyRequestFields(message, transportFacts, rawMeta, options.legacy, options.legacyLogLevel);
    // The session's initialize declaration is its request-local scope (docs/decisions/005).
    const extensions = options.legacySessionExtensions ? negotiate(legacy.clientCapabilities, options.legacySessionExtensions) : NO_EXTENSIONS;
    fields = { era, ...legacy, extensions };
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
