/**
 * OpenTelemetry end to end: a real pm-mcp-http, configured only by standard OTEL_* variables,
 * sends OTLP/HTTP to a receiver this test starts on 127.0.0.1; the test checks the spans and
 * metrics that arrived. Then `pm mcp stats` reads the server's log back. pm-mcp over stdio does
 * the same from its bundle, which loads the OpenTelemetry SDK (dist/bundle/pm-otel.cjs) only then.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpPost, McpHttpProcesses, modernRequest } from '../support/mcp-http.js';
import { makeTempTracker, McpProcesses, modernMeta, RawMcpClient } from '../support/mcp-stdio.js';

const PM_BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));
const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Otlp = Record<string, any>;

const processes = new McpHttpProcesses();
const stdioProcesses = new McpProcesses();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await processes.killAll();
  await stdioProcesses.killAll();
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

/** An OTLP/HTTP receiver: every POST body, by path. */
async function receiver(): Promise<{ url: string; received: { path: string; body: Otlp }[] }> {
  const received: { path: string; body: Otlp }[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) as Otlp });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** Every span of the OTLP/HTTP trace exports received so far. */
const spansOf = (received: { path: string; body: Otlp }[]): Otlp[] =>
  received.filter((r) => r.path === '/v1/traces').flatMap((r) => r.body.resourceSpans.flatMap((rs: Otlp) => rs.scopeSpans.flatMap((ss: Otlp) => ss.spans)));

