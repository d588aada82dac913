import { MemoryTelemetry } from '../../../../src/adapters/memory/memory-telemetry.js';
import { createPmMcpMethodRegistry, PmMcpDispatcher, type PmMcpConnection } from '../../../../src/domain/mcp/index.js';
import { createPmTrackerMcpServer } from '../../../../src/domain/mcp-tracker/index.js';
import { MCP_SERVER_DURATION_METRIC, McpTracingObserver } from '../../../../src/domain/telemetry/mcp-tracing-observer.js';
import { McpRequestSpans } from '../../../../src/domain/telemetry/request-spans.js';
import { traceTracker } from '../../../../src/domain/telemetry/traced-tracker.js';
import { McpUsageCounter, PM_MCP_REQUESTS_METRIC } from '../../../../src/domain/telemetry/usage-counter.js';
import type { TransportFacts } from '../../../../src/ports/transport.js';
import { MODERN_META } from '../../../support/mcp-fake-server.js';
import { memoryTracker } from '../../../support/memory-tracker.js';

/**
 * The tracing observer over the real tracker server and dispatcher, recorded by the in-memory
 * Telemetry adapter: span names and attributes after the OpenTelemetry MCP conventions,
 * parentage from the request's own trace context only, tracker child spans, no argument values.
 */

const PARENT_A = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const PARENT_B = '00-1bf7651916cd43dd8448eb211c80319c-c7ad6b7169203331-01';

async function setup(options: { captureContent?: boolean; sample?: (name: string) => boolean } = {}) {
  const { sample, ...tracing } = options;
  const env = await memoryTracker();
  const telemetry = new MemoryTelemetry(sample ? { sample } : {});
  const usage = new McpUsageCounter({ telemetry });
  const spans = new McpRequestSpans();
  const server = createPmTrackerMcpServer({ tracker: env.tracker, trackerFor: traceTracker(env.tracker, telemetry, spans), fs: env.fs, serverInfo: { name: 'pm', version: '0.1.0' }, profile: 'full', legacyLogging: true });
  const dispatcher = new PmMcpDispatcher(server, createPmMcpMethodRegistry(server), { observers: [new McpTracingObserver(telemetry, { ...tracing, spans }), usage] });
  await dispatcher.prepare();
  const connection = dispatcher.connect();
  const send = async (message: unknown, facts: TransportFacts = { kind: 'stdio' }, on: PmMcpConnection = connection) => {
    const out: Record<string, unknown>[] = [];
    await on.dispatch(JSON.stringify(message), { facts, sink: { send: (m) => void out.push(JSON.parse(m.text) as Record<string, unknown>) } });
    return out;
  };
  return { env, telemetry, usage, dispatcher, send };
}

const call = (id: number, name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { ...MODERN_META, ...meta } } });

test('one server span per request, named and attributed after the MCP conventions, with tracker child spans', async () => {
  const { telemetry, send } = await setup();
  await send(call(1, 'pm_create', { title: 'secret plan' }, { traceparent: PARENT_A }));
  const server = telemetry.finished.find((span) => span.kind === 'server')!;
  expect(server).toMatchObject({
    name: 'tools/call pm_create',
    traceId: '0af7651916cd43dd8448eb211c80319c',
    parentSpanId: 'b7ad6b7169203331',
    attributes: { 'mcp.method.name': 'tools/call', 'jsonrpc.request.id': '1', 'gen_ai.tool.name': 'pm_create', 'gen_ai.operation.name': 'execute_tool', 'mcp.protocol.version': '2026-07-28', 'network.transport': 'pipe', 'pm.mcp.era': 'modern' },
    error: undefined,
  });
  const children = telemetry.finished.filter((span) => span.kind === 'internal');
  expect(children.map((span) => span.name)).toContain('pm.tracker create');
  for (const child of children) expect(child).toMatchObject({ traceId: server.traceId, parentSpanId: server.spanId });
  expect(children.find((span) => span.name === 'pm.tracker create')!.attributes).toEqual({ 'pm.tracker.operation': 'create', 'pm.tracker.access': 'write' });
  // No argument values or item contents anywhere unless the operator opts in.
  expect(JSON.stringify(telemetry.finished)).not.toContain('secret plan');
  expect(telemetry.histogram(MCP_SERVER_DURATION_METRIC, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'pm_create', 'network.transport': 'pipe', 'pm.mcp.era': 'modern', 'mcp.protocol.version': '2026-07-28' })).toHaveLength(1);
});

