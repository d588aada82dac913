import { MetricReader, type MetricProducer, type MetricReaderOptions, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { OtelTelemetry } from '../../src/adapters/node/otel-telemetry.js';
import type { RecordedSpan } from '../../src/adapters/memory/memory-telemetry.js';
import type { TelemetryProbe } from '../unit/adapters/telemetry-contract.js';

/** A metric reader a test collects from on demand. */
class CollectingReader extends MetricReader {
  constructor(options: MetricReaderOptions) {
    super(options);
  }

  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

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

/** The OpenTelemetry adapter over an in-memory span exporter and an on-demand metric reader. */
export function otelProbe(): TelemetryProbe & { readonly exporter: InMemorySpanExporter; collect(): Promise<ResourceMetrics> } {
  const exporter = new InMemorySpanExporter();
  let reader!: CollectingReader;
  const metricReaders = (pmMetrics: MetricProducer) => [(reader = new CollectingReader({ metricProducers: [pmMetrics] }))];
  const telemetry = new OtelTelemetry({ resource: resourceFromAttributes({ 'service.name': 'pm-test' }), scope: 'pm-test', spans: [new SimpleSpanProcessor(exporter)], metricReaders });
  return {
    telemetry,
    exporter,
    collect: async () => ((await reader.collect()) as { resourceMetrics: ResourceMetrics }).resourceMetrics,
    spans: async () => exporter.getFinishedSpans().map(recordOf),
    async counter(name, attributes) {
      const { resourceMetrics } = (await reader.collect()) as { resourceMetrics: ResourceMetrics };
      let sum = 0;
      for (const scope of resourceMetrics.scopeMetrics)
        for (const metric of scope.metrics)
          if (metric.descriptor.name === name)
            for (const point of metric.dataPoints) if (JSON.stringify(point.attributes) === JSON.stringify(attributes)) sum += point.value as number;
      return sum;
    },
  };
}
