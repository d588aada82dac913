import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Histogram, type Meter, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { Telemetry, TelemetryAttributes, TelemetryObservation, TelemetryRemoteParent, TelemetrySpan } from '../../ports/telemetry.js';

/**
 * The Telemetry port over the official OpenTelemetry SDK (seed 004 "Removed, migrated, and
 * deprecated behavior": remote operations use host OpenTelemetry): spans of a tracer of the SDK's
 * tracer provider (its sampler, span processors and exporter), counters and histograms of a meter
 * of the SDK's meter provider. Nothing is registered globally, so a host's own OpenTelemetry setup
 * and pm's never share state. Every span is started with an explicit parent context and never the
 * "active" one (OpenTelemetry trace API "Tracer": a parent given as a Context): a server span's is
 * the request's own `traceparent`/`tracestate` extracted by the official W3C propagator onto the
 * root context, a child span's is its caller's span set on the root context. No context manager
 * is involved, so no async-context hook runs and no request can see another's span.
 *
 * A span's attributes are set once the sampler has decided to record it (the API's isRecording:
 * nothing is computed for a span that is dropped), not passed at start: the samplers
 * OTEL_TRACES_SAMPLER can name decide by trace id and parent only, and at a production ratio most
 * spans are dropped. Counters are asynchronous instruments over counts pm keeps anyway, read at
 * each collection; histograms are the SDK's, recorded per request.
 */

/** The semantic conventions' explicit boundaries for MCP durations, in seconds (`mcp.server.operation.duration`). */
export const MCP_DURATION_BOUNDARIES: readonly number[] = Object.freeze([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);

/** What the adapter records through. */
export interface OtelTelemetryOptions {
  /** The SDK's tracer provider (its sampler and span processors decide what is kept and where it goes). */
  readonly tracerProvider: BasicTracerProvider;
  /** The SDK's meter provider; none: counters and histograms are not recorded. */
  readonly meterProvider?: MeterProvider;
  /** The instrumentation scope. */
  readonly scope: string;
  readonly scopeVersion?: string;
}

const GETTER = {
  keys: (carrier: TelemetryRemoteParent) => Object.keys(carrier),
  get: (carrier: TelemetryRemoteParent, key: string) => (key === 'traceparent' ? carrier.traceparent : key === 'tracestate' ? carrier.tracestate : undefined),
};

/** A span of the SDK behind the port's span: its duration is measured whether or not it is sampled. */
class OtelSpan implements TelemetrySpan {
  private readonly startedAt = performance.now();
  private endedAt: number | undefined;

  constructor(readonly span: Span) {}

  isRecording(): boolean {
    return this.span.isRecording();
  }

  setAttributes(attributes: TelemetryAttributes): void {
    this.span.setAttributes(attributes as Attributes); // the SDK skips undefined values
  }

  fail(errorType: string, description?: string): void {
    this.span.setAttribute('error.type', errorType);
    this.span.setStatus(description !== undefined ? { code: SpanStatusCode.ERROR, message: description } : { code: SpanStatusCode.ERROR });
  }

  end(): number {
    if (this.endedAt === undefined) {
      this.endedAt = performance.now();
      this.span.end();
    }
    return (this.endedAt - this.startedAt) / 1000;
  }
}

/** Only the defined values (a metric series is its attribute set, and `undefined` is no value): the object itself when it has no other. */
function defined(attributes: TelemetryAttributes): Attributes {
  let complete = true;
  for (const key in attributes) if (attributes[key] === undefined) complete = false;
  if (complete) return attributes as Attributes;
  const out: Attributes = {};
  for (const key in attributes) if (attributes[key] !== undefined) out[key] = attributes[key];
  return out;
}

/** The OpenTelemetry adapter of {@link Telemetry}. */
export class OtelTelemetry implements Telemetry {
  private readonly tracer: Tracer;
  private readonly meter: Meter | undefined;
  private readonly propagator = new W3CTraceContextPropagator();
  private readonly histograms = new Map<string, Histogram>();

  constructor(private readonly options: OtelTelemetryOptions) {
    this.tracer = options.tracerProvider.getTracer(options.scope, options.scopeVersion);
    this.meter = options.meterProvider?.getMeter(options.scope, options.scopeVersion);
  }

  startServerSpan(name: string, attributes: TelemetryAttributes, remoteParent: TelemetryRemoteParent | undefined): TelemetrySpan {
    const parent = remoteParent ? this.propagator.extract(ROOT_CONTEXT, remoteParent, GETTER) : ROOT_CONTEXT;
    return this.start(name, SpanKind.SERVER, attributes, parent);
  }

  startChildSpan(name: string, attributes: TelemetryAttributes, parent: TelemetrySpan): TelemetrySpan {
    if (!(parent instanceof OtelSpan)) throw new TypeError('startChildSpan needs a parent span of this telemetry');
    return this.start(name, SpanKind.INTERNAL, attributes, trace.setSpan(ROOT_CONTEXT, parent.span));
  }

  private start(name: string, kind: SpanKind, attributes: TelemetryAttributes, parent: Context): OtelSpan {
    const span = this.tracer.startSpan(name, { kind }, parent);
    if (span.isRecording()) span.setAttributes(attributes as Attributes); // the SDK skips undefined values
    return new OtelSpan(span);
  }

  observeCounter(name: string, observe: () => Iterable<TelemetryObservation>): void {
    this.meter?.createObservableCounter(name).addCallback((result) => {
      for (const { value, attributes } of observe()) result.observe(value, defined(attributes));
    });
  }

  recordHistogram(name: string, value: number, attributes: TelemetryAttributes, unit?: string): void {
    if (!this.meter || !Number.isFinite(value)) return;
    let histogram = this.histograms.get(name);
    if (!histogram) {
      const advice = unit === 's' ? { advice: { explicitBucketBoundaries: [...MCP_DURATION_BOUNDARIES] } } : {};
      this.histograms.set(name, (histogram = this.meter.createHistogram(name, { ...(unit !== undefined ? { unit } : {}), ...advice })));
    }
    histogram.record(value, defined(attributes));
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.options.tracerProvider.shutdown(), this.options.meterProvider?.shutdown()]);
  }
}
