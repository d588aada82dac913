import type { Telemetry, TelemetrySpan } from '../../ports/telemetry.js';
import { PmError } from '../errors/pm-error.js';
import type { McpRequestContext } from '../mcp/request-context.js';
import type { Tracker } from '../tracker/tracker.js';
import type { McpRequestSpans } from './request-spans.js';

/**
 * Child spans for tracker reads and writes (operators see where a request's time went): each
 * call of one of the operations below, made through the tracker a traced request's handler is
 * given, becomes an internal span `pm.tracker {operation}` under that request's server span,
 * with `pm.tracker.operation` and `pm.tracker.access` (read or write). Arguments and item
 * contents are never recorded. The parent is found from the request's own context (the
 * {@link McpRequestSpans} the tracing observer binds), never from an async "active span", so
 * concurrent requests cannot take each other's parent. Calls outside any traced request
 * (start-up, the index watch, the CLI) use the plain tracker and create no span. The tracker
 * itself is not changed: the composition hands the MCP server this lookup only when tracing is on.
 */

/** The tracker operations that become spans, by access. */
export const PM_TRACED_TRACKER_OPERATIONS: Readonly<Record<string, 'read' | 'write'>> = Object.freeze({
  get: 'read',
  list: 'read',
  next: 'read',
  search: 'read',
  historyOf: 'read',
  export: 'read',
  validate: 'read',
  context: 'read',
  create: 'write',
  update: 'write',
  claim: 'write',
  release: 'write',
  close: 'write',
  reopen: 'write',
  comment: 'write',
  addDependency: 'write',
  removeDependency: 'write',
  delete: 'write',
});

/** The tracker a request's handlers call (the plain one when the request is not traced). */
export type TrackerOfRequest = (ctx: McpRequestContext) => Tracker;

/** Per request: `tracker` with its reads and writes traced as children of the request's span in `spans`. */
export function traceTracker(tracker: Tracker, telemetry: Telemetry, spans: McpRequestSpans): TrackerOfRequest {
  const views = new WeakMap<McpRequestContext, Tracker>();
  return (ctx) => {
    const span = spans.spanOf(ctx);
    if (!span) return tracker;
    let view = views.get(ctx);
    if (!view) views.set(ctx, (view = tracedView(tracker, telemetry, span)));
    return view;
  };
}

/** The operation's span name and attributes, made once per operation. */
const SPAN_SHAPES = new Map(
  Object.entries(PM_TRACED_TRACKER_OPERATIONS).map(([operation, access]) => [operation, { name: `pm.tracker ${operation}`, attributes: Object.freeze({ 'pm.tracker.operation': operation, 'pm.tracker.access': access }) }]),
);

/** `tracker` with the traced operations starting child spans of `parent`; everything else passes through. */
function tracedView(tracker: Tracker, telemetry: Telemetry, parent: TelemetrySpan): Tracker {
  const wrapped = new Map<string, unknown>();
  return new Proxy(tracker, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      const shape = typeof property === 'string' ? SPAN_SHAPES.get(property) : undefined;
      if (shape === undefined || typeof value !== 'function') return value;
      let traced = wrapped.get(property as string);
      if (!traced) {
        const method = value as (...args: unknown[]) => Promise<unknown>;
        traced = (...args: unknown[]) => settle(telemetry.startChildSpan(shape.name, shape.attributes, parent), () => method.apply(target, args));
        wrapped.set(property as string, traced);
      }
      return traced;
    },
  });
}

/** Runs `operation` and ends `span` when it settles, marked failed (the PmError reason, else the error's name) when it throws. */
async function settle(span: TelemetrySpan, operation: () => Promise<unknown>): Promise<unknown> {
  try {
    return await operation();
  } catch (error) {
    span.fail(error instanceof PmError ? error.reason : error instanceof Error ? error.name : 'error');
    throw error;
  } finally {
    span.end();
  }
}
