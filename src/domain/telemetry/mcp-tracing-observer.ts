import type { Telemetry, TelemetryAttributes, TelemetryRemoteParent, TelemetrySpan } from '../../ports/telemetry.js';
import type { McpObservedOutcome, McpObservedRequest, McpRequestObservation, McpRequestObserver } from '../mcp/request-observer.js';
import type { McpRequestContext } from '../mcp/request-context.js';
import { readMcpTraceContext, type McpTraceContext } from '../mcp/request-meta.js';
import { MCP_META } from '../mcp/protocol.js';
import type { JsonObject } from '../mcp/wire-types.js';
import type { McpRequestSpans } from './request-spans.js';

/**
 * One OpenTelemetry server span per MCP request, named and attributed after the OpenTelemetry
 * semantic conventions for MCP (span `{mcp.method.name} {target}`; `mcp.method.name`,
 * `jsonrpc.request.id`, `gen_ai.tool.name`, `gen_ai.prompt.name`, `mcp.resource.uri`,
 * `mcp.protocol.version`, `error.type`, `rpc.response.status_code`, `network.transport`), plus
 * `http.response.status_code` over HTTP and pm's `pm.mcp.era`; and the
 * `mcp.server.operation.duration` histogram. The remote parent is the request's own W3C trace
 * context — `_meta.traceparent` first, then the `traceparent` header — and nothing else, so no
 * two requests share a trace by accident (seed 004 "Decision": per-request trace isolation).
 * Argument values are recorded only when the operator opts in (`captureContent`). A recorded
 * (sampled) span is bound to the request's context (`spans`), which is how the tracker's child
 * spans find their parent; an unsampled request's tracker calls are not traced at all.
 */

/** Options of {@link McpTracingObserver}. */
export interface McpTracingOptions {
  /** Record `gen_ai.tool.call.arguments` (the operator's opt-in: arguments can hold item contents). */
  readonly captureContent?: boolean;
  /** Where each request's span is bound to its context, for child spans (none: no child spans). */
  readonly spans?: McpRequestSpans;
}

/** The semantic-convention name of the duration histogram. */
export const MCP_SERVER_DURATION_METRIC = 'mcp.server.operation.duration';

/** The methods whose span carries `mcp.resource.uri`. */
const RESOURCE_METHODS: ReadonlySet<string> = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

const NO_ATTRIBUTES: TelemetryAttributes = Object.freeze({});

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function metaOf(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as JsonObject) : undefined;
}

/** The request's own W3C trace context: valid `_meta` keys first, then the HTTP headers. */
function remoteParentOf(request: McpObservedRequest): TelemetryRemoteParent | undefined {
  const fromMeta = safeTrace(metaOf(request.params));
  const headers = request.facts.headers;
  const trace = fromMeta?.traceparent ? fromMeta : headers?.traceparent ? safeTrace({ traceparent: headers.traceparent, ...(headers.tracestate ? { tracestate: headers.tracestate } : {}) }) : undefined;
  if (!trace?.traceparent) return undefined;
  return trace.tracestate ? { traceparent: trace.traceparent, tracestate: trace.tracestate } : { traceparent: trace.traceparent };
}

function safeTrace(meta: JsonObject | undefined): McpTraceContext | undefined {
  if (!meta) return undefined;
  try {
    return readMcpTraceContext(meta);
  } catch {
    return undefined; // malformed trace metadata is the request's error, not a parent
  }
}

class McpTracingObservation implements McpRequestObservation {
  private revision: string | undefined;

