import type { Telemetry } from '../ports/telemetry.js';
import { otelWanted, type OtelSettings } from './otel-settings.js';
import { packageInfo } from './package-info.js';

/**
 * Builds the OpenTelemetry adapter when the OTEL_* settings turn traces or metrics on, and
 * nothing otherwise: the @opentelemetry packages are imported only then, so a server without
 * OpenTelemetry loads none of them and its dispatcher has no tracing observer at all. Spans go
 * through a batch processor (the OTEL_BSP_* settings) to the OTLP/HTTP exporter, metrics through
 * a periodic reader that also collects pm's own counter and histogram sums; both exporters take
 * their endpoint, headers and timeouts from the standard variables, and the resource adds
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES over pm's own service name.
 */
export async function createOtelTelemetry(settings: OtelSettings, serviceName: string): Promise<Telemetry | undefined> {
  if (!otelWanted(settings)) return undefined;
  const [{ OtelTelemetry }, { BatchSpanProcessor }, { OTLPTraceExporter }, metrics, { OTLPMetricExporter }, resources] = await Promise.all([
    import('../adapters/node/otel-telemetry.js'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const { version } = packageInfo();
  const resource = resources.resourceFromAttributes({ 'service.name': serviceName, 'service.version': version }).merge(resources.detectResources({ detectors: [resources.envDetector] }));
  return new OtelTelemetry({
    resource,
    scope: '@unbrained/pm-cli',
    scopeVersion: version,
    spanProcessors: settings.traces ? [new BatchSpanProcessor(new OTLPTraceExporter(), settings.batch)] : [],
    metricReaders: (pmMetrics) => (settings.metrics ? [new metrics.PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), metricProducers: [pmMetrics] })] : []),
  });
}
