import type { HistogramMetricData, ResourceMetrics, SumMetricData } from '@opentelemetry/sdk-metrics';
import { MCP_DURATION_BOUNDARIES } from '../../../../src/adapters/node/otel-telemetry.js';
import { otelSampler } from '../../../../src/composition/otel-composition.js';
import { otelProbe } from '../../../support/otel-probe.js';
import { describeTelemetryContract } from '../telemetry-contract.js';

describeTelemetryContract('OtelTelemetry', async () => otelProbe());

const metric = <T>(metrics: ResourceMetrics, name: string) => metrics.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name) as T | undefined;

test('a histogram reaches the reader as one series per attribute set, whatever the key order, with the MCP duration buckets', async () => {
  const probe = otelProbe();
  probe.telemetry.recordHistogram('mcp.server.operation.duration', 0.004, { 'mcp.method.name': 'tools/call', 'pm.mcp.era': 'modern', 'error.type': undefined }, 's');
  probe.telemetry.recordHistogram('mcp.server.operation.duration', 0.02, { 'pm.mcp.era': 'modern', 'mcp.method.name': 'tools/call' }, 's');
  probe.telemetry.recordHistogram('mcp.server.operation.duration', 400, { 'mcp.method.name': 'tools/call', 'pm.mcp.era': 'modern' }, 's');
  probe.telemetry.recordHistogram('mcp.server.operation.duration', 0.5, { 'mcp.method.name': 'tools/list', 'pm.mcp.era': 'modern' }, 's');
  probe.telemetry.recordHistogram('mcp.server.operation.duration', Number.NaN, { 'mcp.method.name': 'tools/list', 'pm.mcp.era': 'modern' }, 's');
  const histogram = metric<HistogramMetricData>(await probe.collect(), 'mcp.server.operation.duration')!;
  expect(histogram.descriptor.unit).toBe('s');
  expect(histogram.dataPoints).toHaveLength(2);
  const call = histogram.dataPoints.find((p) => p.attributes['mcp.method.name'] === 'tools/call')!;
  expect(call.attributes).toEqual({ 'mcp.method.name': 'tools/call', 'pm.mcp.era': 'modern' });
  expect(call.value).toMatchObject({ count: 3, min: 0.004, max: 400, buckets: { boundaries: [...MCP_DURATION_BOUNDARIES] } });
  expect(call.value.sum).toBeCloseTo(400.024);
  const counts = call.value.buckets.counts;
  expect(counts).toHaveLength(MCP_DURATION_BOUNDARIES.length + 1);
  expect([counts[0], counts[1], counts.at(-1)]).toEqual([1, 1, 1]); // 0.004 <= 0.01; 0.02 <= 0.02 (inclusive); 400 > 300
  expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
  expect(histogram.dataPoints.find((p) => p.attributes['mcp.method.name'] === 'tools/list')!.value.count).toBe(1);
});

test('an observed counter reaches the reader as a monotonic cumulative sum of the totals read at collection', async () => {
  const probe = otelProbe();
  let requests = 2;
  probe.telemetry.observeCounter('pm.mcp.requests', () => [{ value: requests, attributes: { 'pm.mcp.era': 'legacy', 'pm.mcp.client.name': undefined } }]);
  await probe.collect();
  requests = 3;
  const sum = metric<SumMetricData>(await probe.collect(), 'pm.mcp.requests')!;
  expect(sum.isMonotonic).toBe(true);
  expect(sum.dataPoints.map((p) => [p.value, p.attributes])).toEqual([[3, { 'pm.mcp.era': 'legacy' }]]);
});

test('with parent-based ratio sampling a sampled remote parent is followed, roots are kept at the ratio, and children take their server span decision', async () => {
  const sdk = await import('@opentelemetry/sdk-trace-base');
  const probe = otelProbe(otelSampler(sdk, { sampler: 'parentbased_traceidratio', ratio: 0.1 }));
  const followed = probe.telemetry.startServerSpan('followed', {}, { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
  probe.telemetry.startChildSpan('followed-child', {}, followed).end();
  followed.end();
  probe.telemetry.startServerSpan('declined', {}, { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00' }).end();
  let recording = 0;
  for (let i = 0; i < 2000; i++) {
    const root = probe.telemetry.startServerSpan('root', { 'pm.mcp.era': 'modern' }, undefined);
    if (root.isRecording()) recording++;
    probe.telemetry.startChildSpan('root-child', {}, root).end();
    expect(root.end()).toBeGreaterThanOrEqual(0); // measured whether sampled or not (the duration histogram)
  }
  const spans = await probe.spans();
  expect(spans.filter((s) => s.name.startsWith('followed')).map((s) => s.name)).toEqual(['followed-child', 'followed']);
  expect(spans.some((s) => s.name === 'declined')).toBe(false);
  const roots = spans.filter((s) => s.name === 'root');
  expect(roots.length).toBeGreaterThan(120); // 2000 x 0.1, more than five standard deviations either side
  expect(roots.length).toBeLessThan(280);
  expect(roots.length).toBe(recording);
  for (const root of roots) expect(root.attributes).toEqual({ 'pm.mcp.era': 'modern' });
  const children = spans.filter((s) => s.name === 'root-child');
  expect(new Set(children.map((s) => s.parentSpanId))).toEqual(new Set(roots.map((s) => s.spanId)));
});

test('each sampler name of OTEL_TRACES_SAMPLER is the official sampler', async () => {
  const sdk = await import('@opentelemetry/sdk-trace-base');
  const described = (sampler: Parameters<typeof otelSampler>[1]['sampler']) => otelSampler(sdk, { sampler, ratio: 0.25 }).toString();
  expect(described('always_on')).toBe('AlwaysOnSampler');
  expect(described('always_off')).toBe('AlwaysOffSampler');
  expect(described('traceidratio')).toBe('TraceIdRatioBased{0.25}');
  expect(described('parentbased_always_on')).toMatch(/^ParentBased\{root=AlwaysOnSampler/);
  expect(described('parentbased_always_off')).toMatch(/^ParentBased\{root=AlwaysOffSampler/);
  expect(described('parentbased_traceidratio')).toMatch(/^ParentBased\{root=TraceIdRatioBased\{0.25\}/);
});