test('a request whose span is not sampled calls the tracker untraced, and its duration is still recorded', async () => {
  const { telemetry, send } = await setup({ sample: (name) => name !== 'tools/call pm_create' });
  await send(call(1, 'pm_create', { title: 'dropped' }));
  await send(call(2, 'pm_list', {}));
  expect(telemetry.started.filter((name) => name.startsWith('pm.tracker'))).toEqual(['pm.tracker list']);
  expect(telemetry.finished.map((span) => span.name).sort()).toEqual(['pm.tracker list', 'tools/call pm_list']);
  expect(telemetry.histogram(MCP_SERVER_DURATION_METRIC, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'pm_create', 'network.transport': 'pipe', 'pm.mcp.era': 'modern', 'mcp.protocol.version': '2026-07-28' })).toHaveLength(1);
});

test('the opt-in records tool arguments', async () => {
  const { telemetry, send } = await setup({ captureContent: true });
  await send(call(1, 'pm_create', { title: 'visible plan' }));
  expect(telemetry.finished.find((span) => span.kind === 'server')!.attributes['gen_ai.tool.call.arguments']).toBe('{"title":"visible plan"}');
});

test('errors and tool errors set error.type and rpc.response.status_code; resources carry mcp.resource.uri', async () => {
  const { telemetry, send } = await setup();
  await send({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'pm://items/pm-nope', _meta: MODERN_META } });
  await send(call(2, 'pm_get', { id: 'pm-nope' }));
  await send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
  const [read, get, bad] = telemetry.finished.filter((span) => span.kind === 'server');
  expect(read).toMatchObject({ name: 'resources/read', attributes: { 'mcp.resource.uri': 'pm://items/pm-nope', 'error.type': '-32602', 'rpc.response.status_code': '-32602' }, error: { type: '-32602' } });
  expect(get).toMatchObject({ name: 'tools/call pm_get', attributes: { 'error.type': 'tool_error' } });
  expect(get!.attributes).not.toHaveProperty('rpc.response.status_code');
  expect(bad).toMatchObject({ attributes: { 'error.type': '-32602' } });
});