const attr = (span: Otlp, key: string) => {
  const value = span.attributes.find((a: Otlp) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue ?? value?.boolValue;
};

test('spans and metrics arrive over OTLP/HTTP, parented on the request trace context, and pm mcp stats reads the log', async () => {
  const otlp = await receiver();
  const tracker = await makeTempTracker('pm-otel-');
  cleanups.push(tracker.remove);
  const server = await processes.start(tracker.dir, { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_SERVICE_NAME: 'pm-otel-test', PM_MCP_PROFILE: 'full' });

  const list = modernRequest(1, 'tools/call', { name: 'pm_list', arguments: {} }, { meta: { traceparent: PARENT } });
  expect((await httpPost(server.url, list.body, list.headers)).status).toBe(200);
  const initialize = { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy-probe', version: '3.1' } } };
  expect((await httpPost(server.url, initialize, { accept: 'application/json, text/event-stream' })).status).toBe(200);

  server.proc.process.kill('SIGTERM');
  expect((await server.proc.exited).code).toBe(0);

  const spans = otlp.received.filter((r) => r.path === '/v1/traces').flatMap((r) => r.body.resourceSpans.flatMap((rs: Otlp) => rs.scopeSpans.flatMap((ss: Otlp) => ss.spans)));
  const resource = otlp.received.find((r) => r.path === '/v1/traces')!.body.resourceSpans[0].resource;
  expect(resource.attributes).toEqual(expect.arrayContaining([{ key: 'service.name', value: { stringValue: 'pm-otel-test' } }]));
  const call = spans.find((span: Otlp) => span.name === 'tools/call pm_list');
  expect(call).toBeDefined();
  expect(call.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  expect(call.parentSpanId).toBe('00f067aa0ba902b7');
  expect(call.kind).toBe(2); // SERVER
  expect([attr(call, 'mcp.method.name'), attr(call, 'gen_ai.tool.name'), attr(call, 'mcp.protocol.version'), attr(call, 'network.transport'), Number(attr(call, 'http.response.status_code'))]).toEqual(['tools/call', 'pm_list', '2026-07-28', 'tcp', 200]);
  const reads = spans.filter((span: Otlp) => span.name === 'pm.tracker list');
  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) expect([read.traceId, read.parentSpanId]).toEqual([call.traceId, call.spanId]);
  const init = spans.find((span: Otlp) => span.name === 'initialize');
  expect([attr(init, 'pm.mcp.era'), attr(init, 'mcp.protocol.version')]).toEqual(['legacy', '2025-11-25']);
  expect(init.traceId).not.toBe(call.traceId);

  const metrics = otlp.received.filter((r) => r.path === '/v1/metrics').flatMap((r) => r.body.resourceMetrics.flatMap((rm: Otlp) => rm.scopeMetrics.flatMap((sm: Otlp) => sm.metrics)));
  const names = metrics.map((metric: Otlp) => metric.name);
  expect(names).toEqual(expect.arrayContaining(['mcp.server.operation.duration', 'pm.mcp.requests']));
  const requests = metrics.find((metric: Otlp) => metric.name === 'pm.mcp.requests');
  const legacy = requests.sum.dataPoints.find((point: Otlp) => point.attributes.some((a: Otlp) => a.key === 'pm.mcp.client.name' && a.value.stringValue === 'legacy-probe'));
  expect(Number(legacy.asInt ?? legacy.asDouble)).toBe(1);

  const log = join(tracker.dir, 'server.log');
  await writeFile(log, server.proc.stderr());
  const stats = spawnSync(process.execPath, [PM_BIN, 'mcp', 'stats', '--log', log, '--json'], { cwd: tracker.dir, encoding: 'utf8' });
  expect(stats.status).toBe(0);
  const value = JSON.parse(stats.stdout) as Otlp;
  expect(value).toMatchObject({ legacyRequests: 1, modernRequests: 1, servers: 1 });
  expect(value.rows).toEqual([
    { era: 'legacy', revision: '2025-11-25', client: 'legacy-probe', clientVersion: '3.1', requests: 1 },
    { era: 'modern', revision: '2026-07-28', client: 'http-test', clientVersion: expect.any(String), requests: 1 },
  ]);
}, 60_000);

test('OTEL_TRACES_SAMPLER parentbased_traceidratio: a sampled parent from _meta, else the header, is followed; other requests at the ratio (0 here)', async () => {
  const otlp = await receiver();
  const tracker = await makeTempTracker('pm-otel-sampled-');
  cleanups.push(tracker.remove);
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_METRICS_EXPORTER: 'none', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0', PM_MCP_PROFILE: 'full' };
  const server = await processes.start(tracker.dir, env);
  const HEADER_PARENT = '00-5bf92f3577b34da6a3ce929d0e0e4736-10f067aa0ba902b7-01';
  const call = async (id: number, meta: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const request = modernRequest(id, 'tools/call', { name: 'pm_list', arguments: {} }, { meta });
    expect((await httpPost(server.url, request.body, { ...request.headers, ...headers })).status).toBe(200);
  };
  await call(1, { traceparent: PARENT });
  await call(2, {});
  await call(3, {}, { traceparent: HEADER_PARENT });
  await call(4, { traceparent: '00-6bf92f3577b34da6a3ce929d0e0e4736-20f067aa0ba902b7-00' }, { traceparent: HEADER_PARENT });
  server.proc.process.kill('SIGTERM');
  expect((await server.proc.exited).code).toBe(0);

  const calls = spansOf(otlp.received).filter((span: Otlp) => span.name === 'tools/call pm_list');
  expect(calls.map((span: Otlp) => [attr(span, 'jsonrpc.request.id'), span.traceId, span.parentSpanId]).sort()).toEqual([
    ['1', '4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7'],
    ['3', '5bf92f3577b34da6a3ce929d0e0e4736', '10f067aa0ba902b7'],
  ]);
  const reads = spansOf(otlp.received).filter((span: Otlp) => span.name === 'pm.tracker list');
  expect(new Set(reads.map((span: Otlp) => span.parentSpanId))).toEqual(new Set(calls.map((span: Otlp) => span.spanId)));
}, 60_000);

test('without OTEL_* variables the banner says OpenTelemetry is off', async () => {
  const tracker = await makeTempTracker('pm-otel-off-');
  cleanups.push(tracker.remove);
  const server = await processes.start(tracker.dir, {});
  server.proc.process.kill('SIGTERM');
  await server.proc.exited;
  expect(server.proc.stderr()).toContain('OpenTelemetry: off');
});

test('pm-mcp over stdio exports its spans too, parented on the request _meta trace context, and flushes them when stdin ends', async () => {
  const otlp = await receiver();
  const tracker = await makeTempTracker('pm-otel-stdio-');
  cleanups.push(tracker.remove);
  const proc = stdioProcesses.spawn(tracker.dir, { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_SERVICE_NAME: 'pm-otel-stdio', OTEL_METRICS_EXPORTER: 'none', PM_MCP_PROFILE: 'full' });
  const client = new RawMcpClient(proc);
  const listed = await client.request('tools/call', { name: 'pm_list', arguments: {}, _meta: { ...modernMeta(), traceparent: PARENT } });
  expect(listed.error).toBeUndefined();
  const other = await client.request('tools/call', { name: 'pm_list', arguments: {}, _meta: modernMeta() });
  expect(other.error).toBeUndefined();
  proc.endInput();
  expect((await proc.exited).code).toBe(0);
  expect(proc.stderr()).toContain('OpenTelemetry: traces over OTLP/HTTP');

  const spans = spansOf(otlp.received);
  const resource = otlp.received.find((r) => r.path === '/v1/traces')!.body.resourceSpans[0].resource;
  expect(resource.attributes).toEqual(expect.arrayContaining([{ key: 'service.name', value: { stringValue: 'pm-otel-stdio' } }]));
  const calls = spans.filter((span: Otlp) => span.name === 'tools/call pm_list');
  expect(calls).toHaveLength(2);
  const parented = calls.find((c: Otlp) => c.parentSpanId === '00f067aa0ba902b7')!;
  const unparented = calls.find((c: Otlp) => !c.parentSpanId)!;
  expect(parented.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  expect(unparented.traceId).not.toBe(parented.traceId);
  expect([attr(parented, 'mcp.method.name'), attr(parented, 'gen_ai.tool.name'), attr(parented, 'mcp.protocol.version'), attr(parented, 'network.transport')]).toEqual(['tools/call', 'pm_list', '2026-07-28', 'pipe']);
  const reads = spans.filter((span: Otlp) => span.name === 'pm.tracker list' && span.traceId === parented.traceId);
  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) expect(read.parentSpanId).toBe(parented.spanId);
  expect(otlp.received.some((r) => r.path === '/v1/metrics')).toBe(false);
}, 60_000);

test('pm-mcp without OTEL_* variables says nothing of OpenTelemetry and never loads its chunk', async () => {
  const tracker = await makeTempTracker('pm-otel-stdio-off-');
  cleanups.push(tracker.remove);
  const proc = stdioProcesses.spawn(tracker.dir, { NODE_DEBUG: 'module' }); // node logs every CommonJS load to stderr
  const client = new RawMcpClient(proc);
  expect((await client.request('tools/call', { name: 'pm_list', arguments: {}, _meta: modernMeta() })).error).toBeUndefined();
  proc.endInput();
  expect((await proc.exited).code).toBe(0);
  expect(proc.stderr()).toContain('bundle-loader.cjs'); // positive control: loads are logged (the bin's own loader)
  expect(proc.stderr()).not.toContain('OpenTelemetry');
  expect(proc.stderr()).not.toContain('pm-otel.cjs');
});
