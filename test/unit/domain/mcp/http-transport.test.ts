import { StaticAuthorizer } from '../../../../src/adapters/memory/static-authorizer.js';
import type { AuthorizationRequest, Authorizer } from '../../../../src/ports/authorizer.js';
import {
  checkMcpHttpHost,
  checkMcpHttpOrigin,
  classifyMcpOutbound,
  createMcpHttpAuthorize,
  createMcpHttpSecurityPolicy,
  formatMcpSseEvent,
  mcpHttpStatusForError,
  negotiateMcpHttpResponse,
  PmMcpHttpEndpoint,
  PmMcpInsufficientScopeError,
  PmMcpUnauthorizedError,
  serializeJsonRpcNotification,
  serializeJsonRpcResult,
  type McpHttpResponder,
} from '../../../../src/domain/mcp/index.js';
import { McpHarness } from '../../../support/mcp-fake-server.js';
import { modernRequest } from '../../../support/mcp-http.js';

describe('HTTP status of JSON-RPC errors', () => {
  test.each([
    [-32700, 400, 400],
    [-32600, 400, 400],
    [-32601, 404, 200],
    [-32602, 400, 200],
    [-32020, 400, 200],
    [-32021, 400, 200],
    [-32022, 400, 200],
    [-32603, 200, 200],
    [-31050, 200, 200],
    [-32002, 200, 200],
  ])('code %i: modern %i, legacy %i', (code, modern, legacy) => {
    expect(mcpHttpStatusForError(code, 'modern')).toBe(modern);
    expect(mcpHttpStatusForError(code, 'legacy')).toBe(legacy);
  });
});

describe('Accept negotiation', () => {
  test.each([
    [undefined, true, true],
    ['', true, true],
    ['application/json, text/event-stream', true, true],
    ['*/*', true, true],
    ['application/json', true, false],
    ['application/*;q=0.9', true, false],
    ['text/event-stream', false, true],
    ['application/json, text/event-stream;q=0', true, false],
    ['text/html', false, false],
  ])('%p → json %p, sse %p', (accept, json, sse) => {
    expect(negotiateMcpHttpResponse(accept)).toEqual({ json, sse });
  });
});

