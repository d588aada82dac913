import type { OutboundMessage } from '../../ports/message-sink.js';
import type { TransportFacts, TransportPeer } from '../../ports/transport.js';
import { PmMcpInputRequiredError, PmMcpInvalidParamsError, PmMcpMethodNotFoundError } from '../errors/mcp-errors.js';
import { PmError } from '../errors/pm-error.js';
import { BoundedCache } from '../util/bounded-cache.js';
import { PmMcpConnection } from './connection.js';
import { buildMcpEnvelope } from './envelope.js';
import { assertMcpInterimOutcome } from './interim-results.js';
import { outboundJsonRpcResult, PreSerializedJson, PreSerializedJsonRpcResult, type JsonRpcRequest } from './json-rpc.js';
import type { McpHookTrail } from './method-hooks.js';
import { mcpOutcomeResultType, type McpInputRequest } from './method-outcome.js';
import type { AnyMcpMethodDefinition, McpInvocation, PmMcpMethodRegistry } from './method-registry.js';
import { acceptMcpRetry, mcpInputRequiredOutcome } from './interaction/input-required.js';
import type { PmMcpRequestStateSealer } from './interaction/request-state.js';
import { PM_MCP_LEGACY_ON, type PmMcpLegacyPolicy } from './legacy-adapter.js';
import { MCP_REMOVED_MODERN_METHODS, type McpEra } from './protocol.js';
import { observeMcpRequest, type McpRequestObservation, type McpRequestObserver } from './request-observer.js';
import type { McpRequestContext } from './request-context.js';
import type { PmMcpServerDescriptor } from './server-descriptor.js';
import type { JsonRpcId } from './wire-types.js';

/**
 * The runtime-neutral MCP dispatcher (docs/ARCHITECTURE.md "How a request flows"): one for
 * stdio and HTTP. Transports hand each framed message to a connection
 * ({@link PmMcpConnection.dispatch}); the dispatcher routes a resolved request through the
 * method registry, builds the era's envelope once, and hands back a typed outbound message.
 */

/** Hooks a host may give the dispatcher. */
export interface PmMcpDispatcherOptions {
  /** Called with unexpected (non-PmError) throws, e.g. to log them on stderr; the client only sees -32603. */
  readonly onInternalError?: (error: unknown, where: { readonly method: string; readonly requestId: JsonRpcId }) => void;
  /** Seals and opens MRTR `requestState` (absent: handlers may ask for input, but not with state). */
  readonly requestStates?: PmMcpRequestStateSealer;
  /** Whether the legacy (initialize-era) adapter serves requests (default: on). */
  readonly legacy?: PmMcpLegacyPolicy;
  /** What watches every request from outside (tracing, usage counts); none by default, at no cost. */
  readonly observers?: readonly McpRequestObserver[];
}

/** How many serialized results the dispatcher keeps. */
const MEMO_LIMIT = 512;
/**
 * The characters of serialized results it keeps at most (each also keeps its UTF-8 bytes once
 * written): results range from a few hundred bytes to a page of a large item, so they are
 * bounded by size, not only counted (docs/TRACKER.md "Memory").
 */
export const MEMO_CHARS = 8_388_608;

/** Routes requests for one server description over one method registry. */
export class PmMcpDispatcher implements TransportPeer {
  private readonly memo = new BoundedCache<string, PreSerializedJson>('serialized results by era, revision, method, hook trail and memo key', MEMO_LIMIT, { max: MEMO_CHARS, of: (result) => result.json.length });
  private prepared: boolean;
  private preparing: Promise<void> | undefined;
  private readonly observers: readonly McpRequestObserver[];
  /** Whether the legacy adapter is on, and how a refusal says to turn it back on. */
  readonly legacy: PmMcpLegacyPolicy;

  constructor(
    readonly server: PmMcpServerDescriptor,
    readonly methods: PmMcpMethodRegistry,
    private readonly options: PmMcpDispatcherOptions = {},
  ) {
    this.prepared = server.prepare === undefined;
    this.observers = options.observers ?? [];
    this.legacy = options.legacy ?? PM_MCP_LEGACY_ON;
  }

  /** The observation of one request by the registered observers (undefined when there are none). */
  observe(request: JsonRpcRequest, era: McpEra, facts: TransportFacts): McpRequestObservation | undefined {
    if (this.observers.length === 0) return undefined;
    return observeMcpRequest(this.observers, { id: request.id, method: request.method, era, params: request.params, facts });
  }

