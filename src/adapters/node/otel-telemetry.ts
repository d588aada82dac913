import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, type MetricProducer, type MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, type Sampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Telemetry, TelemetryAttributes, TelemetryRemoteParent, TelemetrySpan } from '../../ports/telemetry.js';
import { attributesOf, OtelMetricSums } from './otel-metric-sums.js';

/**
 * The Telemetry port over the official OpenTelemetry SDK (seed 004 "Removed, migrated, and
 * deprecated behavior": remote operations use host OpenTelemetry). Nothing is registered
 * globally: this adapter owns its tracer provider and meter provider, so a host's own
 * OpenTelemetry setup and pm's never share state. A server span's parent is extracted from the
 * request's own `traceparent`/`tracestate` onto the root context; a child span's parent is the
 * span its caller passes. No context manager is used at all: on Node 20 an AsyncLocalStorage
 * context manager installs a promise hook that runs for every promise of the process (and
 * takes V8 off its fast await path), which cost a traced server more than the spans themselves.
 *
 * A traced request stays cheap: attributes are copied once, straight onto the span (undefined
 * values left out); counters and histograms are summed in memory per attribute set and handed to
 * the SDK's metric readers only at collection ({@link OtelMetricSums}, a MetricProducer), so a
 * request adds to numbers instead of going through the SDK's per-call attribute hashing.
 */

/** What the adapter exports through. */
export interface OtelTelemetryOptions {
  readonly resource: Resource;
  /** Where finished spans go (a batch processor over an OTLP exporter, or an in-memory exporter in tests). */
  readonly spanProcessors: readonly SpanProcessor[];
  /**
   * Where metrics go (a periodic reader over an OTLP exporter), each built with pm's metrics as
   * one of its `metricProducers`; none: metrics are not recorded.
   */
  readonly metricReaders?: (pmMetrics: MetricProducer) => readonly MetricReader[];
  /** Default: the SDK's, read from OTEL_TRACES_SAMPLER (parent-based always-on). */
  readonly sampler?: Sampler;
  /** The instrumentation scope name. */
  readonly scope: string;
  readonly scopeVersion?: string;
}

const GETTER = {
  keys: (carrier: TelemetryRemoteParent) => Object.keys(carrier),
  get: (carrier: TelemetryRemoteParent, key: string) => (key === 'traceparent' ? carrier.traceparent : key === 'tracestate' ? carrier.tracestate : undefined),
};

class OtelSpan implements TelemetrySpan {
  private readonly started = performance.now();
  private ended: number | undefined;
  private context: Context | undefined;

  constructor(readonly span: Span) {}

  /** The context holding this span, made once for all its children. */
  asParent(): Context {
    return (this.context ??= trace.setSpan(ROOT_CONTEXT, this.span));
  }

  setAttributes(attributes: TelemetryAttributes): void {
    for (const key in attributes) {
      const value = attributes[key];
      if (value !== undefined) this.span.setAttribute(key, value);
    }
  }

  fail(errorType: string, description?: string): void {
    this.span.setAttribute('error.type', errorType);
    this.span.setStatus({ code: SpanStatusCode.ERROR, ...(description !== undefined ? { message: description } : {}) });
  }

  end(): number {
    if (this.ended === undefined) {
      this.ended = (performance.now() - this.started) / 1000;
      this.span.end();
    }
    return this.ended;
  }
}

/** The OpenTelemetry adapter of {@link Telemetry}. */
export class OtelTelemetry implements Telemetry {
  private readonly tracerProvider: BasicTracerProvider;
  private readonly meterProvider: MeterProvider | undefined;
  private readonly tracer: Tracer;
  private readonly propagator = new W3CTraceContextPropagator();
  private readonly metrics: OtelMetricSums | undefined;

  constructor(options: OtelTelemetryOptions) {
    this.tracerProvider = new BasicTracerProvider({ resource: options.resource, spanProcessors: [...options.spanProcessors], ...(options.sampler ? { sampler: options.sampler } : {}) });
    this.tracer = this.tracerProvider.getTracer(options.scope, options.scopeVersion);
    if (options.metricReaders) {
      const metrics = new OtelMetricSums(options.resource, { name: options.scope, ...(options.scopeVersion !== undefined ? { version: options.scopeVersion } : {}) });
      const readers = options.metricReaders(metrics);
      if (readers.length) {
        // The SDK's meter provider binds the readers (they collect through it, and pm's sums with it).
        this.meterProvider = new MeterProvider({ resource: options.resource, readers: [...readers] });
        this.metrics = metrics;
      }
    }
  }

  startServerSpan(name: string, attributes: TelemetryAttributes, remoteParent: TelemetryRemoteParent | undefined): TelemetrySpan {
    // No context manager: the parent is the remote one when valid, else the root context.
    const parent: Context = remoteParent ? this.propagator.extract(ROOT_CONTEXT, remoteParent, GETTER) : ROOT_CONTEXT;
    return new OtelSpan(this.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: attributesOf(attributes) }, parent));
  }

  startChildSpan(name: string, attributes: TelemetryAttributes, parent: TelemetrySpan): TelemetrySpan {
    if (!(parent instanceof OtelSpan)) throw new TypeError('startChildSpan needs a parent span of this telemetry');
    return new OtelSpan(this.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes: attributesOf(attributes) }, parent.asParent()));
  }

  addToCounter(name: string, value: number, attributes: TelemetryAttributes): void {
    this.metrics?.add(name, value, attributes);
  }

  recordHistogram(name: string, value: number, attributes: TelemetryAttributes, unit?: string): void {
    this.metrics?.record(name, value, attributes, unit);
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.tracerProvider.shutdown(), this.meterProvider?.shutdown()]);
  }
}
