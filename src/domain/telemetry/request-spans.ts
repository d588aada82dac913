import type { TelemetrySpan } from '../../ports/telemetry.js';
import type { McpRequestContext } from '../mcp/request-context.js';

/**
 * Which server span belongs to which request: the tracing observer binds a request's span to
 * that request's own context object once it is resolved, and whatever serves the request (the
 * tracker's child spans) looks it up from the context it was handed. The span is carried
 * explicitly with the request rather than through an async "active span" (seed 004 "Decision":
 * per-request trace isolation), so concurrent requests can never see each other's span, and no
 * async-context hook runs for every promise of a traced server. Weakly held: a finished
 * request's context and span are collected with it.
 */
export class McpRequestSpans {
  private readonly spans = new WeakMap<McpRequestContext, TelemetrySpan>();

  /** Makes `span` the span of the request `ctx` describes. */
  bind(ctx: McpRequestContext, span: TelemetrySpan): void {
    this.spans.set(ctx, span);
  }

  /** The span of the request `ctx` describes (undefined: untraced, or not a request's context). */
  spanOf(ctx: McpRequestContext): TelemetrySpan | undefined {
    return this.spans.get(ctx);
  }
}
