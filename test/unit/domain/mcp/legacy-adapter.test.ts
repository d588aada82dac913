import { PM_MCP_LEGACY_PROTOCOL_VERSIONS } from '../../../../src/domain/mcp/index.js';
import { McpHarness, MODERN_META } from '../../../support/mcp-fake-server.js';

let h: McpHarness;
beforeEach(() => {
  h = new McpHarness();
});
afterEach(() => {
  expect(h.problems).toEqual([]);
});

const initialize = (protocolVersion?: string) => ({
  ...(protocolVersion !== undefined ? { protocolVersion } : {}),
  capabilities: { roots: {} },
  clientInfo: { name: 'legacy-client', version: '2.3.0' },
});

describe('initialize', () => {
  test.each(PM_MCP_LEGACY_PROTOCOL_VERSIONS)('answers %s with the requested revision and the legacy shape', async (version) => {
    const out = await h.legacy(1, 'initialize', initialize(version), version);
    expect(out.result).toEqual({
      protocolVersion: version,
      capabilities: { completions: {}, prompts: {}, resources: {}, tools: {} },
      serverInfo: version === '2025-06-18' ? { name: 'pm-test', version: '1.0.0', title: 'pm test server' } : { name: 'pm-test', version: '1.0.0', title: 'pm test server', description: 'fake' },
      instructions: 'Test server. Use echo to echo.',
    });
  });
  test('a client that omits protocolVersion is offered 2025-11-25', async () => {
    expect((await h.legacy(1, 'initialize', initialize())).result).toMatchObject({ protocolVersion: '2025-11-25' });
  });
  test('a revision outside the set is refused with -32022 naming every supported revision', async () => {
    const out = await h.legacy(1, 'initialize', initialize('2024-11-05'));
    expect(out.error).toMatchObject({ code: -32022, data: { supported: ['2025-11-25', '2025-06-18'], requested: '2024-11-05' } });
    for (const version of PM_MCP_LEGACY_PROTOCOL_VERSIONS) expect(out.error!.message).toContain(version);
    expect(out.error!.message).toContain('2026-07-28');
  });
  test('initialize never advertises extensions or list-change notifications', async () => {
    const rich = new McpHarness({ extensions: { 'io.modelcontextprotocol/tasks': {} }, toolsListChanged: true, logging: true });
    const out = await rich.legacy(1, 'initialize', initialize('2025-11-25'));
    expect(out.result!.capabilities).toEqual({ completions: {}, prompts: {}, resources: {}, tools: {} });
    expect(rich.problems).toEqual([]);
  });
  test('notifications/initialized gets no response; ping answers {} only on the legacy path', async () => {
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, '2025-11-25')).toEqual([]);
    expect((await h.legacy('p1', 'ping')).result).toEqual({});
    expect((await h.legacy('p2', 'ping', { _meta: { progressToken: 1 } })).result).toEqual({});
    expect((await h.modern('p3', 'ping')).error).toMatchObject({ code: -32601 });
  });
});

describe('legacy requests', () => {
  test('unversioned requests work without initialize and keep legacy shapes', async () => {
    const list = await h.legacy(1, 'tools/list');
    expect(list.result).not.toHaveProperty('resultType');
    expect(list.result).not.toHaveProperty('ttlMs');
    expect(list.result).not.toHaveProperty('_meta');
    expect((list.result as { tools: unknown[] }).tools).toHaveLength(2);
  });
  test('tool results duplicate the JSON text beside structuredContent', async () => {
    const out = await h.legacy(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(out.result).toEqual({ content: [{ type: 'text', text: '{"text":"hi"}' }], structuredContent: { text: 'hi' } });
    const failed = await h.legacy(2, 'tools/call', { name: 'fail', arguments: { kind: 'validation' } });
    expect(failed.result).toMatchObject({ isError: true });
  });
  test('a missing resource is -32002 with the uri on the legacy path, -32602 on the modern one', async () => {
    expect((await h.legacy(1, 'resources/read', { uri: 'test://nope' })).error).toEqual({ code: -32002, message: 'Resource not found', data: { uri: 'test://nope' } });
    expect((await h.modern(2, 'resources/read', { uri: 'test://nope' })).error).toEqual({ code: -32602, message: 'Resource not found', data: { uri: 'test://nope' } });
  });
  test('modern-only methods are not legacy methods; unknown legacy methods are -32601', async () => {
    expect((await h.legacy(1, 'no/such')).error).toMatchObject({ code: -32601 });
    const [discover] = await h.send({ jsonrpc: '2.0', id: 2, method: 'server/discover' });
    expect(discover!.value.error).toMatchObject({ code: -32602 });
  });
  test('initialize enriches later legacy requests on the connection and never modern ones', async () => {
    await h.legacy(1, 'initialize', initialize('2025-06-18'), '2025-06-18');
    await h.legacy(2, 'tools/call', { name: 'echo', arguments: { text: 'legacy' } }, '2025-06-18');
    await h.modern(3, 'tools/call', { name: 'echo', arguments: { text: 'modern' } });
    await h.legacy(4, 'tools/call', { name: 'needs_form' }, '2025-06-18');
    const [legacy, modern] = h.state.seenContexts as { era: string; revision: string; clientInfo?: { name: string }; clientCapabilities: object }[];
    expect(legacy).toMatchObject({ era: 'legacy', revision: '2025-06-18', clientInfo: { name: 'legacy-client' }, clientCapabilities: { roots: {} } });
    expect(modern).toMatchObject({ era: 'modern', revision: '2026-07-28', clientInfo: { name: 'test-client' }, clientCapabilities: {} });
  });
  test('a refused initialize leaves the connection state untouched', async () => {
    await h.legacy(1, 'initialize', initialize('2025-06-18'), '2025-06-18');
    await h.legacy(2, 'initialize', initialize('1999-01-01'), '2025-06-18');
    await h.legacy(3, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, '2025-06-18');
    expect(h.state.seenContexts[0]).toMatchObject({ revision: '2025-06-18' });
  });
  test('the modern path with a legacy revision in _meta is -32022, not a legacy request', async () => {
    const out = await h.modern(1, 'tools/list', {}, { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' });
    expect(out.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } });
  });
});
