import type { HistogramMetricData, ResourceMetrics, SumMetricData } from '@opentelemetry/sdk-metrics';
import { MCP_DURATION_BOUNDARIES } from '../../../../src/adapters/node/otel-metric-sums.js';
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

test('counters are cumulative across collections and ignore negative additions', async () => {
  const probe = otelProbe();
  probe.telemetry.addToCounter('pm.mcp.requests', 2, { 'pm.mcp.era': 'legacy' });
  await probe.collect();
  probe.telemetry.addToCounter('pm.mcp.requests', 1, { 'pm.mcp.era': 'legacy' });
  probe.telemetry.addToCounter('pm.mcp.requests', -5, { 'pm.mcp.era': 'legacy' });
  const sum = metric<SumMetricData>(await probe.collect(), 'pm.mcp.requests')!;
  expect(sum.isMonotonic).toBe(true);
  expect(sum.dataPoints.map((p) => p.value)).toEqual([3]);
});
