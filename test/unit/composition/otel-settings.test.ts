import { settingsFromEnv, SettingsError } from '../../../src/composition/settings.js';

const otel = (env: NodeJS.ProcessEnv) => {
  const { batch: _batch, sampling: _sampling, ...rest } = settingsFromEnv(env, '/work', 'alice').otel;
  return rest;
};
const batch = (env: NodeJS.ProcessEnv) => settingsFromEnv(env, '/work', 'alice').otel.batch;
const sampling = (env: NodeJS.ProcessEnv) => settingsFromEnv(env, '/work', 'alice').otel.sampling;

test('off by default and with OTEL_SDK_DISABLED or the none exporter', () => {
  expect(otel({})).toEqual({ traces: false, metrics: false, captureContent: false });
  expect(otel({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toMatchObject({ traces: false, metrics: false });
  expect(otel({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_METRICS_EXPORTER: 'none' })).toMatchObject({ traces: true, metrics: false });
});

test('an OTLP endpoint or the otlp exporter turns a signal on', () => {
  expect(otel({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toEqual({ traces: true, metrics: true, captureContent: false });
  expect(otel({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toMatchObject({ traces: true, metrics: false });
  expect(otel({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' })).toEqual({ traces: true, metrics: false, captureContent: true });
});

test('an exporter or protocol pm does not ship is refused, naming the variable', () => {
  expect(() => otel({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(SettingsError);
  expect(() => otel({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
  expect(() => otel({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL.*http\/json/);
});

test('PM_MCP_LEGACY is on or off', () => {
  expect(settingsFromEnv({}, '/work', 'alice').legacyAdapter).toBe('on');
  expect(settingsFromEnv({ PM_MCP_LEGACY: 'off' }, '/work', 'alice').legacyAdapter).toBe('off');
  expect(() => settingsFromEnv({ PM_MCP_LEGACY: 'maybe' }, '/work', 'alice')).toThrow(/PM_MCP_LEGACY/);
});

test('the batch span processor takes OTEL_BSP_*, with the specification defaults but a delay of a second', () => {
  expect(batch({})).toEqual({ scheduledDelayMillis: 1000, exportTimeoutMillis: 30_000, maxQueueSize: 2048, maxExportBatchSize: 512 });
  expect(batch({ OTEL_BSP_SCHEDULE_DELAY: '5000', OTEL_BSP_EXPORT_TIMEOUT: '10000', OTEL_BSP_MAX_QUEUE_SIZE: '4096', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512' })).toEqual({
    scheduledDelayMillis: 5000,
    exportTimeoutMillis: 10_000,
    maxQueueSize: 4096,
    maxExportBatchSize: 512,
  });
  expect(batch({ OTEL_BSP_MAX_QUEUE_SIZE: '64' }).maxExportBatchSize).toBe(64);
  expect(() => batch({ OTEL_BSP_SCHEDULE_DELAY: 'soon' })).toThrow(/OTEL_BSP_SCHEDULE_DELAY must be a whole number/);
  expect(() => batch({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '0' })).toThrow(/OTEL_BSP_MAX_EXPORT_BATCH_SIZE must be greater than 0/);
});

test('the sampler is OTEL_TRACES_SAMPLER with OTEL_TRACES_SAMPLER_ARG as its ratio, parent-based always-on by default', () => {
  expect(sampling({})).toEqual({ sampler: 'parentbased_always_on', ratio: 1 });
  expect(sampling({ OTEL_TRACES_SAMPLER: 'ParentBased_TraceIdRatio', OTEL_TRACES_SAMPLER_ARG: '0.25' })).toEqual({ sampler: 'parentbased_traceidratio', ratio: 0.25 });
  expect(sampling({ OTEL_TRACES_SAMPLER: 'always_off' })).toEqual({ sampler: 'always_off', ratio: 1 });
  expect(() => sampling({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER must be/);
  expect(() => sampling({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' })).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/);
});
