import type { TransportFacts } from '../../ports/transport.js';
import type { McpEra } from './protocol.js';
import type { McpRequestContext } from './request-context.js';
import type { JsonObject, JsonRpcId } from './wire-types.js';

/**
 * Request observers: the dispatcher's extension point for what watches requests from the
 * outside — OpenTelemetry server spans and metrics, the legacy-use counts (seed 004 "Rollout,
 * rollback, and proof": the adapter is removed only on usage evidence). An observer sees every
 * request a connection runs, from the moment its era is decided to the message that ends it,
 * including refusals and errors no method handler ever sees; it never changes what is answered.
 * With no observer registered the dispatcher does no work for them at all.
 */

/** What an observer learns when a request arrives (before its context is resolved). */
export interface McpObservedRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly era: McpEra;
  /** The raw params, `_meta` included (never to be recorded wholesale: they hold argument values). */
  readonly params: JsonObject | undefined;
  readonly facts: TransportFacts;
}

/** How a request ended. */
export type McpObservedOutcome =
  /** A result; `toolError` when it is a tool result with `isError: true`. */
  | { readonly kind: 'result'; readonly toolError: boolean }
  /** A JSON-RPC error response with this code. */
  | { readonly kind: 'error'; readonly code: number }
  /** The transport answered (or refused) it itself during admission. */
  | { readonly kind: 'refused' }
  /** Cancelled by the client; nothing more was written. */
  | { readonly kind: 'cancelled' };

/** One observed request. */
export interface McpRequestObservation {
  /** Runs the request's work inside the observation (a tracer makes its span the active one). */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** The request's context, once it has been resolved (revision, client identity). */
  resolved?(ctx: McpRequestContext): void;
  /** The request ended; `httpStatus` when the transport reports one. */
  end(outcome: McpObservedOutcome, httpStatus: number | undefined): void;
}

/** Watches requests; returns undefined for a request it does not care about. */
export interface McpRequestObserver {
  observe(request: McpObservedRequest): McpRequestObservation | undefined;
}

/** Several observations as one (the first runs outermost). */
class CombinedObservation implements McpRequestObservation {
  constructor(private readonly parts: readonly McpRequestObservation[]) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.parts.reduceRight<() => Promise<T>>((inner, part) => () => part.run(inner), work)();
  }

  resolved(ctx: McpRequestContext): void {
    for (const part of this.parts) part.resolved?.(ctx);
  }

  end(outcome: McpObservedOutcome, httpStatus: number | undefined): void {
    for (const part of this.parts) part.end(outcome, httpStatus);
  }
}

/** The observation of `request` by every observer, or undefined when none cares (the common, free case). */
export function observeMcpRequest(observers: readonly McpRequestObserver[], request: McpObservedRequest): McpRequestObservation | undefined {
  if (observers.length === 0) return undefined;
  if (observers.length === 1) return observers[0]!.observe(request);
  const parts: McpRequestObservation[] = [];
  for (const observer of observers) {
    const part = observer.observe(request);
    if (part) parts.push(part);
  }
  return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : new CombinedObservation(parts);
}

/** True when a tools/call result body reports a tool error (`isError: true`). */
export function isMcpToolErrorBody(method: string, body: unknown): boolean {
  return method === 'tools/call' && typeof body === 'object' && body !== null && (body as { isError?: unknown }).isError === true;
}