describe('Origin and Host policy', () => {
  const loopback = createMcpHttpSecurityPolicy({ host: '127.0.0.1', port: 8787, allowedOrigins: ['https://App.example.com/'], allowedHosts: ['mcp.example.com'] });

  test('loopback: own authorities and configured hosts pass; any other Host is 421', () => {
    for (const host of ['127.0.0.1:8787', 'localhost:8787', '[::1]:8787', 'LOCALHOST:8787', 'mcp.example.com']) expect(checkMcpHttpHost(loopback, host)).toBeUndefined();
    for (const host of [undefined, 'evil.example.com', 'evil.example.com:8787', 'localhost', '127.0.0.1:8788']) expect(checkMcpHttpHost(loopback, host)?.status).toBe(421);
  });
  test('Origin: absent passes; own and configured origins pass exactly; others are 403 with a JSON-RPC body', () => {
    for (const origin of [undefined, 'http://localhost:8787', 'http://127.0.0.1:8787', 'http://[::1]:8787', 'https://app.example.com']) expect(checkMcpHttpOrigin(loopback, origin)).toBeUndefined();
    for (const origin of ['null', 'https://evil.example.com', 'http://localhost:9999', 'https://app.example.com:444', 'http://mcp.example.com.evil']) {
      const rejection = checkMcpHttpOrigin(loopback, origin)!;
      expect(rejection.status).toBe(403);
      expect(JSON.parse(rejection.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    }
  });
  test('a wildcard bind without configured hosts cannot know its names and does not check Host', () => {
    const wildcard = createMcpHttpSecurityPolicy({ host: '0.0.0.0', port: 80 });
    expect(wildcard.hosts).toBeUndefined();
    expect(checkMcpHttpHost(wildcard, 'anything.example')).toBeUndefined();
    expect(checkMcpHttpOrigin(wildcard, 'http://anything.example')?.status).toBe(403);
    const named = createMcpHttpSecurityPolicy({ host: 'mcp.example.com', port: 80 });
    expect(checkMcpHttpHost(named, 'mcp.example.com')).toBeUndefined();
    expect(checkMcpHttpHost(named, 'mcp.example.com:80')).toBeUndefined();
  });
  test('malformed configured origins and hosts are refused', () => {
    expect(() => createMcpHttpSecurityPolicy({ host: '127.0.0.1', port: 1, allowedOrigins: ['app.example.com'] })).toThrow(RangeError);
    expect(() => createMcpHttpSecurityPolicy({ host: '127.0.0.1', port: 1, allowedHosts: ['https://x/'] })).toThrow(RangeError);
  });
});

describe('reading back what the dispatcher writes', () => {
  test('notifications, results and errors are told apart (fast path and parsed)', () => {
    expect(classifyMcpOutbound(serializeJsonRpcNotification('notifications/progress', { progressToken: 1, progress: 1 }), 1)).toEqual({ kind: 'notification' });
    expect(classifyMcpOutbound(serializeJsonRpcResult('a', { resultType: 'complete' }), 'a')).toEqual({ kind: 'result' });
    expect(classifyMcpOutbound(JSON.stringify({ jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'x' } }), 'a')).toEqual({ kind: 'error', code: -32601 });
    expect(classifyMcpOutbound({ jsonrpc: '2.0', method: 'notifications/message', params: {} }, 1)).toEqual({ kind: 'notification' });
    expect(formatMcpSseEvent('{"a":1}')).toBe('data: {"a":1}\n\n');
  });
});

describe('bearer authorization of one message', () => {
  const context = { resourceMetadataUrl: 'http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp', requiredScopes: ['pm:write'] };
  const failing = (error: unknown): Authorizer => ({ authorize: async () => Promise.reject(error) });
  const message = { jsonrpc: '2.0' as const, id: 5, method: 'tools/call', params: { name: 'pm_create' } };

  test('the principal of an accepted token is returned; the required scopes come from the message', async () => {
    const seen: AuthorizationRequest[] = [];
    const authorizer: Authorizer = { authorize: async (request) => (seen.push(request), new StaticAuthorizer().authorize(request)) };
    const outcome = await createMcpHttpAuthorize(authorizer, (m) => (m.method === 'tools/call' ? ['pm:write'] : ['pm:read']))({ authorization: 'Bearer t', message });
    expect(outcome).toEqual({ principal: { id: 'test', scopes: ['pm:read', 'pm:write'] } });
    expect(seen).toEqual([{ authorization: 'Bearer t', requiredScopes: ['pm:write'] }]);
  });
  test('401 and 403 carry the challenge and a JSON-RPC error echoing the id; other failures are 500', async () => {
    const unauthorized = await createMcpHttpAuthorize(failing(new PmMcpUnauthorizedError('Authorization required', context)), () => ['pm:write'])({ authorization: undefined, message });
    expect(unauthorized).toMatchObject({ rejection: { status: 401, headers: { 'WWW-Authenticate': expect.stringContaining('resource_metadata=') } } });
    expect(JSON.parse((unauthorized as { rejection: { body: string } }).rejection.body)).toMatchObject({ id: 5, error: { code: -31001 } });
    const scope = await createMcpHttpAuthorize(failing(new PmMcpInsufficientScopeError(context)), () => ['pm:write'])({ authorization: 'Bearer t', message });
    expect(scope).toMatchObject({ rejection: { status: 403, headers: { 'WWW-Authenticate': expect.stringContaining('insufficient_scope') } } });
    const seen: unknown[] = [];
    const boom = await createMcpHttpAuthorize(failing(new TypeError('secret')), () => [], { onInternalError: (e) => seen.push(e) })({ authorization: 'Bearer t', message });
    expect(boom).toMatchObject({ rejection: { status: 500 } });
    expect(JSON.parse((boom as { rejection: { body: string } }).rejection.body)).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'Internal error' } });
    expect(seen).toHaveLength(1);
  });
});

