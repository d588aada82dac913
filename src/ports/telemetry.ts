/**
 * Traces and metrics for operators (seed 004 "Removed, migrated, and deprecated behavior":
 * remote operations use host OpenTelemetry). Shaped to what pm records: one server span per
 * MCP request whose remote parent comes only from that request's own W3C trace context, child
 * spans under a parent span the caller names, and counters and histograms. Nothing here keeps an
 * "active" span: a request's span travels with that request's own context, so no async-context
 * machinery runs for it and no span can leak into another request. Adapters: in memory (tests) and
 * OpenTelemetry (the official SDK, composed only when the standard OTEL_* variables ask for it).
 */

/** One attribute set's running total of a count pm keeps itself. */
export interface TelemetryObservation {
  readonly value: number;
  readonly attributes: TelemetryAttributes;
}

/** Span and metric attributes; undefined values are left out. */
export type TelemetryAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** W3C Trace Context of a remote parent (`traceparent`, optional `tracestate`). */
export interface TelemetryRemoteParent {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** One span being recorded. */
export interface TelemetrySpan {
  /**
   * Whether the span is recorded (sampled): a span that is not still measures its duration, but
   * children under it would not be recorded either, so callers need not start them.
   */
  isRecording(): boolean;
  setAttributes(attributes: TelemetryAttributes): void;
  /** Marks the span failed: status error and `error.type`, with an optional description. */
  fail(errorType: string, description?: string): void;
  /** Ends the span (once) and returns how long it lasted, in seconds. */
  end(): number;
}

/** Observability as pm needs it. */
export interface Telemetry {
  /**
   * Starts a server span. Its parent is `remoteParent` when given and valid, otherwise it is the
   * root of a new trace — never whatever span happens to be active (trace isolation).
   */
  startServerSpan(name: string, attributes: TelemetryAttributes, remoteParent: TelemetryRemoteParent | undefined): TelemetrySpan;
  /** Starts an internal span under `parent` (a span of this telemetry), in its trace. */
  startChildSpan(name: string, attributes: TelemetryAttributes, parent: TelemetrySpan): TelemetrySpan;
  /**
   * Reports the counter `name` from counts pm keeps itself: `observe` is read at each collection
   * and returns every attribute set's running total (an asynchronous counter), so counting a
   * request costs nothing here.
   */
  observeCounter(name: string, observe: () => Iterable<TelemetryObservation>): void;
  /** Records one value of the histogram `name` (unit given at first use, e.g. `s`). */
  recordHistogram(name: string, value: number, attributes: TelemetryAttributes, unit?: string): void;
  /** Exports what is pending and stops (process shutdown). */
  shutdown(): Promise<void>;
}
