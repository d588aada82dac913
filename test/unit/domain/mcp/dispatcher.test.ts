import type { Cancellable } from '../../../../src/ports/transport.js';
import { Gate, McpHarness, MODERN_META } from '../../../support/mcp-fake-server.js';

let h: McpHarness;
beforeEach(() => {
  h = new McpHarness();
});
afterEach(() => {
  // Every message the dispatcher wrote in the test was validated against the official schema.
  expect(h.problems).toEqual([]);
});

const serverInfoMeta = { 'io.modelcontextprotocol/serverInfo': { name: 'pm-test', version: '1.0.0', title: 'pm test server', description: 'fake' } };

describe('server/discover', () => {
  test('answers as the very first message, with the envelope built once and reused', async () => {
    const first = await h.modern(1, 'server/discover');
    expect(first.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      instructions: 'Test server. Use echo to echo.',
      ttlMs: 3_600_000,
      cacheScope: 'public',
      _meta: serverInfoMeta,
    });
    const second = await h.modern('two', 'server/discover', {}, { 'io.modelcontextprotocol/clientCapabilities': { roots: {} } });
    expect(second.result).toEqual(first.result);
  });
  test('a bare discover probe learns which _meta is missing (-32602); a future version gets -32022', async () => {
    const [bare] = await h.send({ jsonrpc: '2.0', id: 1, method: 'server/discover' });
    expect(bare!.value.error).toMatchObject({ code: -32602, message: 'Missing required _meta field io.modelcontextprotocol/protocolVersion' });
    const future = await h.modern(2, 'server/discover', {}, { 'io.modelcontextprotocol/protocolVersion': '2027-01-01' });
    expect(future.error).toEqual({ code: -32022, message: expect.any(String), data: { supported: ['2026-07-28'], requested: '2027-01-01' } });
  });
  test('malformed metadata on any method is -32602 (wire example 10)', async () => {
    const [out] = await h.send({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
    expect(out!.value.error).toEqual({ code: -32602, message: 'Missing required _meta field io.modelcontextprotocol/clientCapabilities', data: { field: 'io.modelcontextprotocol/clientCapabilities' } });
  });
});

describe('tools', () => {
  test('tools/list pages through every tool with opaque cursors; every page is cacheable', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    let id = 0;
    do {
      const page = await h.modern(++id, 'tools/list', cursor ? { cursor } : {});
      const result = page.result as { tools: { name: string }[]; nextCursor?: string; ttlMs: number; cacheScope: string };
      expect(result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public', _meta: serverInfoMeta });
      names.push(...result.tools.map((t) => t.name));
      cursor = result.nextCursor;
    } while (cursor);
    expect(names).toEqual(['echo', 'fail', 'boom', 'needs_form', 'slow']);
    expect(id).toBe(3);
  });
  test('an invalid or foreign cursor is -32602', async () => {
    expect((await h.modern(1, 'tools/list', { cursor: 'not a cursor' })).error).toMatchObject({ code: -32602 });
    const resources = await h.modern(2, 'resources/list');
    const foreign = (resources.result as { nextCursor: string }).nextCursor;
    expect((await h.modern(3, 'tools/list', { cursor: foreign })).error).toMatchObject({ code: -32602, message: expect.stringContaining('different list') });
  });
  test('tools/call returns the readable text beside structuredContent', async () => {
    const out = await h.modern(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(out.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'echo: hi' }], structuredContent: { text: 'hi' }, _meta: serverInfoMeta });
  });
  test('argument value and tracker failures are isError results, not protocol errors; an undeclared argument is -32602', async () => {
    const bad = await h.modern(1, 'tools/call', { name: 'echo', arguments: { text: 5 } });
    expect(bad.result).toMatchObject({ resultType: 'complete', isError: true, content: [{ type: 'text', text: expect.stringContaining('Invalid arguments for echo: text:') }] });
    const extra = await h.modern(2, 'tools/call', { name: 'echo', arguments: { text: 'a', other: 1 } });
    expect(extra.error).toMatchObject({ code: -32602, message: "Invalid arguments for echo: unknown argument 'other'; declared arguments: text", data: { tool: 'echo', unknown: ['other'] } });
    const validation = await h.modern(3, 'tools/call', { name: 'fail', arguments: { kind: 'validation' } });
    expect(validation.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'priority must be 0-4 (invalid_input)\n{"field":"priority"}' }] });
    const conflict = await h.modern(4, 'tools/call', { name: 'fail', arguments: { kind: 'conflict' } });
    expect(conflict.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('(claimed)') }] });
  });
  test('unknown tools and malformed calls are -32602 protocol errors', async () => {
    expect((await h.modern(1, 'tools/call', { name: 'nope' })).error).toEqual({ code: -32602, message: 'Unknown tool: nope', data: { name: 'nope' } });
    expect((await h.modern(2, 'tools/call', {})).error).toMatchObject({ code: -32602, message: expect.stringContaining('Invalid params for tools/call') });
    expect((await h.modern(3, 'tools/call', { name: 'echo', arguments: [1] })).error).toMatchObject({ code: -32602 });
  });
  test('an unexpected throw is -32603 without internals, reported to the host hook', async () => {
    const out = await h.modern(1, 'tools/call', { name: 'boom' });
    expect(out.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(out)).not.toContain('secret');
    expect(h.internalErrors).toHaveLength(1);
  });
  test('a missing client capability is -32021 with the structured map; declaring it succeeds', async () => {
    const missing = await h.modern(1, 'tools/call', { name: 'needs_form' });
    expect(missing.error).toEqual({ code: -32021, message: 'needs_form needs form elicitation to confirm', data: { requiredCapabilities: { elicitation: { form: {} } } } });
    const ok = await h.modern(2, 'tools/call', { name: 'needs_form' }, { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
    expect(ok.result).toMatchObject({ structuredContent: { ok: true } });
  });
  test('each request sees only its own identity', async () => {
    await h.modern(1, 'tools/call', { name: 'echo', arguments: { text: 'a' } }, { 'io.modelcontextprotocol/clientInfo': { name: 'first', version: '1' } });
    await h.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'b' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
    const [first, second] = h.state.seenContexts as { clientInfo?: { name: string }; requestId: number }[];
    expect(first).toMatchObject({ requestId: 1, clientInfo: { name: 'first' } });
    expect(second!.clientInfo).toBeUndefined();
  });
});

