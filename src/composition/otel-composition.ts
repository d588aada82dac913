import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import type { Sampler } from '@opentelemetry/sdk-trace-base';
import type { Telemetry } from '../ports/telemetry.js';
import { otelWanted, type OtelSamplerSettings, type OtelSettings } from './otel-settings.js';
import { packageInfo } from './package-info.js';

type SdkTrace = typeof SdkTraceBase;

/**
 * Builds the OpenTelemetry adapter when the OTEL_* settings turn traces or metrics on, and
 * nothing otherwise: the @opentelemetry packages are imported only then, so a server without
 * OpenTelemetry loads none of them and its dispatcher has no tracing observer at all. Everything
 * is the official SDK, in process: the tracer provider with the sampler OTEL_TRACES_SAMPLER names,
 * the batch span processor (the OTEL_BSP_* settings) over the OTLP/HTTP trace exporter, and the
 * meter provider with a periodic reader over the OTLP/HTTP metric exporter. Both exporters take
 * their endpoint, headers and timeouts from the standard variables; the resource (OpenTelemetry
 * resource SDK, the environment detector) puts OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES over
 * pm's own service name and version.
 */
export async function createOtelTelemetry(settings: OtelSettings, serviceName: string): Promise<Telemetry | undefined> {
  if (!otelWanted(settings)) return undefined;
  const [{ OtelTelemetry }, sdkTrace, { OTLPTraceExporter }, { MeterProvider, PeriodicExportingMetricReader }, { OTLPMetricExporter }, { resourceFromAttributes, detectResources, envDetector }] = await Promise.all([
    import('../adapters/node/otel-telemetry.js'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const { version } = packageInfo();
  const resource = resourceFromAttributes({ 'service.name': serviceName, 'service.version': version }).merge(detectResources({ detectors: [envDetector] }));
  const spanProcessors = settings.traces ? [new sdkTrace.BatchSpanProcessor(new OTLPTraceExporter(), settings.batch)] : [];
  return new OtelTelemetry({
    tracerProvider: new sdkTrace.BasicTracerProvider({ resource, sampler: otelSampler(sdkTrace, settings.sampling), spanProcessors }),
    ...(settings.metrics ? { meterProvider: new MeterProvider({ resource, readers: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() })] }) } : {}),
    scope: '@unbrained/pm-cli',
    scopeVersion: version,
  });
}

/**
 * The official sampler the settings name (OpenTelemetry SDK environment variables,
 * OTEL_TRACES_SAMPLER: the parent-based ones with their default delegates for sampled and
 * unsampled parents). The settings were checked once at startup (otel-settings.ts), so an unknown
 * name never reaches the SDK's own reading of the variable, which would fall back silently.
 */
export function otelSampler(sdk: SdkTrace, { sampler, ratio }: OtelSamplerSettings): Sampler {
  switch (sampler) {
    case 'always_on':
      return new sdk.AlwaysOnSampler();
    case 'always_off':
      return new sdk.AlwaysOffSampler();
    case 'traceidratio':
      return new sdk.TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(ratio) });
  }
}
