import { McpHarness } from '../../../support/mcp-fake-server.js';

/** Legacy logging (2025-11-25 `server/utilities/logging`), bounded to the initialize-era path. */

let h: McpHarness;
beforeEach(() => {
  h = new McpHarness({ legacyLogging: true });
});
afterEach(() => {
  expect(h.problems).toEqual([]);
});

const messages = (out: { value: Record<string, unknown> }[]) => out.filter((w) => w.value.method === 'notifications/message').map((w) => w.value.params as { level: string; logger?: string; data: Record<string, unknown> });

describe('logging/setLevel on the legacy path', () => {
  test('initialize declares logging only when the server enables legacy logging', async () => {
    const on = await h.legacy(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    expect(on.result!.capabilities).toMatchObject({ logging: {} });
    const plain = new McpHarness();
    const off = await plain.legacy(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    expect(off.result!.capabilities).not.toHaveProperty('logging');
    expect((await plain.legacy(2, 'logging/setLevel', { level: 'info' })).error).toMatchObject({ code: -32601 });
  });

  test('answers {} and its own exchange carries the deprecation notice at or above the level', async () => {
    const out = await h.send({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'info' } }, '2025-11-25');
    expect(out.at(-1)!.value.result).toEqual({});
    expect(messages(out)).toEqual([{ level: 'notice', logger: 'pm.legacy', data: expect.objectContaining({ level: 'info', message: expect.stringContaining('2026-07-28') }) }]);
    const quiet = await h.send({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'error' } }, '2025-11-25');
    expect(messages(quiet)).toEqual([]);
  });

  test('a bad level is -32602 and leaves the earlier level in effect', async () => {
    await h.legacy(1, 'logging/setLevel', { level: 'debug' });
    expect((await h.legacy(2, 'logging/setLevel', { level: 'loud' })).error).toMatchObject({ code: -32602 });
    const out = await h.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, '2025-11-25');
    expect(messages(out)).toEqual([{ level: 'debug', logger: 'pm.legacy', data: { method: 'tools/list', revision: '2025-11-25', outcome: 'result' } }]);
  });

  test('the connection remembers the level for later legacy requests: handler logs, outcomes and errors', async () => {
    await h.legacy(1, 'logging/setLevel', { level: 'warning' });
    h.state.gate.open();
    const slow = await h.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: {} } }, '2025-11-25');
    expect(messages(slow)).toEqual([{ level: 'warning', logger: 'slow', data: { step: 'started' } }]);
    const failed = await h.send({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'test://nope' } }, '2025-11-25');
    expect(messages(failed)).toEqual([{ level: 'error', logger: 'pm.legacy', data: { method: 'resources/read', revision: '2025-11-25', outcome: 'error', code: -32002 } }]);
    expect(failed.at(-1)!.value.error).toMatchObject({ code: -32002 });
  });

  test('without setLevel a legacy request gets no log messages', async () => {
    h.state.gate.open();
    const out = await h.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } }, '2025-11-25');
    expect(messages(out)).toEqual([]);
  });

  test('the legacy level never reaches a modern request; modern logging/setLevel stays -32601', async () => {
    await h.legacy(1, 'logging/setLevel', { level: 'debug' });
    h.state.gate.open();
    const modern = await h.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
    expect(messages(modern)).toEqual([]);
    expect((await h.modern(3, 'logging/setLevel', { level: 'debug' })).error).toMatchObject({ code: -32601, message: expect.stringContaining('removed in 2026-07-28') });
  });

  test('each connection (one HTTP POST) starts without a level', async () => {
    await h.legacy(1, 'logging/setLevel', { level: 'debug' });
    const fresh = h.dispatcher.connect();
    const written: string[] = [];
    await fresh.dispatch(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { facts: { kind: 'http', headers: { 'mcp-protocol-version': '2025-11-25' } }, sink: { send: (m) => void written.push(m.text) } });
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({ id: 2, result: {} });
  });
});