describe('PmMcpHttpEndpoint (runtime-neutral)', () => {
  interface Captured {
    status?: number;
    body?: string | undefined;
    headers?: Readonly<Record<string, string>> | undefined;
    chunks: string[];
    ended: boolean;
  }
  function capture(): { responder: McpHttpResponder; out: Captured } {
    const out: Captured = { chunks: [], ended: false };
    return {
      out,
      responder: {
        respond: (status, body, headers) => Object.assign(out, { status, body, headers }),
        openEventStream: () => {
          out.status = 200;
          return { write: (chunk) => void out.chunks.push(chunk), end: () => void (out.ended = true) };
        },
      },
    };
  }
  const signal = new AbortController().signal;

  test('answers one POST per message: results, 202 for notifications, 400 for parse errors and header mismatches', async () => {
    const h = new McpHarness();
    const endpoint = new PmMcpHttpEndpoint({ server: h.server, dispatcher: h.dispatcher });
    const list = modernRequest(1, 'tools/list');
    let c = capture();
    await endpoint.handle({ headers: list.headers, body: JSON.stringify(list.body), signal }, c.responder);
    expect(c.out.status).toBe(200);
    expect(JSON.parse(c.out.body!)).toMatchObject({ id: 1, result: { resultType: 'complete' } });
    c = capture();
    await endpoint.handle({ headers: {}, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), signal }, c.responder);
    expect({ status: c.out.status, body: c.out.body }).toEqual({ status: 202, body: undefined });
    c = capture();
    await endpoint.handle({ headers: {}, body: undefined, signal }, c.responder);
    expect(c.out.status).toBe(400);
    c = capture();
    await endpoint.handle({ headers: { ...list.headers, 'Mcp-Method': 'prompts/list' }, body: JSON.stringify(list.body), signal }, c.responder);
    expect({ status: c.out.status, code: JSON.parse(c.out.body!).error.code }).toEqual({ status: 400, code: -32020 });
  });
  test('a closed endpoint refuses new POSTs with 503; idle() resolves when in-flight ones finish', async () => {
    const h = new McpHarness();
    const endpoint = new PmMcpHttpEndpoint({ server: h.server, dispatcher: h.dispatcher });
    const slow = modernRequest(2, 'tools/call', { name: 'slow', arguments: {} });
    const c = capture();
    const running = endpoint.handle({ headers: slow.headers, body: JSON.stringify(slow.body), signal }, c.responder);
    await new Promise((r) => setTimeout(r, 10));
    expect(endpoint.inFlight).toBe(1);
    endpoint.close();
    const refused = capture();
    await endpoint.handle({ headers: slow.headers, body: JSON.stringify(slow.body), signal }, refused.responder);
    expect(refused.out.status).toBe(503);
    let idle = false;
    const waiting = endpoint.idle().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(idle).toBe(false);
    h.state.gate.open();
    await running;
    await waiting;
    expect(c.out.status).toBe(200);
  });
  test('the principal of an authorized request reaches the handler; credentials never do', async () => {
    const h = new McpHarness();
    const endpoint = new PmMcpHttpEndpoint({ server: h.server, dispatcher: h.dispatcher, authorize: async () => ({ principal: { id: 'alice', scopes: ['pm:read'] } }) });
    const echo = modernRequest(3, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    await endpoint.handle({ headers: { ...echo.headers, authorization: 'Bearer secret-token' }, body: JSON.stringify(echo.body), signal }, capture().responder);
    const ctx = h.state.seenContexts[0] as { principal: unknown; transport: string };
    expect(ctx.principal).toEqual({ id: 'alice', scopes: ['pm:read'] });
    expect(ctx.transport).toBe('http');
    expect(JSON.stringify(ctx)).not.toContain('secret-token');
  });
});
