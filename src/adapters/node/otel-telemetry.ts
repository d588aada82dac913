import { ROOT_CONTEXT, SamplingDecision, SpanKind, trace, TraceFlags, type Context, type SpanContext } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, type MetricProducer, type MetricReader } from '@opentelemetry/sdk-metrics';
import { AlwaysOnSampler, ParentBasedSampler, type Sampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Telemetry, TelemetryAttributes, TelemetryRemoteParent, TelemetrySpan } from '../../ports/telemetry.js';
import { OtelMetricSums } from './otel-metric-sums.js';
import { ProcessorSpanSink, type ClosableSpanSink } from './otel-processor-sink.js';
import { OtelRecordedSpan, randomHex, type SpanScope } from './otel-recorded-span.js';
import type { SpanBatchOrigin } from './otel-span-batch.js';

/**
 * The Telemetry port over OpenTelemetry (seed 004 "Removed, migrated, and deprecated behavior":
 * remote operations use host OpenTelemetry): spans of the official API, sampled by the official
 * SDK's samplers, exported by the official span processors and OTLP exporter. Nothing is
 * registered globally, so a host's own OpenTelemetry setup and pm's never share state. A server
 * span's parent is extracted from the request's own `traceparent`/`tracestate` (the official W3C
 * propagator) onto the root context; a child span's parent is the span its caller passes. No
 * context manager is used at all: on Node 20 an AsyncLocalStorage context manager installs a
 * promise hook that runs for every promise of the process.
 *
 * A traced request stays cheap. Its spans record into plain fields ({@link OtelRecordedSpan}) and
 * become the SDK's readable spans only once ended, in the finished-span sink: on this thread
 * (span processors given) or on an export thread (the composition's sink), which then also does
 * the OTLP serialization and sending. A child span takes its parent's sampling decision, which is
 * what every sampler OTEL_TRACES_SAMPLER names decides for a child of a local parent (parent-based
 * ones by the parent, trace-id ratio ones by the shared trace id). Counters and histograms are
 * summed in memory per attribute set and handed to the SDK's metric readers only at collection
 * ({@link OtelMetricSums}, a MetricProducer).
 */

/** What the adapter exports through. */
export interface OtelTelemetryOptions {
  readonly resource: Resource;
  /**
   * Where ended spans go: the SDK's span processors on this thread (an in-memory exporter in tests),
   * or a sink built from what the spans share (the export thread).
   */
  readonly spans: readonly SpanProcessor[] | ((origin: SpanBatchOrigin) => ClosableSpanSink);
  /**
   * Where metrics go (a periodic reader over an OTLP exporter), each built with pm's metrics as
   * one of its `metricProducers`; none: metrics are not recorded.
   */
  readonly metricReaders?: (pmMetrics: MetricProducer) => readonly MetricReader[];
  /** Default: parent-based always-on (the specification's default sampler). */
  readonly sampler?: Sampler;
  /** The instrumentation scope name. */
  readonly scope: string;
  readonly scopeVersion?: string;
}

const GETTER = {
  keys: (carrier: TelemetryRemoteParent) => Object.keys(carrier),
  get: (carrier: TelemetryRemoteParent, key: string) => (key === 'traceparent' ? carrier.traceparent : key === 'tracestate' ? carrier.tracestate : undefined),
};

/** The OpenTelemetry adapter of {@link Telemetry}. */
export class OtelTelemetry implements Telemetry {
  private readonly meterProvider: MeterProvider | undefined;
  private readonly sink: ClosableSpanSink;
  private readonly scope: SpanScope;
  private readonly sampler: Sampler;
  private readonly propagator = new W3CTraceContextPropagator();
  private readonly metrics: OtelMetricSums | undefined;

  constructor(options: OtelTelemetryOptions) {
    const instrumentationScope = { name: options.scope, ...(options.scopeVersion !== undefined ? { version: options.scopeVersion } : {}) };
    const origin: SpanBatchOrigin = { resource: options.resource, scope: instrumentationScope };
    this.sink = typeof options.spans === 'function' ? options.spans(origin) : new ProcessorSpanSink(options.spans, origin);
    this.scope = { sink: this.sink };
    this.sampler = options.sampler ?? new ParentBasedSampler({ root: new AlwaysOnSampler() });
    if (options.metricReaders) {
      const metrics = new OtelMetricSums(options.resource, instrumentationScope);
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
    const context: Context = remoteParent ? this.propagator.extract(ROOT_CONTEXT, remoteParent, GETTER) : ROOT_CONTEXT;
    const parent: SpanContext | undefined = remoteParent ? trace.getSpanContext(context) : undefined;
    const traceId = parent ? parent.traceId : randomHex(32);
    const sampled = this.sampler.shouldSample(context, traceId, name, SpanKind.SERVER, attributes, []);
    const recorded = sampled.decision === SamplingDecision.RECORD_AND_SAMPLED;
    const span = new OtelRecordedSpan(this.scope, name, SpanKind.SERVER, traceId, randomHex(16), recorded ? TraceFlags.SAMPLED : TraceFlags.NONE, sampled.traceState ?? parent?.traceState, parent, attributes);
    if (recorded && sampled.attributes) span.setAttributes(sampled.attributes);
    return span;
  }

  startChildSpan(name: string, attributes: TelemetryAttributes, parent: TelemetrySpan): TelemetrySpan {
    if (!(parent instanceof OtelRecordedSpan)) throw new TypeError('startChildSpan needs a parent span of this telemetry');
    return new OtelRecordedSpan(this.scope, name, SpanKind.INTERNAL, parent.traceId, randomHex(16), parent.traceFlags, parent.traceState, parent, attributes);
  }

  addToCounter(name: string, value: number, attributes: TelemetryAttributes): void {
    this.metrics?.add(name, value, attributes);
  }

  recordHistogram(name: string, value: number, attributes: TelemetryAttributes, unit?: string): void {
    this.metrics?.record(name, value, attributes, unit);
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.sink.shutdown(), this.meterProvider?.shutdown()]);
  }
}