test('trace context is never shared across requests: each span has only its own parent', async () => {
  const { telemetry, send } = await setup();
  await Promise.all([send(call(1, 'pm_list', {}, { traceparent: PARENT_A })), send(call(2, 'pm_list', {}, { traceparent: PARENT_B }))]);
  await send(call(3, 'pm_list', {}));
  await send({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, { kind: 'http', headers: { traceparent: PARENT_B, 'mcp-protocol-version': '2025-11-25' } });
  const servers = new Map(telemetry.finished.filter((span) => span.kind === 'server').map((span) => [span.attributes['jsonrpc.request.id'], span]));
  expect(servers.get('1')).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', parentSpanId: 'b7ad6b7169203331' });
  expect(servers.get('2')).toMatchObject({ traceId: '1bf7651916cd43dd8448eb211c80319c', parentSpanId: 'c7ad6b7169203331' });
  expect(servers.get('3')!.parentSpanId).toBeUndefined();
  expect([servers.get('1')!.traceId, servers.get('2')!.traceId]).not.toContain(servers.get('3')!.traceId);
  // Over HTTP the traceparent header is the parent when _meta has none; the span reports the legacy era.
  expect(servers.get('4')).toMatchObject({ traceId: '1bf7651916cd43dd8448eb211c80319c', attributes: { 'pm.mcp.era': 'legacy', 'mcp.protocol.version': '2025-11-25', 'network.transport': 'tcp', 'network.protocol.name': 'http' } });
  for (const child of telemetry.finished.filter((span) => span.kind === 'internal')) {
    const parent = telemetry.finished.find((span) => span.spanId === child.parentSpanId)!;
    expect(parent.traceId).toBe(child.traceId);
  }
});

test('concurrent requests: every tracker span is a child of its own request span, however their awaits interleave', async () => {
  const { env, telemetry, dispatcher, send } = await setup();
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) ids.push((await env.tracker.create({ title: `item ${i}` })).item.id);
  telemetry.finished.length = 0;
  // Tools (one tracker call or several), a resource read and a prompt, all in flight at once on
  // two connections, half with a remote parent: each child must sit under its own request.
  const requests = ids.flatMap((id, i) => [
    call(10 + i, 'pm_get', { id }, i % 2 ? { traceparent: PARENT_A } : {}),
    call(20 + i, 'pm_deps', { id }),
    call(30 + i, 'pm_comment', { id, text: `note ${i}` }, i % 2 ? {} : { traceparent: PARENT_B }),
    { jsonrpc: '2.0', id: 40 + i, method: 'resources/read', params: { uri: `pm://items/${id}`, _meta: MODERN_META } },
    { jsonrpc: '2.0', id: 50 + i, method: 'prompts/get', params: { name: 'claim-and-start', arguments: { id }, _meta: MODERN_META } },
  ]);
  const other = dispatcher.connect();
  await Promise.all(requests.map((request, i) => send(request, { kind: 'stdio' }, i % 2 ? other : undefined)));
  const servers = telemetry.finished.filter((span) => span.kind === 'server');
  expect(servers).toHaveLength(requests.length);
  const byRequest = new Map(servers.map((span) => [span.attributes['jsonrpc.request.id'], span]));
  const children = telemetry.finished.filter((span) => span.kind === 'internal');
  const expected: Record<string, string[]> = { '1': ['pm.tracker get'], '2': ['pm.tracker get', 'pm.tracker list'], '3': ['pm.tracker comment'], '4': ['pm.tracker get'], '5': ['pm.tracker get'] };
  for (const [requestId, server] of byRequest) {
    const own = children.filter((span) => span.parentSpanId === server.spanId);
    for (const child of own) expect(child.traceId).toBe(server.traceId);
    for (const name of expected[String(requestId).slice(0, 1)]!) expect(own.map((span) => span.name)).toContain(name);
  }
  // Every child has exactly one server span as its parent, in that span's trace.
  for (const child of children) expect(servers.filter((span) => span.spanId === child.parentSpanId && span.traceId === child.traceId)).toHaveLength(1);
  expect(byRequest.get('11')).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c' });
  expect(byRequest.get('30')).toMatchObject({ traceId: '1bf7651916cd43dd8448eb211c80319c' });
});

test('usage counts per era, revision and client reach the pm.mcp.requests counter', async () => {
  const { telemetry, usage, send } = await setup();
  await send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old-client', version: '0.9' } } });
  await send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  await send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: MODERN_META } });
  expect(usage.snapshot()).toEqual([
    { era: 'legacy', revision: '2025-06-18', client: 'old-client', clientVersion: '0.9', requests: 2 },
    { era: 'modern', revision: '2026-07-28', client: 'test-client', clientVersion: '1.0.0', requests: 1 },
  ]);
  expect(telemetry.counter(PM_MCP_REQUESTS_METRIC, { 'pm.mcp.era': 'legacy', 'mcp.protocol.version': '2025-06-18', 'pm.mcp.client.name': 'old-client', 'pm.mcp.client.version': '0.9' })).toBe(2);
});

test('without observers the dispatcher observes nothing', async () => {
  const env = await memoryTracker();
  const server = createPmTrackerMcpServer({ tracker: env.tracker, fs: env.fs, serverInfo: { name: 'pm', version: '0.1.0' }, profile: 'core' });
  const dispatcher = new PmMcpDispatcher(server, createPmMcpMethodRegistry(server));
  expect(dispatcher.observe({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'legacy', { kind: 'stdio' })).toBeUndefined();
});