describe('methods', () => {
  test.each(['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'initialize'])('removed method %s is -32601 on the modern path', async (method) => {
    const out = await h.modern(1, method, method === 'resources/subscribe' ? { uri: 'test://readme' } : {});
    expect(out.error).toMatchObject({ code: -32601, message: `Method not found: ${method} (removed in 2026-07-28)`, data: { method } });
  });
  test('an unknown method is -32601; a feature the server lacks is -32601 too', async () => {
    expect((await h.modern(1, 'no/such')).error).toEqual({ code: -32601, message: 'Method not found: no/such', data: { method: 'no/such' } });
    const bare = new McpHarness({ prompts: undefined, resources: undefined });
    expect((await bare.modern(1, 'prompts/list')).error).toMatchObject({ code: -32601 });
    expect((await bare.modern(2, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: '' } })).error).toMatchObject({ code: -32601 });
    expect((await bare.modern(3, 'server/discover')).result).toMatchObject({ capabilities: { tools: {} } });
    expect((await bare.modern(4, 'server/discover')).result).not.toHaveProperty('capabilities.prompts');
    expect(bare.problems).toEqual([]);
  });
});

describe('framing errors', () => {
  test('bad JSON is -32700 without an id', async () => {
    const [out] = await h.send('{"jsonrpc":"2.0",');
    expect(out!.value).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.any(String) } });
  });
  test.each([
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], undefined],
    ['a bare string', 'x', undefined],
    ['the wrong jsonrpc version', { jsonrpc: '1.0', id: 4, method: 'tools/list' }, 4],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'tools/list' }, undefined],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'tools/list' }, undefined],
    ['no method', { jsonrpc: '2.0', id: 5 }, 5],
    ['array params', { jsonrpc: '2.0', id: 6, method: 'tools/list', params: [] }, 6],
  ])('%s is -32600', async (_name, message, id) => {
    const out = await h.send(typeof message === 'string' ? JSON.stringify(message) : message);
    expect(out).toHaveLength(1);
    expect(out[0]!.value.error).toMatchObject({ code: -32600 });
    expect(out[0]!.value.id).toBe(id);
  });
  test('notifications and client responses get no answer', async () => {
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual([]);
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/unknown', params: { _meta: MODERN_META } })).toEqual([]);
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nobody' } })).toEqual([]);
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} })).toEqual([]);
    expect(await h.send({ jsonrpc: '2.0', method: 'tools/list' })).toEqual([]);
    expect(await h.send({ jsonrpc: '2.0', id: 9, result: {} })).toEqual([]);
  });
});