  /** A connection: in-flight requests (for cancellation) and, on stdio, the legacy initialize state. */
  connect(): PmMcpConnection {
    return new PmMcpConnection(this);
  }

  /** No more input is coming: the registry's drain hooks end long-lived answers (listen streams). */
  drain(): void {
    this.methods.drain();
  }

  /** True once the server's `prepare` hook has succeeded (or it has none). */
  get ready(): boolean {
    return this.prepared;
  }

  /**
   * Runs the server's `prepare` hook once while it succeeds (the tracker server reads
   * config.yaml there). Every request but the methods declared `beforeReady` waits for it; a host
   * may call it before serving (pm-mcp-http) or after its first turn (pm-mcp). A failure is that
   * caller's error, and the next call tries again.
   */
  prepare(): Promise<void> {
    if (this.prepared) return Promise.resolve();
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

  /**
   * Runs one resolved request and returns its typed result message (throws typed errors).
   * `definition` is the registry's entry when the caller has looked it up already; `onBody`
   * is shown the result body before it is serialized (request observers read `isError`).
   */
  async respond(ctx: McpRequestContext, request: JsonRpcRequest, definition?: AnyMcpMethodDefinition, onBody?: (body: unknown) => void): Promise<OutboundMessage> {
    if (ctx.era === 'modern' && MCP_REMOVED_MODERN_METHODS.includes(ctx.method)) {
      throw new PmMcpMethodNotFoundError(ctx.method, `Method not found: ${ctx.method} (removed in ${ctx.revision})`);
    }
    const method = definition && definition.eras.includes(ctx.era) ? definition : this.methods.resolve(ctx.method, ctx.era);
    if (!method) throw new PmMcpMethodNotFoundError(ctx.method);
    const { _meta: _ignored, ...rest } = request.params ?? {};
    const schema = typeof method.params === 'function' ? method.params() : method.params;
    const parsed = schema.safeParse(rest);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
      throw new PmMcpInvalidParamsError(`Invalid params for ${ctx.method}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
    }
    if (!this.prepared && method.beforeReady !== true) await this.prepare();
    // After prepare: a check may read what preparing builds (the tracker's tools).
    method.check?.(parsed.data);
    const asksForInput = ctx.era === 'modern' && method.interim?.includes('input_required') === true;
    if (asksForInput) await acceptMcpRetry(ctx, rest, this.options.requestStates);
    let invocation: McpInvocation;
    try {
      invocation = await this.methods.invoke(method, parsed.data, ctx);
    } catch (error) {
      if (!(error instanceof PmMcpInputRequiredError) || !method.interim?.includes('input_required')) throw error;
      // On the legacy path the outcome is refused with -32021 (assertMcpInterimOutcome), before any state is sealed.
      const outcome = asksForInput ? await mcpInputRequiredOutcome(error, ctx, rest, this.options.requestStates) : { resultType: 'input_required' as const, body: { inputRequests: error.inputRequests as Readonly<Record<string, McpInputRequest>> } };
      invocation = { outcome, trail: undefined };
    }
    const { outcome, trail } = invocation;
    assertMcpInterimOutcome(method, outcome, ctx);
    onBody?.(outcome.body);
    return this.serialize(ctx, request.id, outcome, trail);
  }

  /** Reports an unexpected throw to the host hook (never to the client). */
  reportInternal(error: unknown, method: string, requestId: JsonRpcId): void {
    if (!(error instanceof PmError)) this.options.onInternalError?.(error, { method, requestId });
  }

  private serialize(ctx: McpRequestContext, id: JsonRpcId, outcome: Awaited<ReturnType<PmMcpMethodRegistry['invoke']>>['outcome'], trail: McpHookTrail): OutboundMessage {
    const resultType = mcpOutcomeResultType(outcome);
    const cache = outcome.resultType === undefined || outcome.resultType === 'complete' ? outcome.cache : undefined;
    const memoKey = outcome.resultType === undefined || outcome.resultType === 'complete' ? outcome.memoKey : undefined;
    const build = () => buildMcpEnvelope(ctx.era, resultType, outcome.body, { serverInfo: this.server.serverInfo, ...(cache ? { cache } : {}) });
    if (memoKey === undefined || trail === undefined) return outboundJsonRpcResult(id, build());
    const key = `${ctx.era}|${ctx.revision}|${ctx.method}|${trail}|${memoKey}`;
    return new PreSerializedJsonRpcResult(id, this.memo.getOrCreate(key, () => new PreSerializedJson(JSON.stringify(build()))));
  }
}
