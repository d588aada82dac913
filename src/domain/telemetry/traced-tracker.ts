import type { Telemetry, TelemetrySpan } from '../../ports/telemetry.js';
import { PmError } from '../errors/pm-error.js';
import type { Tracker } from '../tracker/tracker.js';

/**
 * Child spans for tracker reads and writes (operators see where a request's time went): each
 * call of one of the operations below, made while a request's span is active, becomes an
 * internal span `pm.tracker {operation}` with `pm.tracker.operation` and `pm.tracker.access`
 * (read or write). Arguments and item contents are never recorded. Calls made outside any
 * request (start-up, the index watch) create no span. The tracker itself is not changed: the
 * composition wraps it only when tracing is on. The span is not made active while the
 * operation runs: the operation runs on the untraced tracker, so nothing can start beneath it,
 * and a traced request is spared a context switch per tracker call.
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

/** `tracker` with its reads and writes traced through `telemetry`. */
export function traceTracker(tracker: Tracker, telemetry: Telemetry): Tracker {
  const wrapped = new Map<string, unknown>();
  return new Proxy(tracker, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      const access = typeof property === 'string' ? PM_TRACED_TRACKER_OPERATIONS[property] : undefined;
      if (access === undefined || typeof value !== 'function') return value;
      let traced = wrapped.get(property as string);
      if (!traced) {
        const method = value as (...args: unknown[]) => Promise<unknown>;
        const name = `pm.tracker ${String(property)}`;
        const attributes = { 'pm.tracker.operation': String(property), 'pm.tracker.access': access };
        traced = (...args: unknown[]) => {
          const span = telemetry.startChildSpan(name, attributes);
          if (!span) return method.apply(target, args);
          return settle(span, () => method.apply(target, args));
        };
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
