import type { Telemetry } from '../ports/telemetry.js';
import type { OtelExportWorkerData } from './otel-export-worker.js';
import { otelWanted, type OtelSettings } from './otel-settings.js';
import { packageInfo } from './package-info.js';

/** How many ended spans the request thread gathers before posting them to the export thread, and how long it waits at most (ms). */
const WORKER_BATCH_SPANS = 64;
const WORKER_BATCH_DELAY_MS = 100;

/**
 * Builds the OpenTelemetry adapter when the OTEL_* settings turn traces or metrics on, and
 * nothing otherwise: the @opentelemetry packages are imported only then, so a server without
 * OpenTelemetry loads none of them and its dispatcher has no tracing observer at all. Spans go
 * through the official batch span processor (the OTEL_BSP_* settings) to the OTLP/HTTP exporter;
 * with `exportThread` (pm-mcp-http) both run on a worker thread of their own, fed batches of
 * ended spans, so the serialization and sending take no time from the requests; without it
 * (pm-mcp, whose single-file bundle has no worker script) they run on the main thread. Metrics go
 * through a periodic reader that also collects pm's own counter and histogram sums; both
 * exporters take their endpoint, headers and timeouts from the standard variables, and the
 * resource adds OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES over pm's own service name.
 */
export async function createOtelTelemetry(settings: OtelSettings, serviceName: string, exportThread = false): Promise<Telemetry | undefined> {
  if (!otelWanted(settings)) return undefined;
  const [{ OtelTelemetry }, { BatchSpanProcessor }, { OTLPTraceExporter }, metrics, { OTLPMetricExporter }, parts] = await Promise.all([
    import('../adapters/node/otel-telemetry.js'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
    import('./otel-sdk-parts.js'),
  ]);
  const { version } = packageInfo();
  const scope = { name: '@unbrained/pm-cli', version };
  const spans = !settings.traces ? [] : exportThread ? await exportWorkerSink({ serviceName, version, scope, batch: settings.batch }) : [new BatchSpanProcessor(new OTLPTraceExporter(), settings.batch)];
  return new OtelTelemetry({
    resource: parts.otelResource(serviceName, version),
    scope: scope.name,
    scopeVersion: version,
    sampler: parts.otelSampler(settings.sampling),
    spans,
    metricReaders: (pmMetrics) => (settings.metrics ? [new metrics.PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), metricProducers: [pmMetrics] })] : []),
  });
}

/** The span export thread (otel-export-worker.js beside this module) behind a sink that posts it batches. */
async function exportWorkerSink(data: OtelExportWorkerData) {
  const [{ Worker }, { WorkerSpanSink }] = await Promise.all([import('node:worker_threads'), import('../adapters/node/otel-worker-sink.js')]);
  const worker = new Worker(new URL('./otel-export-worker.js', import.meta.url), { workerData: data });
  return () => new WorkerSpanSink(worker, WORKER_BATCH_SPANS, WORKER_BATCH_DELAY_MS);
}
