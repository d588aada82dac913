import { resourceFromAttributes, detectResources, envDetector, type Resource } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';
import type { OtelSamplerSettings } from './otel-settings.js';

/**
 * What the request thread and the span export thread build alike from the settings, so both
 * describe the same service: the resource (pm's service name and version, then
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES over them — OpenTelemetry resource SDK, the
 * environment detector) and the sampler OTEL_TRACES_SAMPLER names (OpenTelemetry SDK
 * environment variables: the official samplers, the parent-based ones with their default
 * delegates for sampled and unsampled parents).
 */
export function otelResource(serviceName: string, version: string): Resource {
  return resourceFromAttributes({ 'service.name': serviceName, 'service.version': version }).merge(detectResources({ detectors: [envDetector] }));
}

/** The official sampler of the settings. */
export function otelSampler({ sampler, ratio }: OtelSamplerSettings): Sampler {
  switch (sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}
