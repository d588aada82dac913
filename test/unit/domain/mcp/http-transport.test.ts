import { StaticAuthorizer } from '../../../../src/adapters/memory/static-authorizer.js';
import type { AuthorizationRequest, Authorizer } from '../../../../src/ports/authorizer.js';
import type { AdmissionRequest } from '../../../../src/ports/transport.js';
import {
  checkMcpHttpHost,
  checkMcpHttpOrigin,
  admitMcpHttpMessage,
  createMcpHttpAuthorize,
  createMcpHttpSecurityPolicy,
  formatMcpSseEvent,
  mcpHttpStatusForError,
  negotiateMcpHttpResponse,
  PmMcpInsufficientScopeError,
  PmMcpUnauthorizedError,
} from '../../../../src/domain/mcp/index.js';
import { z } from 'zod';
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

describe('SSE format', () => {
  test('one JSON-RPC message per event, a single data line, no id', () => {
    expect(formatMcpSseEvent('{"a":1}')).toBe('data: {"a":1}\n\n');
  });
});

describe('bearer authorization of one message', () => {
  const context = { resourceMetadataUrl: 'http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp', requiredScopes: ['pm:write'] };
  const failing = (error: unknown): Authorizer => ({ authorize: async () => Promise.reject(error) });
  const message: AdmissionRequest = { kind: 'request', id: 5, method: 'tools/call', params: { name: 'pm_create' }, era: 'modern', scope: 'write', nameSource: 'name', headerSchema: undefined, streams: false };

  test('the principal of an accepted token is returned; the required scopes come from the message', async () => {
    const seen: AuthorizationRequest[] = [];
    const authorizer: Authorizer = { authorize: async (request) => (seen.push(request), new StaticAuthorizer().authorize(request)) };
    const outcome = await createMcpHttpAuthorize(authorizer, (m) => (m.scope === 'write' ? ['pm:write'] : ['pm:read']))({ authorization: 'Bearer t', request: message });
    expect(outcome).toEqual({ principal: { id: 'test', scopes: ['pm:read', 'pm:write'] } });
    expect(seen).toEqual([{ authorization: 'Bearer t', requiredScopes: ['pm:write'] }]);
  });
  test('401 and 403 carry the challenge and a JSON-RPC error echoing the id; other failures are 500', async () => {
    const unauthorized = await createMcpHttpAuthorize(failing(new PmMcpUnauthorizedError('Authorization required', context)), () => ['pm:write'])({ authorization: undefined, request: message });
    expect(unauthorized).toMatchObject({ rejection: { status: 401, headers: { 'WWW-Authenticate': expect.stringContaining('resource_metadata=') } } });
    expect(JSON.parse((unauthorized as { rejection: { body: string } }).rejection.body)).toMatchObject({ id: 5, error: { code: -31001 } });
    const scope = await createMcpHttpAuthorize(failing(new PmMcpInsufficientScopeError(context)), () => ['pm:write'])({ authorization: 'Bearer t', request: message });
    expect(scope).toMatchObject({ rejection: { status: 403, headers: { 'WWW-Authenticate': expect.stringContaining('insufficient_scope') } } });
    const seen: unknown[] = [];
    const boom = await createMcpHttpAuthorize(failing(new TypeError('secret')), () => [], { onInternalError: (e) => seen.push(e) })({ authorization: 'Bearer t', request: message });
    expect(boom).toMatchObject({ rejection: { status: 500 } });
    expect(JSON.parse((boom as { rejection: { body: string } }).rejection.body)).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'Internal error' } });
    expect(seen).toHaveLength(1);
  });
});

