import type { Telemetry } from '../../ports/telemetry.js';
import { PmError } from '../errors/pm-error.js';
import type { Tracker } from '../tracker/tracker.js';

/**
 * Child spans for tracker reads and writes (operators see where a request's time went): each
 * call of one of the operations below, made while a request's span is active, becomes an
 * internal span `pm.tracker {operation}` with `pm.tracker.operation` and `pm.tracker.access`
 * (read or write). Arguments and item contents are never recorded. Calls made outside any
 * request (start-up, the index watch) create no span. The tracker itself is not changed: the
 * composition wraps it only when tracing is on.
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
        traced = async (...args: unknown[]) => {
          const span = telemetry.startChildSpan(`pm.tracker ${String(property)}`, { 'pm.tracker.operation': String(property), 'pm.tracker.access': access });
          if (!span) return method.apply(target, args);
          try {
            return await telemetry.withSpan(span, () => method.apply(target, args));
          } catch (error) {
            span.fail(error instanceof PmError ? error.reason : error instanceof Error ? error.name : 'error');
            throw error;
          } finally {
            span.end();
          }
        };
        wrapped.set(property as string, traced);
      }
      return traced;
    },
  });
}