  constructor(
    private readonly telemetry: Telemetry,
    private readonly span: TelemetrySpan,
    private readonly metric: Record<string, string>,
    private readonly spans: McpRequestSpans | undefined,
    /** The `mcp.protocol.version` the span started with (the request's `_meta`). */
    private readonly startRevision: string | undefined,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  resolved(ctx: McpRequestContext): void {
    if (this.span.isRecording()) this.spans?.bind(ctx, this.span); // an unsampled request's tracker calls start no spans
    this.revision = ctx.revision;
    if (ctx.revision !== this.startRevision) this.span.setAttributes({ 'mcp.protocol.version': ctx.revision });
  }

  end(outcome: McpObservedOutcome, httpStatus: number | undefined): void {
    const errorType = errorTypeOf(outcome, httpStatus);
    if (outcome.kind === 'error' || httpStatus !== undefined) this.span.setAttributes({ 'rpc.response.status_code': outcome.kind === 'error' ? String(outcome.code) : undefined, 'http.response.status_code': httpStatus });
    if (errorType !== undefined) this.span.fail(errorType);
    const seconds = this.span.end();
    const metric = this.metric;
    if (this.revision !== undefined) metric['mcp.protocol.version'] = this.revision;
    if (errorType !== undefined) metric['error.type'] = errorType;
    this.telemetry.recordHistogram(MCP_SERVER_DURATION_METRIC, seconds, metric, 's');
  }
}

function errorTypeOf(outcome: McpObservedOutcome, httpStatus: number | undefined): string | undefined {
  switch (outcome.kind) {
    case 'error':
      return String(outcome.code);
    case 'result':
      return outcome.toolError ? 'tool_error' : undefined;
    case 'refused':
      return httpStatus !== undefined && httpStatus >= 400 ? String(httpStatus) : 'refused';
    case 'cancelled':
      return 'cancelled';
  }
}

/** The request observer that traces every request through a {@link Telemetry}. */
export class McpTracingObserver implements McpRequestObserver {
  constructor(
    private readonly telemetry: Telemetry,
    private readonly options: McpTracingOptions = {},
  ) {}

  observe(request: McpObservedRequest): McpRequestObservation {
    const { method, params } = request;
    const tool = method === 'tools/call' ? str(params?.name) : undefined;
    const prompt = method === 'prompts/get' ? str(params?.name) : undefined;
    const target = method === 'tools/call' ? tool : prompt;
    const transport = request.facts.kind === 'http' ? 'tcp' : request.facts.kind === 'stdio' ? 'pipe' : undefined;
    const protocolVersion = request.era === 'modern' ? str(metaOf(params)?.[MCP_META.protocolVersion]) : undefined;
    const span = this.telemetry.startServerSpan(target ? `${method} ${target}` : method, NO_ATTRIBUTES, remoteParentOf(request));
    // The attributes are worked out only for a span that is recorded (most are not, when sampled).
    if (span.isRecording()) {
      const args = this.options.captureContent && method === 'tools/call' && params?.arguments !== undefined ? JSON.stringify(params.arguments) : undefined;
      span.setAttributes({
        'mcp.method.name': method,
        'jsonrpc.request.id': String(request.id),
        'gen_ai.tool.name': tool,
        'gen_ai.operation.name': method === 'tools/call' ? 'execute_tool' : undefined,
        'gen_ai.prompt.name': prompt,
        'mcp.resource.uri': RESOURCE_METHODS.has(method) ? str(params?.uri) : undefined,
        'mcp.protocol.version': protocolVersion,
        'network.transport': transport,
        'network.protocol.name': request.facts.kind === 'http' ? 'http' : undefined,
        'pm.mcp.era': request.era,
        'gen_ai.tool.call.arguments': args,
      });
    }
    // The metric's attributes: only defined values, so the metric SDK takes the object as it is.
    const metric: Record<string, string> = { 'mcp.method.name': method, 'pm.mcp.era': request.era };
    if (tool !== undefined) metric['gen_ai.tool.name'] = tool;
    if (prompt !== undefined) metric['gen_ai.prompt.name'] = prompt;
    if (transport !== undefined) metric['network.transport'] = transport;
    return new McpTracingObservation(this.telemetry, span, metric, this.options.spans, protocolVersion);
  }
}