describe('cancellation, progress and logs', () => {
  const slowCall = (id: string | number, meta: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'slow', arguments: {}, _meta: { ...MODERN_META, ...meta } },
  });

  test('notifications/cancelled aborts the request; nothing more is written for it', async () => {
    const running = h.send(slowCall('s1', { progressToken: 'tok' }));
    await Promise.resolve();
    expect(h.connection.inFlightCount).toBe(1);
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 's1', reason: 'user' } })).toEqual([]);
    const written = await running;
    expect(h.state.seenSignals[0]!.aborted).toBe(true);
    expect(h.state.seenSignals[0]!.reason).toBe('user');
    expect(written.map((w) => w.value.method ?? 'response')).toEqual(['notifications/progress']);
    expect(h.connection.inFlightCount).toBe(0);
  });

  test('progress only with a progressToken, strictly increasing, before the response', async () => {
    const running = h.send(slowCall(2, { progressToken: 'tok' }));
    h.state.gate.open();
    const written = await running;
    expect(written.map((w) => w.value)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 1, total: 3, message: 'started' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 3, total: 3, message: 'done' } },
      expect.objectContaining({ id: 2, result: expect.objectContaining({ structuredContent: { aborted: false } }) }),
    ]);
    h.state.gate = new Gate();
    const quiet = h.send(slowCall(3));
    h.state.gate.open();
    expect((await quiet).map((w) => w.value.id)).toEqual([3]);
  });

  test('log notifications only when the request set logLevel and the server advertises logging', async () => {
    const logging = new McpHarness({ logging: true });
    logging.state.gate.open();
    const logged = await logging.send(slowCall(1, { 'io.modelcontextprotocol/logLevel': 'info' }));
    expect(logged.map((w) => w.value)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', logger: 'slow', data: { step: 'started' } } },
      expect.objectContaining({ id: 1 }),
    ]);
    expect((await logging.send(slowCall(2))).map((w) => w.value.id)).toEqual([2]);
    expect((await logging.modern(3, 'server/discover')).result).toMatchObject({ capabilities: { logging: {} } });
    expect(logging.problems).toEqual([]);
    h.state.gate.open();
    expect((await h.send(slowCall(4, { 'io.modelcontextprotocol/logLevel': 'debug' }))).map((w) => w.value.id)).toEqual([4]);
  });

  test('a transport-level abort (HTTP stream close) suppresses the response', async () => {
    const sent: unknown[] = [];
    let cancel: Cancellable | undefined;
    const running = h.connection.dispatch(JSON.stringify(slowCall(7)), { facts: { kind: 'http' }, sink: { send: (m) => sent.push(m) }, onCancel: (c) => (cancel = c) });
    await Promise.resolve();
    cancel!.abort('stream closed');
    expect(await running).toBe('cancelled');
    expect(sent).toEqual([]);
    expect(h.state.seenSignals[0]!.reason).toBe('stream closed');
  });

  test('an id still in flight cannot be reused; pipelined requests are all answered', async () => {
    const running = h.send(slowCall('dup'));
    await Promise.resolve();
    const [dup] = await h.send(slowCall('dup'));
    expect(dup!.value).toMatchObject({ id: 'dup', error: { code: -32600 } });
    const answers = await Promise.all([1, 2, 3].map((id) => h.modern(id, 'tools/call', { name: 'echo', arguments: { text: String(id) } })));
    expect(answers.map((a) => (a.result as { structuredContent: { text: string } }).structuredContent.text)).toEqual(['1', '2', '3']);
    h.connection.cancelAll();
    const afterwards = await running;
    expect(afterwards.filter((w) => w.value.id === 'dup' && 'result' in w.value)).toEqual([]);
    expect(h.connection.inFlightCount).toBe(0);
  });
});
