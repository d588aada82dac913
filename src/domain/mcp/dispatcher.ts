import type { MessageSink, TransportFacts } from '../../ports/transport.js';
import { PmMcpInvalidParamsError, PmMcpMethodNotFoundError } from '../errors/mcp-errors.js';
import { PmError } from '../errors/pm-error.js';
import { buildMcpEnvelope } from './envelope.js';
import { toMcpJsonRpcError } from './error-mapper.js';
import {
  classifyJsonRpcMessage,
  isJsonRpcId,
  parseMcpFrame,
  PreSerializedJson,
  PreSerializedJsonRpcResult,
  serializeInvalidRequest,
  serializeJsonRpcError,
  serializeJsonRpcResult,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from './json-rpc.js';
import { legacyStateAfter } from './legacy-adapter.js';
import type { McpMethodOutcome, PmMcpMethodRegistry } from './method-registry.js';
import { createMcpRequestNotifier, SILENT_MCP_NOTIFIER, type McpRequestNotifierHandle } from './notifier.js';
import { MCP_REMOVED_MODERN_METHODS, type McpEra } from './protocol.js';
import { decideMcpEra, resolveMcpRequestContext, type McpLegacyConnectionState, type McpRequestContext } from './request-context.js';
import type { PmMcpServerDescriptor } from './server-descriptor.js';
import type { JsonRpcId } from './wire-types.js';

/**
 * The runtime-neutral MCP dispatcher (DESIGN "How a request flows"): one for stdio and HTTP.
 * A transport hands it one parsed message, its facts and a sink; it resolves the request
 * context, routes through the method registry, builds the era's envelope once and maps errors
 * once. It writes serialized JSON text (one line, no embedded newline) to the sink.
 */

/** Hooks a host may give the dispatcher. */
export interface PmMcpDispatcherOptions {
  /** Called with unexpected (non-PmError) throws, e.g. to log them on stderr; the client only sees -32603. */
  readonly onInternalError?: (error: unknown, where: { readonly method: string; readonly requestId: JsonRpcId }) => void;
}

/** What a transport can cancel: one in-flight request. */
export interface McpCancellable {
  /** Aborts the request (idempotent); nothing more is written for it. */
  abort(reason: unknown): void;
}

/**
 * A sink that takes pre-serialized results as they are (HTTP writes the cached bytes of a
 * memoized result instead of the response text). Other sinks get the text.
 */
export interface McpPreSerializedSink extends MessageSink {
  sendPreSerialized(response: PreSerializedJsonRpcResult): void;
}

function takesPreSerialized(sink: MessageSink): sink is McpPreSerializedSink {
  return typeof (sink as Partial<McpPreSerializedSink>).sendPreSerialized === 'function';
}

/** Per-message options from the transport. */
export interface PmMcpDispatchOptions {
  /** Transport-level cancellation (HTTP: the request's response stream closed). */
  readonly signal?: AbortSignal;
  /**
   * The cheaper form of `signal`: called once with the request before it runs; the transport
   * keeps it and calls `abort` when the client goes away (no AbortController, no listener).
   */
  onCancel?(request: McpCancellable): void;
}

const MEMO_LIMIT = 512;

/** Routes requests for one server description over one method registry. */
export class PmMcpDispatcher {
  private readonly memo = new Map<string, PreSerializedJson>();
  private prepared: boolean;
  private preparing: Promise<void> | undefined;

  constructor(
    private readonly server: PmMcpServerDescriptor,
    private readonly methods: PmMcpMethodRegistry,
    private readonly options: PmMcpDispatcherOptions = {},
  ) {
    this.prepared = server.prepare === undefined;
  }

  /** A connection: in-flight requests (for cancellation) and, on stdio, the legacy initialize state. */
  connect(): PmMcpConnection {
    return new PmMcpConnection(this, this.server);
  }

  /** Runs one resolved request and returns its serialized response (throws typed errors). */
  async run(ctx: McpRequestContext, request: JsonRpcRequest): Promise<string> {
    const response = await this.respond(ctx, request);
    return typeof response === 'string' ? response : response.toString();
  }

  /** {@link run}, with a memoized result left pre-serialized (for sinks that write it as is). */
  async respond(ctx: McpRequestContext, request: JsonRpcRequest): Promise<string | PreSerializedJsonRpcResult> {
    if (ctx.era === 'modern' && MCP_REMOVED_MODERN_METHODS.includes(ctx.method)) {
      throw new PmMcpMethodNotFoundError(ctx.method, `Method not found: ${ctx.method} (removed in ${ctx.revision})`);
    }
    const definition = this.methods.resolve(ctx.method, ctx.era);
    if (!definition) throw new PmMcpMethodNotFoundError(ctx.method);
    const { _meta: _ignored, ...rest } = request.params ?? {};
    const schema = typeof definition.params === 'function' ? definition.params() : definition.params;
    const parsed = schema.safeParse(rest);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
      throw new PmMcpInvalidParamsError(`Invalid params for ${ctx.method}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
    }
    if (!this.prepared && ctx.method !== 'server/discover') await this.prepare();
    const outcome = await this.methods.invoke(definition, parsed.data, ctx);
    return this.serialize(ctx, request.id, outcome);
  }

  /** Waits for the server's `prepare` hook, once while it succeeds (see PmMcpServerOptions.prepare). */
  private prepare(): Promise<void> {
    this.preparing ??= this.server.prepare!().then(
      () => {
        this.prepared = true;
      },
      (error: unknown) => {
        this.preparing = undefined;
        throw error;
      },
    );
    return this.preparing;
  }

  /** Reports an unexpected throw to the host hook (never to the client). */
  reportInternal(error: unknown, method: string, requestId: JsonRpcId): void {
    if (!(error instanceof PmError)) this.options.onInternalError?.(error, { method, requestId });
  }

  private serialize(ctx: McpRequestContext, id: JsonRpcId, outcome: McpMethodOutcome): string | PreSerializedJsonRpcResult {
    const resultType = outcome.resultType ?? 'complete';
    const build = () =>
      buildMcpEnvelope(ctx.era, resultType, outcome.body, {
        serverInfo: this.server.serverInfo,
        ...(resultType === 'complete' && outcome.cache ? { cache: outcome.cache } : {}),
      });
    if (outcome.memoKey === undefined || resultType !== 'complete') return serializeJsonRpcResult(id, build());
    const key = `${ctx.era}|${ctx.revision}|${ctx.method}|${outcome.memoKey}`;
    let text = this.memo.get(key);
    if (!text) {
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      text = new PreSerializedJson(JSON.stringify(build()));
      this.memo.set(key, text);
    }
    return new PreSerializedJsonRpcResult(id, text);
  }
}

function idKey(id: JsonRpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/**
 * Cancellation state of one in-flight request. The AbortController is created only when the
 * handler first reads `ctx.signal` (most never do), which keeps the hot path allocation-light.
 */
class InFlight implements McpCancellable {
  aborted = false;
  private reason: unknown;
  private controller: AbortController | undefined;

  readonly signal = (): AbortSignal => {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  };

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

/**
 * One client connection (a stdio process, or one HTTP POST). Requests run concurrently; a
 * `notifications/cancelled` aborts the matching in-flight request, after which nothing more is
 * written for it. The legacy initialize state lives here and is read only by legacy requests.
 */
export class PmMcpConnection {
  private legacy: McpLegacyConnectionState | undefined;
  private readonly inFlight = new Map<string, InFlight>();

  constructor(
    private readonly dispatcher: PmMcpDispatcher,
    private readonly server: PmMcpServerDescriptor,
  ) {}

  /** Number of requests still running. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Handles one text frame: -32700 for bad JSON, otherwise {@link handleMessage}. */
  async handleFrame(text: string, facts: TransportFacts, sink: MessageSink, options: PmMcpDispatchOptions = {}): Promise<void> {
    const parsed = parseMcpFrame(text);
    if (!parsed.ok) {
      sink.send(parsed.response);
      return;
    }
    await this.handleMessage(parsed.value, facts, sink, options);
  }

  /** Handles one parsed JSON-RPC value. Resolves when its response (if any) has been written. */
  async handleMessage(value: unknown, facts: TransportFacts, sink: MessageSink, options: PmMcpDispatchOptions = {}): Promise<void> {
    const classified = classifyJsonRpcMessage(value);
    switch (classified.kind) {
      case 'invalid':
        sink.send(serializeInvalidRequest(classified.id, classified.detail));
        return;
      case 'response':
        return; // pm sends no requests, so responses from the client are ignored
      case 'notification':
        this.handleNotification(classified.message);
        return;
      case 'request':
        await this.handleRequest(classified.message, facts, sink, options);
    }
  }

  /** Aborts every in-flight request (shutdown); nothing more is written for them. */
  cancelAll(reason = 'connection closed'): void {
    for (const entry of this.inFlight.values()) entry.abort(reason);
  }

  private handleNotification(notification: JsonRpcNotification): void {
    if (notification.method !== 'notifications/cancelled') return; // initialized and unknown notifications: no response
    const requestId = notification.params?.requestId;
    if (!isJsonRpcId(requestId)) return; // malformed cancels are ignored
    const reason = notification.params?.reason;
    this.inFlight.get(idKey(requestId))?.abort(typeof reason === 'string' ? reason : 'cancelled by client');
  }

  /**
   * Handles one request that the transport has already classified (HTTP: the endpoint parsed and
   * classified the body itself), without classifying it again. Resolves when its response has
   * been written (or it was cancelled).
   */
  async handleRequest(request: JsonRpcRequest, facts: TransportFacts, sink: MessageSink, options: PmMcpDispatchOptions = {}): Promise<void> {
    const key = idKey(request.id);
    if (this.inFlight.has(key)) {
      sink.send(serializeInvalidRequest(request.id, 'this id belongs to a request still in flight'));
      return;
    }
    const entry = new InFlight();
    const external = options.signal;
    const forward = external ? () => entry.abort(external.reason) : undefined;
    if (external && forward) {
      if (external.aborted) forward();
      else external.addEventListener('abort', forward, { once: true });
    }
    options.onCancel?.(entry);
    this.inFlight.set(key, entry);
    let era: McpEra = 'legacy';
    let notifier: McpRequestNotifierHandle | undefined;
    const loggingAdvertised = Boolean(this.server.features.logging);
    try {
      era = decideMcpEra(request, facts);
      const ctx = resolveMcpRequestContext(request, facts, {
        legacy: this.legacy,
        serverExtensions: this.server.extensions,
        signal: entry.signal,
        // The request's own channel (listen streams): silent once cancelled or finished.
        channel: () => ({ send: (message) => { if (!entry.aborted && this.inFlight.get(key) === entry) sink.send(message); } }),
        notify: (fields) => {
          if (fields.progressToken === undefined && !(fields.logLevel && loggingAdvertised && fields.era === 'modern')) return SILENT_MCP_NOTIFIER;
          const guarded: MessageSink = { send: (message) => { if (!entry.aborted) sink.send(message); } };
          notifier = createMcpRequestNotifier(guarded, { progressToken: fields.progressToken, logLevel: fields.logLevel, loggingAdvertised: loggingAdvertised && fields.era === 'modern' });
          return notifier.notifier;
        },
      });
      const response = await this.dispatcher.respond(ctx, request);
      notifier?.close();
      if (entry.aborted) return;
      const legacy = legacyStateAfter(ctx);
      if (legacy) this.legacy = legacy;
      if (typeof response === 'string') sink.send(response);
      else if (takesPreSerialized(sink)) sink.sendPreSerialized(response);
      else sink.send(response.toString());
    } catch (error) {
      notifier?.close();
      if (entry.aborted) return;
      this.dispatcher.reportInternal(error, request.method, request.id);
      sink.send(serializeJsonRpcError(request.id, toMcpJsonRpcError(error, era)));
    } finally {
      if (external && forward) external.removeEventListener('abort', forward);
      this.inFlight.delete(key);
    }
  }
}
