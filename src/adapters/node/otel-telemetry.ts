import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Histogram, type Meter, type ObservableResult, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, type MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, type Sampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Telemetry, TelemetryAttributes, TelemetryRemoteParent, TelemetrySpan } from '../../ports/telemetry.js';

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
 * values left out); counters are summed in memory per attribute set and read by the SDK only at
 * collection time (an observable counter), so a request adds to a number instead of going
 * through the SDK's per-call attribute hashing; histogram instruments are created once.
 */

/** What the adapter exports through. */
export interface OtelTelemetryOptions {
  readonly resource: Resource;
  /** Where finished spans go (a batch processor over an OTLP exporter, or an in-memory exporter in tests). */
  readonly spanProcessors: readonly SpanProcessor[];
  /** Where metrics go (a periodic reader over an OTLP exporter); none: metrics are not recorded. */
  readonly metricReaders?: readonly MetricReader[];
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

function attributesOf(attributes: TelemetryAttributes): Attributes {
  const out: Attributes = {};
  for (const key in attributes) if (attributes[key] !== undefined) out[key] = attributes[key];
  return out;
}

/** A counter's running sums, one per attribute set, read at collection (cumulative, monotonic). */
class CounterSums {
  private readonly sums = new Map<string, { readonly attributes: Attributes; value: number }>();

  add(value: number, attributes: TelemetryAttributes): void {
    if (!(value >= 0)) return; // a counter only grows (the SDK drops negative additions too)
    const key = keyOf(attributes);
    const sum = this.sums.get(key);
    if (sum) sum.value += value;
    else this.sums.set(key, { attributes: attributesOf(attributes), value });
  }

  observe(result: ObservableResult): void {
    for (const sum of this.sums.values()) result.observe(sum.value, sum.attributes);
  }
}

/** A key of an attribute set: its defined entries, sorted by name (the same set in any order). */
function keyOf(attributes: TelemetryAttributes): string {
  const names: string[] = [];
  for (const name in attributes) if (attributes[name] !== undefined) names.push(name);
  names.sort();
  let key = '';
  for (const name of names) {
    const value = attributes[name]!;
    key += `${name}\u0000${typeof value === 'string' ? 's' : typeof value === 'number' ? 'n' : 'b'}${String(value)}\u0000`;
  }
  return key;
}

class OtelSpan implements TelemetrySpan {
  private readonly started = performance.now();
  private ended: number | undefined;

  constructor(readonly span: Span) {}

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
  private readonly meter: Meter | undefined;
  private readonly propagator = new W3CTraceContextPropagator();
  private readonly counters = new Map<string, CounterSums>();
  private readonly histograms = new Map<string, Histogram>();

  constructor(options: OtelTelemetryOptions) {
    this.tracerProvider = new BasicTracerProvider({ resource: options.resource, spanProcessors: [...options.spanProcessors], ...(options.sampler ? { sampler: options.sampler } : {}) });
    this.tracer = this.tracerProvider.getTracer(options.scope, options.scopeVersion);
    if (options.metricReaders?.length) {
      this.meterProvider = new MeterProvider({ resource: options.resource, readers: [...options.metricReaders] });
      this.meter = this.meterProvider.getMeter(options.scope, options.scopeVersion);
    }
  }

  startServerSpan(name: string, attributes: TelemetryAttributes, remoteParent: TelemetryRemoteParent | undefined): TelemetrySpan {
    const parent: Context = remoteParent ? this.propagator.extract(ROOT_CONTEXT, remoteParent, GETTER) : ROOT_CONTEXT;
    const root = trace.getSpanContext(parent) === undefined;
    return new OtelSpan(this.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: attributesOf(attributes), root }, parent));
  }

  startChildSpan(name: string, attributes: TelemetryAttributes, parent: TelemetrySpan): TelemetrySpan {
    if (!(parent instanceof OtelSpan)) throw new TypeError('startChildSpan needs a parent span of this telemetry');
    return new OtelSpan(this.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes: attributesOf(attributes) }, trace.setSpan(ROOT_CONTEXT, parent.span)));
  }

  addToCounter(name: string, value: number, attributes: TelemetryAttributes): void {
    if (!this.meter) return;
    let counter = this.counters.get(name);
    if (!counter) {
      const sums = (counter = new CounterSums());
      this.counters.set(name, sums);
      this.meter.createObservableCounter(name).addCallback((result) => sums.observe(result));
    }
    counter.add(value, attributes);
  }

  recordHistogram(name: string, value: number, attributes: TelemetryAttributes, unit?: string): void {
    if (!this.meter) return;
    let histogram = this.histograms.get(name);
    if (!histogram) this.histograms.set(name, (histogram = this.meter.createHistogram(name, unit ? { unit } : {})));
    histogram.record(value, attributesOf(attributes));
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.tracerProvider.shutdown(), this.meterProvider?.shutdown()]);
  }
}
