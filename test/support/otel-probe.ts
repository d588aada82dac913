import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type Sampler } from '@opentelemetry/sdk-trace-base';
import { OtelTelemetry } from '../../src/adapters/node/otel-telemetry.js';
import type { RecordedSpan } from '../../src/adapters/memory/memory-telemetry.js';
import type { TelemetryProbe } from '../unit/adapters/telemetry-contract.js';

/** A finished OpenTelemetry span as the in-memory adapter records it. */
export function recordOf(span: ReadableSpan): RecordedSpan {
  const attributes: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(span.attributes)) if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') attributes[key] = value;
  return {
    name: span.name,
    kind: span.kind === 1 ? 'server' : 'internal',
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes,
    error: span.status.code === 2 ? { type: String(span.attributes['error.type']), description: span.status.message } : undefined,
  };
}

/**
 * The OpenTelemetry adapter over the official SDK with its in-memory exporters: spans through a
 * simple span processor to an InMemorySpanExporter, metrics through a periodic reader (never due
 * on its own; `collect` flushes it) to an InMemoryMetricExporter.
 */
export function otelProbe(sampler?: Sampler): TelemetryProbe & { readonly exporter: InMemorySpanExporter; collect(): Promise<ResourceMetrics> } {
  const resource = resourceFromAttributes({ 'service.name': 'pm-test' });
  const exporter = new InMemorySpanExporter();
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 2 ** 30 });
  const telemetry = new OtelTelemetry({
    tracerProvider: new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)], ...(sampler ? { sampler } : {}) }),
    meterProvider: new MeterProvider({ resource, readers: [reader] }),
    scope: 'pm-test',
  });
  const collect = async () => {
    await reader.forceFlush();
    return metricExporter.getMetrics().at(-1)!;
  };
  return {
    telemetry,
    exporter,
    collect,
    spans: async () => exporter.getFinishedSpans().map(recordOf),
    async counter(name, attributes) {
      let sum = 0;
      for (const scope of (await collect()).scopeMetrics)
        for (const metric of scope.metrics)
          if (metric.descriptor.name === name)
            for (const point of metric.dataPoints) if (JSON.stringify(point.attributes) === JSON.stringify(attributes)) sum += point.value as number;
      return sum;
    },
  };
}