describe('admission of one message (admitMcpHttpMessage)', () => {
  const h = new McpHarness();
  const admissionOf = (body: { id?: string | number; method: string; params?: Record<string, unknown> }, era: 'modern' | 'legacy' = 'modern') => h.methods.admission(body, era);

  test('a modern request whose headers agree is admitted with the forms its client accepts', async () => {
    const echo = modernRequest(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(await admitMcpHttpMessage(admissionOf(echo.body), echo.headers)).toEqual({ principal: undefined, forms: { json: true, sse: true } });
    expect(await admitMcpHttpMessage(admissionOf(echo.body), { ...echo.headers, accept: 'application/json' })).toMatchObject({ forms: { json: true, sse: false } });
  });
  test('a header that disagrees with the body is 400 -32020 echoing the id; legacy requests are not checked', async () => {
    const list = modernRequest(2, 'tools/list');
    const mismatch = await admitMcpHttpMessage(admissionOf(list.body), { ...list.headers, 'Mcp-Method': 'prompts/list' });
    expect(mismatch).toMatchObject({ rejection: { status: 400 } });
    expect(JSON.parse((mismatch as { rejection: { body: string } }).rejection.body)).toMatchObject({ id: 2, error: { code: -32020 } });
    expect(await admitMcpHttpMessage(admissionOf({ id: 3, method: 'tools/list' }, 'legacy'), { 'mcp-protocol-version': '2025-11-25' })).toMatchObject({ forms: { json: true } });
  });
  test('Mcp-Name follows the method declaration of the registry, so a method an extension registers is covered', async () => {
    const methods = new McpHarness({}, (m) => m.register({ method: 'widgets/get', eras: ['modern'], nameSource: 'name', params: z.object({ name: z.string() }), handle: () => ({ body: {} }) })).methods;
    const body = { jsonrpc: '2.0', id: 4, method: 'widgets/get', params: { name: 'w1', _meta: {} } };
    const headers = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'widgets/get' };
    const missing = await admitMcpHttpMessage(methods.admission(body, 'modern'), headers);
    expect(JSON.parse((missing as { rejection: { body: string } }).rejection.body).error).toMatchObject({ code: -32020, message: expect.stringContaining('Mcp-Name header is required for widgets/get') });
    expect(await admitMcpHttpMessage(methods.admission(body, 'modern'), { ...headers, 'Mcp-Name': 'w1' })).toMatchObject({ forms: { json: true } });
  });
  test('Accept: neither form is 406; a streaming method without SSE is 406', async () => {
    const list = modernRequest(5, 'tools/list');
    expect(await admitMcpHttpMessage(admissionOf(list.body), { ...list.headers, accept: 'text/html' })).toMatchObject({ rejection: { status: 406 } });
    const listen = modernRequest(6, 'subscriptions/listen', { notifications: {} });
    const streaming = { ...h.methods.admission(listen.body, 'modern'), streams: true };
    expect(await admitMcpHttpMessage(streaming, { ...listen.headers, accept: 'application/json' })).toMatchObject({ rejection: { status: 406 } });
    expect(await admitMcpHttpMessage(streaming, listen.headers)).toMatchObject({ forms: { sse: true } });
  });
  test('authorization runs first, for requests and notifications, with the scope the method declares', async () => {
    const seen: string[] = [];
    const authorize = createMcpHttpAuthorize(new StaticAuthorizer(), (request) => (seen.push(`${request.method}:${request.scope}`), [request.scope === 'write' ? 'pm:write' : 'pm:read']));
    const fail = modernRequest(7, 'tools/call', { name: 'fail', arguments: { kind: 'validation' } });
    expect(await admitMcpHttpMessage(admissionOf(fail.body), fail.headers, authorize)).toMatchObject({ principal: { id: 'test' } });
    await admitMcpHttpMessage(admissionOf({ method: 'notifications/initialized' }), {}, authorize);
    expect(seen).toEqual(['tools/call:write', 'notifications/initialized:read']);
    const refused = await admitMcpHttpMessage(admissionOf(fail.body), { ...fail.headers, 'Mcp-Method': 'nope' }, async () => ({ rejection: { status: 401, body: '{}' } }));
    expect(refused).toEqual({ rejection: { status: 401, body: '{}' } });
  });
});
