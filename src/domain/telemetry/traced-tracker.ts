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
  const viewOf = tracedViews(tracker, telemetry);
  const views = new WeakMap<McpRequestContext, Tracker>();
  return (ctx) => {
    const span = spans.spanOf(ctx);
    if (!span) return tracker;
    let view = views.get(ctx);
    if (!view) views.set(ctx, (view = viewOf(span)));
    return view;
  };
}

/** The operation's span name and attributes, made once per operation. */
const SPAN_SHAPES = new Map(
  Object.entries(PM_TRACED_TRACKER_OPERATIONS).map(([operation, access]) => [operation, { name: `pm.tracker ${operation}`, attributes: Object.freeze({ 'pm.tracker.operation': operation, 'pm.tracker.access': access }) }]),
);

const PARENT = Symbol('parent span');

type View = Tracker & { [PARENT]: TelemetrySpan };

/**
 * Views of `tracker` for one parent span each. The methods are made once, on a prototype every
 * view shares: the traced operations start a child span of the view's parent, every other
 * method and getter runs on the tracker itself (its own state, never a copy), and plain fields
 * are read through the prototype chain. A view is then one small object per request.
 */
function tracedViews(tracker: Tracker, telemetry: Telemetry): (parent: TelemetrySpan) => Tracker {
  const shared = Object.create(tracker) as Record<PropertyKey, unknown>;
  const seen = new Set<PropertyKey>();
  for (let level: object | null = tracker; level && level !== Object.prototype; level = Object.getPrototypeOf(level) as object | null) {
    for (const name of Reflect.ownKeys(level)) {
      if (name === 'constructor' || seen.has(name)) continue;
      seen.add(name);
      const descriptor = Reflect.getOwnPropertyDescriptor(level, name)!;
      if (descriptor.get) Object.defineProperty(shared, name, { get: () => Reflect.get(tracker, name) });
      else if (typeof descriptor.value === 'function') shared[name] = tracedMethod(tracker, telemetry, name, descriptor.value as (...args: unknown[]) => unknown);
    }
  }
  return (parent) => {
    const view = Object.create(shared) as View;
    view[PARENT] = parent;
    return view;
  };
}

function tracedMethod(tracker: Tracker, telemetry: Telemetry, name: PropertyKey, method: (...args: unknown[]) => unknown): (this: View, ...args: unknown[]) => unknown {
  const shape = typeof name === 'string' ? SPAN_SHAPES.get(name) : undefined;
  if (!shape) return (...args) => method.apply(tracker, args);
  return async function (this: View, ...args) {
    const span = telemetry.startChildSpan(shape.name, shape.attributes, this[PARENT]);
    try {
      return await method.apply(tracker, args);
    } catch (error) {
      span.fail(error instanceof PmError ? error.reason : error instanceof Error ? error.name : 'error');
      throw error;
    } finally {
      span.end();
    }
  };
}
