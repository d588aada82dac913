import { z } from 'zod';

/**
 * OpenTelemetry settings, read only from the standard OTEL_* variables (OpenTelemetry SDK
 * environment variable specification) and off unless they ask for it: traces (metrics) are on
 * when OTEL_TRACES_EXPORTER (OTEL_METRICS_EXPORTER) is `otlp`, or is unset while an OTLP
 * endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or the signal's own); `none`, or
 * OTEL_SDK_DISABLED=true, turns them off. pm ships the OTLP/HTTP JSON exporters, so another
 * exporter or protocol is refused at startup rather than silently ignored. The exporters read
 * the endpoint, headers and timeout variables themselves. The sampler is OTEL_TRACES_SAMPLER's
 * (the specification's names; default parentbased_always_on) with OTEL_TRACES_SAMPLER_ARG as the
 * ratio (default 1); an unknown sampler or a ratio outside [0, 1] is refused at startup.
 * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true is the opt-in to record tool arguments
 * on spans.
 *
 * The batch span processor takes the specification's OTEL_BSP_* variables, with the
 * specification's defaults except the delay: batches of up to 512 spans, sent at least every
 * second (not every five), so spans reach the collector soon.
 */

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, { message: `${name} must be a whole number` })
    .transform(Number)
    .refine((value) => value > 0 && Number.isSafeInteger(value), { message: `${name} must be greater than 0` })
    .optional();

const sampler = z.enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'], {
  message: 'OTEL_TRACES_SAMPLER must be always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio',
});
const ratio = z
  .string()
  .regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, { message: 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1' })
  .transform(Number)
  .optional();

const exporter = z.enum(['otlp', 'none'], { message: 'pm exports OpenTelemetry data with otlp (or none)' });
const protocol = z.enum(['http/json'], { message: 'pm ships the OTLP/HTTP JSON exporter: use http/json' });

export const otelSettingsSchema = z
  .object({
    disabled: z.boolean(),
    tracesExporter: exporter.optional(),
    metricsExporter: exporter.optional(),
    protocol: protocol.optional(),
    tracesProtocol: protocol.optional(),
    metricsProtocol: protocol.optional(),
    endpoint: z.boolean(),
    tracesEndpoint: z.boolean(),
    metricsEndpoint: z.boolean(),
    captureContent: z.boolean(),
    sampler: sampler.optional(),
    samplerArg: ratio,
    bspScheduleDelay: positiveInt('OTEL_BSP_SCHEDULE_DELAY'),
    bspExportTimeout: positiveInt('OTEL_BSP_EXPORT_TIMEOUT'),
    bspMaxQueueSize: positiveInt('OTEL_BSP_MAX_QUEUE_SIZE'),
    bspMaxExportBatchSize: positiveInt('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
  })
  .transform((raw) => {
    const on = (chosen: 'otlp' | 'none' | undefined, endpoint: boolean) => !raw.disabled && (chosen === 'otlp' || (chosen === undefined && (raw.endpoint || endpoint)));
    const maxQueueSize = raw.bspMaxQueueSize ?? 2048;
    const batch: OtelBatchSettings = {
      scheduledDelayMillis: raw.bspScheduleDelay ?? 1000,
      exportTimeoutMillis: raw.bspExportTimeout ?? 30_000,
      maxQueueSize,
      maxExportBatchSize: Math.min(raw.bspMaxExportBatchSize ?? 512, maxQueueSize),
    };
    const sampling: OtelSamplerSettings = { sampler: raw.sampler ?? 'parentbased_always_on', ratio: raw.samplerArg ?? 1 };
    return { traces: on(raw.tracesExporter, raw.tracesEndpoint), metrics: on(raw.metricsExporter, raw.metricsEndpoint), captureContent: raw.captureContent, batch, sampling };
  });

/** The batch span processor's settings (OTEL_BSP_*; a batch never exceeds the queue). */
export interface OtelBatchSettings {
  readonly scheduledDelayMillis: number;
  readonly exportTimeoutMillis: number;
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
}

/** The trace sampler (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG for the ratio samplers). */
export interface OtelSamplerSettings {
  readonly sampler: z.infer<typeof sampler>;
  readonly ratio: number;
}

/** The parsed OpenTelemetry settings. */
export type OtelSettings = z.infer<typeof otelSettingsSchema>;

/** The variable behind each field, for error messages. */
export const OTEL_ENV_NAMES: Readonly<Record<string, string>> = {
  'otel.tracesExporter': 'OTEL_TRACES_EXPORTER',
  'otel.metricsExporter': 'OTEL_METRICS_EXPORTER',
  'otel.protocol': 'OTEL_EXPORTER_OTLP_PROTOCOL',
  'otel.tracesProtocol': 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'otel.metricsProtocol': 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL',
  'otel.sampler': 'OTEL_TRACES_SAMPLER',
  'otel.samplerArg': 'OTEL_TRACES_SAMPLER_ARG',
  'otel.bspScheduleDelay': 'OTEL_BSP_SCHEDULE_DELAY',
  'otel.bspExportTimeout': 'OTEL_BSP_EXPORT_TIMEOUT',
  'otel.bspMaxQueueSize': 'OTEL_BSP_MAX_QUEUE_SIZE',
  'otel.bspMaxExportBatchSize': 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
};

const flag = (value: string | undefined) => value?.trim().toLowerCase() === 'true';
const text = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim().toLowerCase());

/** The raw input of {@link otelSettingsSchema} from an environment. */
export function otelSettingsInput(env: NodeJS.ProcessEnv): z.input<typeof otelSettingsSchema> {
  return {
    disabled: flag(env.OTEL_SDK_DISABLED),
    tracesExporter: text(env.OTEL_TRACES_EXPORTER) as 'otlp' | undefined,
    metricsExporter: text(env.OTEL_METRICS_EXPORTER) as 'otlp' | undefined,
    protocol: text(env.OTEL_EXPORTER_OTLP_PROTOCOL) as 'http/json' | undefined,
    tracesProtocol: text(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) as 'http/json' | undefined,
    metricsProtocol: text(env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL) as 'http/json' | undefined,
    endpoint: text(env.OTEL_EXPORTER_OTLP_ENDPOINT) !== undefined,
    tracesEndpoint: text(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) !== undefined,
    metricsEndpoint: text(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) !== undefined,
    captureContent: flag(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT),
    sampler: text(env.OTEL_TRACES_SAMPLER) as 'always_on' | undefined,
    samplerArg: env.OTEL_TRACES_SAMPLER_ARG?.trim() || undefined,
    bspScheduleDelay: env.OTEL_BSP_SCHEDULE_DELAY?.trim() || undefined,
    bspExportTimeout: env.OTEL_BSP_EXPORT_TIMEOUT?.trim() || undefined,
    bspMaxQueueSize: env.OTEL_BSP_MAX_QUEUE_SIZE?.trim() || undefined,
    bspMaxExportBatchSize: env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE?.trim() || undefined,
  };
}

/** Whether the settings turn any OpenTelemetry export on (traces or metrics). */
export function otelWanted(settings: OtelSettings): boolean {
  return settings.traces || settings.metrics;
}

/** How a server's start-up line names its OpenTelemetry export: what is on, or how to turn it on. */
export function describeOtel(settings: OtelSettings): string {
  if (!otelWanted(settings)) return 'off (set OTEL_EXPORTER_OTLP_ENDPOINT to export)';
  return `${[settings.traces ? 'traces' : '', settings.metrics ? 'metrics' : ''].filter(Boolean).join(' and ')} over OTLP/HTTP`;
}
