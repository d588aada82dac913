import { freezeMcpPrincipal, MCP_CREDENTIAL_HEADERS, mcpHttpRequestFacts, type McpRequestContext } from '../../../../../src/domain/mcp/index.js';
import { McpHarness, MODERN_META } from '../../../../support/mcp-fake-server.js';

const TRACE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const echo = (id: number, meta: Record<string, unknown> = MODERN_META) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: meta } });

describe('mcpHttpRequestFacts', () => {
  test('fresh frozen facts per request: credential headers dropped, names lowercased, repeats joined', () => {
    const facts = mcpHttpRequestFacts(
      { Authorization: 'Bearer secret', cookie: 'sid=1', 'Proxy-Authorization': 'Basic x', 'MCP-Protocol-Version': '2026-07-28', 'x-multi': ['a', 'b'], absent: undefined },
      { id: 'alice', scopes: ['pm:read'], issuer: 'https://auth.example.com' },
    );
    expect(facts).toEqual({ kind: 'http', headers: { 'mcp-protocol-version': '2026-07-28', 'x-multi': 'a, b' }, principal: { id: 'alice', scopes: ['pm:read'], issuer: 'https://auth.example.com' } });
    expect(Object.isFrozen(facts)).toBe(true);
    expect(Object.isFrozen(facts.headers)).toBe(true);
    expect(Object.isFrozen(facts.principal!.scopes)).toBe(true);
    expect(JSON.stringify(facts)).not.toContain('secret');
    expect(MCP_CREDENTIAL_HEADERS).toEqual(['authorization', 'proxy-authorization', 'cookie']);
    expect(mcpHttpRequestFacts({})).toEqual({ kind: 'http', headers: {} });
  });

  test('freezeMcpPrincipal copies a mutable principal and keeps a frozen one', () => {
    const scopes = ['pm:read'];
    const frozen = freezeMcpPrincipal({ id: 'a', scopes });
    scopes.push('pm:write');
    expect(frozen.scopes).toEqual(['pm:read']);
    expect(freezeMcpPrincipal(frozen)).toBe(frozen);
  });
});

describe('principal and trace context never cross requests', () => {
  test('on one connection, a request without a principal or trace sees neither from the request before it', async () => {
    const harness = new McpHarness();
    await harness.send(echo(1, { ...MODERN_META, traceparent: TRACE, tracestate: 'v=1' }), '2026-07-28', mcpHttpRequestFacts({ authorization: 'Bearer t' }, { id: 'alice', scopes: ['pm:read'] }));
    await harness.send(echo(2, { ...MODERN_META, 'io.modelcontextprotocol/clientInfo': { name: 'second', version: '1' } }), '2026-07-28', mcpHttpRequestFacts({}));
    const [first, second] = harness.state.seenContexts as McpRequestContext[];
    expect(first!.principal).toEqual({ id: 'alice', scopes: ['pm:read'] });
    expect(first!.trace).toEqual({ traceparent: TRACE, tracestate: 'v=1' });
    expect(second!.principal).toBeUndefined();
    expect(second!.trace).toEqual({});
    expect(second!.clientInfo).toEqual({ name: 'second', version: '1' });
    expect(Object.isFrozen(first)).toBe(true);
    expect(harness.problems).toEqual([]);
  });

  test('concurrent requests keep their own principals', async () => {
    const harness = new McpHarness();
    await Promise.all([
      harness.send(echo(1), '2026-07-28', mcpHttpRequestFacts({}, { id: 'alice', scopes: ['pm:read'] })),
      harness.send(echo(2), '2026-07-28', mcpHttpRequestFacts({}, { id: 'bob', scopes: ['pm:write'] })),
    ]);
    const ids = (harness.state.seenContexts as McpRequestContext[]).map((ctx) => [ctx.requestId, ctx.principal?.id]);
    expect(ids.sort()).toEqual([[1, 'alice'], [2, 'bob']]);
  });

  test('a connection per HTTP POST: a legacy initialize does not lend its client identity to the next POST', async () => {
    const harness = new McpHarness();
    const sink = { send: () => undefined };
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy-client', version: '1' } } };
    await harness.dispatcher.connect().dispatch(JSON.stringify(initialize), { facts: mcpHttpRequestFacts({}), sink });
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } };
    await harness.dispatcher.connect().dispatch(JSON.stringify(call), { facts: mcpHttpRequestFacts({ 'mcp-protocol-version': '2025-11-25' }), sink });
    const ctx = (harness.state.seenContexts as McpRequestContext[])[0]!;
    expect(ctx.era).toBe('legacy');
    expect(ctx.clientInfo).toBeUndefined();
    expect(ctx.principal).toBeUndefined();
  });

  test('what a transport hands back through admission (a sealed legacy session) is the identity of that legacy request only', async () => {
    const harness = new McpHarness();
    const handed: unknown[] = [];
    const sink = { send: () => undefined };
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'legacy-client', version: '2' } } };
    // The transport is told what initialize declared, before the answer is written.
    await harness.dispatcher.connect().dispatch(JSON.stringify(initialize), { facts: mcpHttpRequestFacts({}), sink, admit: () => ({ admitted: true }), legacyInitialized: (state) => void handed.push(state) });
    expect(handed).toEqual([{ revision: '2025-06-18', clientInfo: { name: 'legacy-client', version: '2' } }]);
    const session = { revision: '2025-06-18', clientInfo: { name: 'legacy-client', version: '2' } };
    const admit = () => ({ admitted: true as const, legacySession: session });
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } };
    await harness.dispatcher.connect().dispatch(JSON.stringify(call), { facts: mcpHttpRequestFacts({}), sink, admit });
    // A modern request is never given it, and a session naming no legacy revision is ignored.
    await harness.dispatcher.connect().dispatch(JSON.stringify(echo(3)), { facts: mcpHttpRequestFacts({}), sink, admit });
    await harness.dispatcher.connect().dispatch(JSON.stringify({ ...call, id: 4 }), { facts: mcpHttpRequestFacts({}), sink, admit: () => ({ admitted: true as const, legacySession: { revision: '2026-07-28', clientInfo: { name: 'x', version: '1' } } }) });
    const [legacy, modern, bogus] = harness.state.seenContexts as McpRequestContext[];
    expect([legacy!.era, legacy!.revision, legacy!.clientInfo]).toEqual(['legacy', '2025-06-18', { name: 'legacy-client', version: '2' }]);
    expect([modern!.era, modern!.clientInfo?.name]).toEqual(['modern', MODERN_META['io.modelcontextprotocol/clientInfo'].name]);
    expect([bogus!.era, bogus!.clientInfo]).toEqual(['legacy', undefined]);
  });
});
