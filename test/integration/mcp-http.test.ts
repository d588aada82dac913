/**
 * pm-mcp-http over sessionless Streamable HTTP on 127.0.0.1 with port 0 (docs/HTTP.md;
 * seed 004 "Transport behavior", "Removed"; 2026-07-28 `basic/transports/streamable-http`).
 *
 * - A real `pm-mcp-http` process (bin/pm-mcp-http.js → dist/) over a temp tracker: every
 *   transport rule with a positive and a negative request, written byte for byte with node:http.
 * - The same endpoint in-process over the fake server (a tool that reports progress and logs and
 *   waits) for SSE responses, Accept handling and cancellation by disconnect; and over the real
 *   node composition to see a listen disconnect free the subscription and its watch.
 * - Startup (`npm start`: tracker creation, refusals), graceful SIGTERM, bearer wiring, and the
 *   official v2 (2026-07-28) and v1 (2025-11-25) clients over HTTP.
 *
 * Every JSON-RPC message a server writes is validated against the official schema of its era.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SignJWT } from 'jose';
import { buildContainer } from '../../src/composition/container.js';
import { IDS } from '../../src/composition/service-ids.js';
import { settingsFromEnv } from '../../src/composition/settings.js';
import { MCP_META, PM_MCP_PROTOCOL_VERSION, type PmMcpSubscriptionRegistry } from '../../src/domain/mcp/index.js';
import type { McpHttpListener } from '../../src/adapters/http/mcp-http-server.js';
import { McpHarness } from '../support/mcp-fake-server.js';
import { httpPost, McpHttpProcesses, modernRequest, openSse, replyProblems, startInProcessHttp, type HttpReply, type HttpServerProcess, type LooseJson } from '../support/mcp-http.js';
import { makeTempTracker, modernMeta } from '../support/mcp-stdio.js';

const processes = new McpHttpProcesses();
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  await processes.killAll();
  await Promise.all(cleanups.map((c) => c()));
});

async function tempTracker(): Promise<string> {
  const t = await makeTempTracker('pm-mcp-http-');
  cleanups.push(t.remove);
  return t.dir;
}

async function emptyDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pm-mcp-http-empty-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function expectValid(reply: HttpReply, revision: '2026-07-28' | '2025-11-25' | '2025-06-18', method?: string): void {
  expect(replyProblems(reply, revision, method)).toEqual([]);
}

function expectRejection(reply: HttpReply, status: number, code: number, revision: '2026-07-28' | '2025-11-25' = '2026-07-28'): LooseJson {
  expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({ status, code });
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  expectValid(reply, revision);
  return reply.body!.error as LooseJson;
}

const PM_GET_SCHEMA = { type: 'object', properties: { id: { type: 'string', 'x-mcp-header': 'Item-Id' }, comments: { type: 'integer' } }, required: ['id'] };

describe('a real pm-mcp-http process', () => {
  let server: HttpServerProcess;
  let dir: string;
  let url: string;
  let itemId: string;
  let nextId = 1;

  /** A conformant modern request (headers built by the SDK), validated. */
  async function call(method: string, params: Record<string, unknown> = {}, options: { headers?: Record<string, string>; toolInputSchema?: object; meta?: Record<string, unknown> } = {}): Promise<HttpReply> {
    const request = modernRequest(nextId++, method, params, { ...(options.toolInputSchema ? { toolInputSchema: options.toolInputSchema } : {}), ...(options.meta ? { meta: options.meta } : {}) });
    const reply = await httpPost(url, request.body, { ...request.headers, ...options.headers });
    expectValid(reply, '2026-07-28', method);
    return reply;
  }

  beforeAll(async () => {
    dir = await tempTracker();
    server = await processes.start(dir, { PM_MCP_HTTP_ALLOWED_ORIGINS: 'https://app.example.com' });
    url = server.url;
    const created = await call('tools/call', { name: 'pm_create', arguments: { title: 'served over HTTP', priority: 1 } });
    itemId = created.body!.result.structuredContent.item.id as string;
  });

  test('prints the endpoint on stdout and the banner with a client configuration on stderr', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.proc.lines).toEqual([url]);
    const stderr = server.proc.stderr();
    expect(stderr).toContain(`listening on ${url}`);
    expect(stderr).toContain(`serving tracker ${dir}/.agents/pm`); // the tracker of its working directory
    const config = JSON.parse(stderr.slice(stderr.indexOf('{'), stderr.lastIndexOf('}') + 1)) as { mcpServers: LooseJson };
    expect(config.mcpServers.pm).toEqual({ type: 'http', url });
    expect(config.mcpServers['pm-stdio']).toMatchObject({ command: process.execPath, args: [expect.stringMatching(/bin\/pm-mcp\.cjs$/)] });
  });

  test('server/discover, tools/list and tools/call answer with single JSON responses; no session id is issued', async () => {
    const discover = await call('server/discover');
    expect(discover.status).toBe(200);
    expect(discover.headers['content-type']).toMatch(/^application\/json/);
    expect(discover.body!.result).toMatchObject({ resultType: 'complete', supportedVersions: [PM_MCP_PROTOCOL_VERSION] });
    expect(discover.headers['mcp-session-id']).toBeUndefined();
    const tools = await call('tools/list');
    const pmGet = (tools.body!.result.tools as { name: string; inputSchema: LooseJson }[]).find((t) => t.name === 'pm_get')!;
    expect(pmGet.inputSchema.properties.id['x-mcp-header']).toBe('Item-Id');
    const got = await call('tools/call', { name: 'pm_get', arguments: { id: itemId } }, { toolInputSchema: pmGet.inputSchema });
    expect(got.status).toBe(200);
    expect(got.body!.result.structuredContent.item).toMatchObject({ id: itemId, title: 'served over HTTP' });
    expect(got.body!.result.isError).toBeUndefined();
  });

  test('MCP-Protocol-Version, Mcp-Method and (for tools/call, prompts/get, resources/read) Mcp-Name are required: 400 -32020 without them', async () => {
    const request = modernRequest(100, 'resources/read', { uri: 'pm://context' });
    expect((await httpPost(url, request.body, request.headers)).status).toBe(200);
    for (const drop of ['MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name']) {
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== drop));
      const error = expectRejection(await httpPost(url, request.body, headers), 400, -32020);
      expect(error.message).toContain(`${drop} header is required`);
      expect((await httpPost(url, request.body, headers)).body!.id).toBe(100);
    }
    const list = modernRequest(101, 'tools/list');
    expect(list.headers['Mcp-Name']).toBeUndefined();
    expect((await httpPost(url, list.body, list.headers)).status).toBe(200);
  });

  test('header names are case-insensitive, values case-sensitive, optional whitespace trimmed', async () => {
    const request = modernRequest(110, 'tools/list');
    expect((await httpPost(url, request.body, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' })).status).toBe(200);
    expect((await httpPost(url, request.body, { 'MCP-PROTOCOL-VERSION': '2026-07-28', 'MCP-METHOD': 'tools/list' })).status).toBe(200);
    expect((await httpPost(url, request.body, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': '  tools/list\t' })).status).toBe(200);
    expectRejection(await httpPost(url, request.body, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'TOOLS/LIST' }), 400, -32020);
    expectRejection(await httpPost(url, request.body, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'prompts/list' }), 400, -32020);
  });

  test('Mcp-Name must mirror the body: a mismatch is 400 -32020 naming both values (wire example 14)', async () => {
    const request = modernRequest(120, 'tools/call', { name: 'pm_context', arguments: {} });
    const ok = await httpPost(url, request.body, request.headers);
    expect(ok.status).toBe(200);
    const error = expectRejection(await httpPost(url, request.body, { ...request.headers, 'Mcp-Name': 'pm_list' }), 400, -32020);
    expect(error.message).toBe("Header mismatch: Mcp-Name header value 'pm_list' does not match body value 'pm_context'");
    // A value that is not plain ASCII travels base64-encoded and is decoded before the comparison.
    const read = modernRequest(121, 'resources/read', { uri: 'pm://items/pm-zz über' });
    expect(read.headers['Mcp-Name']).toMatch(/^=\?base64\?.*\?=$/);
    const notFound = await httpPost(url, read.body, read.headers);
    expect(notFound.body!.error).toMatchObject({ code: -32602, data: { uri: 'pm://items/pm-zz über' } });
  });

  test('x-mcp-header arguments: Mcp-Param-Item-Id must be present and equal to the argument (400 -32020 otherwise)', async () => {
    const request = modernRequest(130, 'tools/call', { name: 'pm_get', arguments: { id: itemId } }, { toolInputSchema: PM_GET_SCHEMA });
    expect(request.headers['Mcp-Param-Item-Id']).toBe(itemId);
    expect((await httpPost(url, request.body, request.headers)).status).toBe(200);
    const missing = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'Mcp-Param-Item-Id'));
    expect(expectRejection(await httpPost(url, request.body, missing), 400, -32020).message).toContain('Mcp-Param-Item-Id header is required');
    expect(expectRejection(await httpPost(url, request.body, { ...request.headers, 'Mcp-Param-Item-Id': 'pm-other' }), 400, -32020).message).toContain(`does not match argument id value '${itemId}'`);
    const encoded = `=?base64?${Buffer.from(itemId).toString('base64')}?=`;
    expect((await httpPost(url, request.body, { ...request.headers, 'Mcp-Param-Item-Id': encoded })).status).toBe(200);
    expect(expectRejection(await httpPost(url, request.body, { ...request.headers, 'Mcp-Param-Item-Id': '=?base64?SGVsbG8?=' }), 400, -32020).message).toContain('malformed Base64');
    // An absent annotated argument expects no header (the tool then reports its own argument error).
    const absent = modernRequest(131, 'tools/call', { name: 'pm_get', arguments: {} }, { toolInputSchema: PM_GET_SCHEMA });
    const reply = await httpPost(url, absent.body, absent.headers);
    expect(reply.status).toBe(200);
    expect(reply.body!.result.isError).toBe(true);
  });

  test('version and metadata: header ≠ body is -32020; unsupported is -32022; missing _meta is -32602; missing capability is -32021 — all 400', async () => {
    const request = modernRequest(140, 'tools/list');
    expectRejection(await httpPost(url, request.body, { ...request.headers, 'MCP-Protocol-Version': '2027-01-01' }), 400, -32020);
    const future = modernRequest(141, 'tools/list', {}, { meta: { [MCP_META.protocolVersion]: '2027-01-01' } });
    expect(expectRejection(await httpPost(url, future.body, future.headers), 400, -32022).data).toEqual({ supported: [PM_MCP_PROTOCOL_VERSION], requested: '2027-01-01' });
    const bare = { jsonrpc: '2.0', id: 142, method: 'tools/list' };
    expect(expectRejection(await httpPost(url, bare, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' }), 400, -32602).message).toContain('io.modelcontextprotocol/protocolVersion');
    const tasks = modernRequest(143, 'subscriptions/listen', { notifications: { taskIds: ['t-1'] } });
    expect(expectRejection(await httpPost(url, tasks.body, tasks.headers), 400, -32021).data).toEqual({ requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
  });

  test('method not found is 404 with the JSON-RPC error (removed methods too); a known method is 200', async () => {
    const unknown = modernRequest(150, 'tools/frobnicate');
    expectRejection(await httpPost(url, unknown.body, unknown.headers), 404, -32601);
    const ping = modernRequest(151, 'ping');
    expect(expectRejection(await httpPost(url, ping.body, ping.headers), 404, -32601).message).toContain('removed');
    expect((await call('prompts/list')).status).toBe(200);
  });

  test('Origin: absent or allowed passes (allowed browsers get CORS headers); a foreign or null Origin is 403', async () => {
    const request = modernRequest(160, 'tools/list');
    expect((await httpPost(url, request.body, request.headers)).status).toBe(200);
    const own = await httpPost(url, request.body, { ...request.headers, Origin: `http://localhost:${server.port}` });
    expect(own.status).toBe(200);
    const configured = await httpPost(url, request.body, { ...request.headers, Origin: 'https://app.example.com' });
    expect(configured.status).toBe(200);
    expect(configured.headers['access-control-allow-origin']).toBe('https://app.example.com');
    for (const origin of ['https://evil.example.com', 'null', 'https://app.example.com.evil.example', 'HTTPS://APP.EXAMPLE.COM']) {
      const error = expectRejection(await httpPost(url, request.body, { ...request.headers, Origin: origin }), 403, -32600);
      expect(error.message).toContain('Origin');
    }
    const preflight = await httpPost(url, undefined, { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, mcp-method, mcp-param-item-id' }, { method: 'OPTIONS', defaults: false });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': 'https://app.example.com', 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type, mcp-method, mcp-param-item-id' });
    expect((await httpPost(url, undefined, { Origin: 'https://evil.example.com' }, { method: 'OPTIONS', defaults: false })).status).toBe(403);
  });

  test('Host is validated against DNS rebinding: the bound authorities pass, any other name is 421', async () => {
    const request = modernRequest(170, 'tools/list');
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `LOCALHOST:${server.port}`]) expect((await httpPost(url, request.body, request.headers, { host })).status).toBe(200);
    for (const host of ['evil.example.com', `evil.example.com:${server.port}`, '127.0.0.1:1', 'localhost']) {
      expect(expectRejection(await httpPost(url, request.body, request.headers, { host }), 421, -32600).message).toContain('Host');
    }
  });

  test('request bodies are bounded (1 MiB: 413 with a JSON-RPC error); headers too (431)', async () => {
    const request = modernRequest(180, 'tools/call', { name: 'pm_search', arguments: { query: 'x'.repeat(900_000) } });
    expect((await httpPost(url, request.body, request.headers)).status).toBe(200);
    const big = modernRequest(181, 'tools/call', { name: 'pm_search', arguments: { query: 'x'.repeat(1_100_000) } });
    const tooLarge = expectRejection(await httpPost(url, big.body, big.headers), 413, -32600);
    expect(tooLarge.message).toContain('1048576');
    const small = modernRequest(182, 'tools/list');
    const overflow = await httpPost(url, small.body, { ...small.headers, 'X-Padding': 'p'.repeat(20_000) });
    expectRejection(overflow, 431, -32600);
  });

  test('a body that is not declared JSON is 415 with a JSON-RPC error, before anything runs (no simple cross-site POST)', async () => {
    const request = modernRequest(185, 'tools/call', { name: 'pm_create', arguments: { title: 'smuggled as text/plain' } });
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/json; charset=latin1', 'json', '']) {
      const reply = await httpPost(url, request.body, { ...request.headers, 'Content-Type': type });
      const error = expectRejection(reply, 415, -32600);
      // One fixed message: the client's value is never repeated.
      expect(error.message).toBe('Unsupported Media Type: Content-Type must be application/json (a JSON-RPC message encoded as UTF-8)');
    }
    const none = await httpPost(url, request.body, { Accept: 'application/json, text/event-stream', ...request.headers }, { defaults: false });
    expectRejection(none, 415, -32600);
    const listed = await call('tools/call', { name: 'pm_search', arguments: { query: 'smuggled' } });
    expect(JSON.stringify(listed.body!.result.structuredContent)).not.toContain('smuggled as text/plain');
    // JSON spellings official clients send pass: parameters, case, and +json suffix types.
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"', 'application/vnd.mcp+json']) {
      const ok = modernRequest(186, 'tools/list');
      expect((await httpPost(url, ok.body, { ...ok.headers, 'Content-Type': type })).status).toBe(200);
    }
  });

  test('bad JSON is 400 -32700; a valid JSON non-request is 400 -32600 (id null, batch, wrong jsonrpc, bad UTF-8)', async () => {
    const headers = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' };
    expect(expectRejection(await httpPost(url, '{"jsonrpc":"2.0","id":1,', headers), 400, -32700).message).toContain('Parse error');
    expectRejection(await httpPost(url, '', headers), 400, -32700);
    expectRejection(await httpPost(url, Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1'), headers), 400, -32700);
    expectRejection(await httpPost(url, { jsonrpc: '2.0', id: null, method: 'tools/list' }, headers), 400, -32600);
    expectRejection(await httpPost(url, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }] as unknown as Record<string, unknown>, headers), 400, -32600);
    const wrong = expectRejection(await httpPost(url, { jsonrpc: '1.0', id: 7, method: 'tools/list' }, headers), 400, -32600);
    expect(wrong.message).toContain('jsonrpc');
  });

  test('only POST carries messages: GET and DELETE are 405 with Allow: POST and a JSON-RPC body; session headers are ignored', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const reply = await httpPost(url, undefined, { Accept: 'text/event-stream', 'Mcp-Session-Id': 'stale-session' }, { method, defaults: false });
      expectRejection(reply, 405, -32600);
      expect(reply.headers.allow).toBe('POST');
    }
    const request = modernRequest(190, 'tools/list');
    const reply = await httpPost(url, request.body, { ...request.headers, 'Mcp-Session-Id': 'stale-session', 'Last-Event-ID': '42' });
    expect(reply.status).toBe(200);
    expect(reply.headers['mcp-session-id']).toBeUndefined();
    const elsewhere = await httpPost(url.replace('/mcp', '/other'), request.body, request.headers);
    expectRejection(elsewhere, 404, -32600);
  });

  test('notifications are accepted with 202 and an empty body; so are posted responses (pm sends no requests)', async () => {
    const cancelled = await httpPost(url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, _meta: modernMeta() } }, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'notifications/cancelled' });
    expect({ status: cancelled.status, text: cancelled.text }).toEqual({ status: 202, text: '' });
    expect((await httpPost(url, { jsonrpc: '2.0', method: 'notifications/whatever' })).status).toBe(202);
    expect((await httpPost(url, { jsonrpc: '2.0', id: 3, result: {} })).status).toBe(202);
    // A request is not a notification: it gets its response.
    expect((await call('tools/list')).status).toBe(200);
  });

  test('Accept: both or JSON-only get JSON; neither is 406; a listen without text/event-stream is 406', async () => {
    const request = modernRequest(200, 'tools/list');
    expect((await httpPost(url, request.body, { ...request.headers, Accept: 'application/json' })).headers['content-type']).toMatch(/^application\/json/);
    expect((await httpPost(url, request.body, { ...request.headers, Accept: '*/*' })).status).toBe(200);
    expectRejection(await httpPost(url, request.body, { ...request.headers, Accept: 'text/html' }), 406, -32600);
    const listen = modernRequest(201, 'subscriptions/listen', { notifications: { resourcesListChanged: true } });
    expect(expectRejection(await httpPost(url, listen.body, { ...listen.headers, Accept: 'application/json' }), 406, -32600).message).toContain('text/event-stream');
  });

  test('initialize-era clients are served by the legacy adapter, statelessly (beyond the seeds: docs/HTTP.md)', async () => {
    const init = await httpPost(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy-http', version: '1.0.0' } } });
    expect(init.status).toBe(200);
    // A sealed session id carrying the client's identity (mcp-http-legacy-actor.test.ts); echoing it is optional.
    expect(init.headers['mcp-session-id']).toMatch(/^pms1\./);
    expect(init.body!.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'pm' }, capabilities: { tools: {}, resources: {}, prompts: {} } });
    expect(init.body!.result.capabilities.resources).toEqual({}); // no subscribe/listChanged: no channel for them
    expectValid(init, '2025-11-25', 'initialize');
    expect((await httpPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'MCP-Protocol-Version': '2025-11-25' })).status).toBe(202);
    const tools = await httpPost(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'MCP-Protocol-Version': '2025-11-25' });
    expect(tools.status).toBe(200);
    expect(tools.body!.result.resultType).toBeUndefined();
    expectValid(tools, '2025-11-25', 'tools/list');
    const context = await httpPost(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'pm_context', arguments: {} } }, { 'MCP-Protocol-Version': '2025-11-25' });
    expectValid(context, '2025-11-25', 'tools/call');
    expect(JSON.parse(context.body!.result.content[0].text)).toEqual(context.body!.result.structuredContent);
    // Legacy errors keep legacy codes and HTTP 200 (what 2025-era clients read).
    const missing = await httpPost(url, { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'pm://items/pm-zzzzzz' } }, { 'MCP-Protocol-Version': '2025-11-25' });
    expect({ status: missing.status, code: missing.body!.error.code }).toEqual({ status: 200, code: -32002 });
    expect((await httpPost(url, { jsonrpc: '2.0', id: 5, method: 'ping' }, { 'MCP-Protocol-Version': '2025-11-25' })).body!.result).toEqual({});
    // The legacy version header on an Mcp-Method-carrying POST still selects the legacy adapter (era first).
    const withMethod = await httpPost(url, { jsonrpc: '2.0', id: 6, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, { 'MCP-Protocol-Version': '2025-06-18', 'Mcp-Method': 'initialize' });
    expect(withMethod.body!.result.protocolVersion).toBe('2025-06-18');
    expectValid(withMethod, '2025-06-18', 'initialize');
    // A revision outside the accepted set is refused and named (seed 004).
    const old = await httpPost(url, { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    expect(old.body!.error).toMatchObject({ code: -32022, data: { supported: ['2025-11-25', '2025-06-18'], requested: '2024-11-05' } });
  });

  test('subscriptions/listen is an SSE stream: acknowledgement first, then tagged notifications, no event ids', async () => {
    const listen = modernRequest('listen-1', 'subscriptions/listen', { notifications: { resourcesListChanged: true, resourceSubscriptions: ['pm://items'], toolsListChanged: true } });
    const stream = await openSse(url, listen.body, listen.headers);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream');
      expect(stream.headers['x-accel-buffering']).toBe('no');
      const ack = await stream.waitFor((e) => e.method === 'notifications/subscriptions/acknowledged');
      expect(stream.events[0]).toBe(ack);
      expect(ack.params).toEqual({ notifications: { resourcesListChanged: true, resourceSubscriptions: ['pm://items'] }, _meta: { [MCP_META.subscriptionId]: 'listen-1' } });
      await call('tools/call', { name: 'pm_create', arguments: { title: 'appears on the stream' } });
      const changed = await stream.waitFor((e) => e.method === 'notifications/resources/list_changed');
      expect(changed.params._meta).toEqual({ [MCP_META.subscriptionId]: 'listen-1' });
      for (const event of stream.events) expect(replyProblems({ status: 200, headers: {}, text: '', body: event, events: [], otherSseLines: [] }, '2026-07-28')).toEqual([]);
      expect(stream.raw.every((block) => !/^id:/m.test(block))).toBe(true);
    } finally {
      stream.close();
    }
  });
});

describe('the endpoint in-process: SSE for request-scoped notifications, Accept, cancellation', () => {
  let harness: McpHarness;
  let url: string;
  let listener: McpHttpListener;

  beforeEach(async () => {
    harness = new McpHarness({ logging: true });
    ({ url, listener } = await startInProcessHttp({ server: harness.server, dispatcher: harness.dispatcher }));
  });
  afterEach(async () => {
    harness.state.gate.open();
    await listener.close({ graceMs: 2_000 });
  });

  test('progress with a progressToken turns the response into an SSE stream: progress, then the result', async () => {
    harness.state.gate.open();
    const request = modernRequest(1, 'tools/call', { name: 'slow', arguments: {} }, { meta: { progressToken: 'p-1' } });
    const reply = await httpPost(url, request.body, request.headers);
    expect(reply.status).toBe(200);
    expect(reply.headers).toMatchObject({ 'content-type': 'text/event-stream', 'x-accel-buffering': 'no' });
    expect(reply.otherSseLines).toEqual([]); // data lines only: no event ids
    expect(reply.events.map((e) => e.method ?? 'result')).toEqual(['notifications/progress', 'notifications/progress', 'result']);
    expect(reply.events[0]!.params).toMatchObject({ progressToken: 'p-1', progress: 1, total: 3 });
    expect(reply.events[2]).toMatchObject({ id: 1, result: { resultType: 'complete', structuredContent: { aborted: false } } });
    expectValid(reply, '2026-07-28', 'tools/call');
  });

  test('without a progressToken or logLevel the same call is one JSON response', async () => {
    harness.state.gate.open();
    const request = modernRequest(2, 'tools/call', { name: 'slow', arguments: {} });
    const reply = await httpPost(url, request.body, request.headers);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.body).toMatchObject({ id: 2, result: { structuredContent: { aborted: false } } });
    expectValid(reply, '2026-07-28', 'tools/call');
  });

  test('a logLevel sends notifications/message at or above it on the request stream', async () => {
    harness.state.gate.open();
    const request = modernRequest(3, 'tools/call', { name: 'slow', arguments: {} }, { meta: { [MCP_META.logLevel]: 'info' } });
    const reply = await httpPost(url, request.body, request.headers);
    expect(reply.events.map((e) => e.method ?? 'result')).toEqual(['notifications/message', 'result']);
    expect(reply.events[0]!.params).toMatchObject({ level: 'warning', logger: 'slow' });
    expectValid(reply, '2026-07-28', 'tools/call');
  });

  test('Accept JSON-only drops the optional progress and answers JSON; SSE-only gets even a lone result as an event', async () => {
    harness.state.gate.open();
    const request = modernRequest(4, 'tools/call', { name: 'slow', arguments: {} }, { meta: { progressToken: 7 } });
    const json = await httpPost(url, request.body, { ...request.headers, Accept: 'application/json' });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body).toMatchObject({ id: 4, result: { resultType: 'complete' } });
    const list = modernRequest(5, 'tools/list');
    const sse = await httpPost(url, list.body, { ...list.headers, Accept: 'text/event-stream' });
    expect(sse.headers['content-type']).toBe('text/event-stream');
    expect(sse.events).toHaveLength(1);
    expectValid(sse, '2026-07-28', 'tools/list');
  });

  test('closing the response stream cancels the request: its signal aborts and nothing more is written', async () => {
    const request = modernRequest(6, 'tools/call', { name: 'slow', arguments: {} }, { meta: { progressToken: 'c-6' } });
    const stream = await openSse(url, request.body, request.headers);
    await stream.waitFor((e) => e.method === 'notifications/progress');
    const signal = harness.state.seenSignals[0]!;
    const aborted = new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    stream.close();
    await aborted;
    expect(signal.aborted).toBe(true);
    expect(stream.events.every((e) => e.method === 'notifications/progress')).toBe(true);
  });
});

describe('the transport in-process: lifecycle and admission', () => {
  test('a closing transport refuses new POSTs with 503, lets in-flight ones finish, then closes', async () => {
    const harness = new McpHarness();
    const { url, transport, listener } = await startInProcessHttp({ dispatcher: harness.dispatcher, graceMs: 5_000 });
    const slow = modernRequest(1, 'tools/call', { name: 'slow', arguments: {} }, { meta: { progressToken: 's' } });
    const stream = await openSse(url, slow.body, slow.headers);
    await stream.waitFor((e) => e.method === 'notifications/progress');
    expect(transport.inFlight).toBe(1);
    // A POST already on the wire when the close begins (its headers read, its body not yet):
    // the listener stops accepting connections, and this one is answered 503.
    const list = modernRequest(2, 'tools/list');
    const text = JSON.stringify(list.body);
    const headersRead = new Promise((resolve) => listener.server.once('request', resolve));
    let closed: Promise<void> | undefined;
    const refused = await new Promise<{ status: number; body: LooseJson }>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { ...list.headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), Accept: 'application/json, text/event-stream' } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(body) as LooseJson }));
      });
      req.on('error', reject);
      req.write(text.slice(0, 10));
      void headersRead.then(() => {
        closed = transport.close();
        req.end(text.slice(10));
      });
    });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('shutting down') } });
    harness.state.gate.open();
    expect((await stream.waitFor((e) => e.id === 1)).result).toMatchObject({ structuredContent: { aborted: false } });
    await closed;
    expect(transport.inFlight).toBe(0);
  });

  test('the principal an authorizer admits reaches the handler; credentials never do; a refusal is answered before anything runs', async () => {
    const harness = new McpHarness();
    const seen: string[] = [];
    const { url, transport } = await startInProcessHttp({
      dispatcher: harness.dispatcher,
      authorize: async ({ authorization, request }) => {
        seen.push(`${request.method}:${request.scope}`);
        return authorization === 'Bearer good' ? { principal: { id: 'alice', scopes: ['pm:read'] } } : { rejection: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' }, body: JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -31001, message: 'no' } }) } };
      },
    });
    try {
      const echo = modernRequest(3, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
      const ok = await httpPost(url, echo.body, { ...echo.headers, Authorization: 'Bearer good' });
      expect(ok.status).toBe(200);
      const ctx = harness.state.seenContexts[0] as { principal: unknown; transport: string };
      expect(ctx.principal).toEqual({ id: 'alice', scopes: ['pm:read'] });
      expect(ctx.transport).toBe('http');
      expect(JSON.stringify(ctx)).not.toContain('Bearer good');
      const refused = await httpPost(url, echo.body, { ...echo.headers, Authorization: 'Bearer bad' });
      expect({ status: refused.status, challenge: refused.headers['www-authenticate'], id: refused.body?.id }).toEqual({ status: 401, challenge: 'Bearer', id: 3 });
      expect(harness.state.seenContexts).toHaveLength(1);
      const fail = modernRequest(4, 'tools/call', { name: 'fail', arguments: { kind: 'conflict' } });
      await httpPost(url, fail.body, { ...fail.headers, Authorization: 'Bearer good' });
      const note = await httpPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { Authorization: 'Bearer good' });
      expect(note.status).toBe(202);
      expect(seen).toEqual(['tools/call:read', 'tools/call:read', 'tools/call:write', 'notifications/initialized:read']);
    } finally {
      await transport.close();
    }
  });
});

describe('a listen disconnect over the real node composition', () => {
  test('deletes the subscription and frees its watch', async () => {
    const dir = await tempTracker();
    const container = await buildContainer(settingsFromEnv({}, dir, 'tester'), 'node');
    const subscriptions: PmMcpSubscriptionRegistry = await container.getAsync(IDS.McpSubscriptions);
    const { url, listener, transport } = await startInProcessHttp({ dispatcher: await container.getAsync(IDS.McpDispatcher) });
    try {
      const listen = modernRequest(9, 'subscriptions/listen', { notifications: { resourcesListChanged: true } });
      const stream = await openSse(url, listen.body, listen.headers);
      await stream.waitFor((e) => e.method === 'notifications/subscriptions/acknowledged');
      expect({ size: subscriptions.size, watching: subscriptions.watching }).toEqual({ size: 1, watching: true });
      stream.close();
      await transport.idle(); // the listen exchange has ended: its subscription was removed before it did
      expect({ size: subscriptions.size, watching: subscriptions.watching }).toEqual({ size: 0, watching: false });
    } finally {
      await listener.close({ graceMs: 2_000 });
      await (await container.getAsync(IDS.Tracker)).dispose();
    }
  });
});

describe('startup and shutdown of the real process', () => {
  test('SIGTERM ends listen streams with their closing result, lets the process exit 0', async () => {
    const dir = await tempTracker();
    const server = await processes.start(dir);
    const listen = modernRequest('bye', 'subscriptions/listen', { notifications: { resourcesListChanged: true } });
    const stream = await openSse(server.url, listen.body, listen.headers);
    await stream.waitFor((e) => e.method === 'notifications/subscriptions/acknowledged');
    server.proc.process.kill('SIGTERM');
    const closing = await stream.waitFor((e) => e.id === 'bye');
    expect(closing.result).toEqual({ resultType: 'complete', _meta: { [MCP_META.subscriptionId]: 'bye', [MCP_META.serverInfo]: expect.objectContaining({ name: 'pm' }) } });
    await stream.ended;
    expect(await server.proc.exited).toEqual({ code: 0, signal: null });
    expect(server.proc.stderr()).toContain('SIGTERM: shutting down');
  });

  test('with no tracker it creates one in the launch directory and says so; --no-init refuses instead', async () => {
    const dir = await emptyDir();
    const server = await processes.start(dir);
    expect(server.proc.stderr()).toContain(`no tracker found from ${dir}; created one at ${dir}/.agents/pm`);
    expect(existsSync(join(dir, '.agents', 'pm', 'config.yaml'))).toBe(true);
    server.proc.process.kill('SIGTERM');
    await server.proc.exited;
    const other = await emptyDir();
    const refused = await processes.startFailing(other, { PM_MCP_HTTP_INIT: '0' });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('no tracker found');
    expect(existsSync(join(other, '.agents'))).toBe(false);
  });

  test('--help and --version answer before the server is loaded; an unknown flag exits 2', async () => {
    const dir = await emptyDir();
    const hooks = join(dir, 'record-loads.mjs');
    const log = join(dir, 'loaded.txt');
    await writeFile(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(log)}, url + '\\n');\n  return next(url, context);\n}\n`);
    await writeFile(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const recorded = { NODE_OPTIONS: `--import ${pathToFileURL(join(dir, 'register.mjs')).href}` };
    const help = await processes.startFailing(dir, recorded, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pm-mcp-http \[options\]/);
    const loaded = await readFile(log, 'utf8');
    expect(loaded).toContain('/dist/composition/mcp-http-main.js');
    for (const heavy of ['mcp-http-serve.js', 'compose-http.js', 'mcp-http-server.js', 'http-settings.js', '/node_modules/zod/', '/node_modules/express/', '/node_modules/jose/']) expect(loaded).not.toContain(heavy);
    const version = await processes.startFailing(dir, {}, ['--version']);
    expect({ code: version.code, stdout: version.stdout }).toEqual({ code: 0, stdout: (JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version });
    const unknown = await processes.startFailing(dir, {}, ['--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--bogus'.*see pm-mcp-http --help/);
    expect(unknown.stdout).toBe('');
    expect(existsSync(join(dir, '.agents'))).toBe(false);
  });

  test('a start that fails on a busy port creates no tracker; one that fails after creating it says so', async () => {
    const dir = await emptyDir();
    const busy = await processes.start(await tempTracker());
    const taken = await processes.startFailing(dir, { PM_MCP_HTTP_PORT: String(busy.port) });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('EADDRINUSE');
    expect(existsSync(join(dir, '.agents'))).toBe(false);
    const badKeys = await processes.startFailing(dir, { PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: 'https://auth.example.test', PM_MCP_AUTH_JWKS_FILE: join(dir, 'missing-jwks.json') });
    expect(badKeys.code).not.toBe(0);
    expect(badKeys.stderr).toContain('cannot read the JWKS file');
    expect(existsSync(join(dir, '.agents', 'pm'))).toBe(true);
    expect(badKeys.stderr).toContain(`created one at ${dir}/.agents/pm (it stays:`);
  });

  test('configuration problems are reported before anything is served', async () => {
    const dir = await tempTracker();
    const remote = await processes.startFailing(dir, { PM_MCP_HTTP_HOST: '0.0.0.0' });
    expect(remote.code).not.toBe(0);
    expect(remote.stderr).toContain('requires bearer authorization');
    const badPath = await processes.startFailing(dir, { PM_MCP_HTTP_PATH: 'mcp' });
    expect(badPath.stderr).toContain('invalid configuration: path');
    const badOrigin = await processes.startFailing(dir, { PM_MCP_HTTP_ALLOWED_ORIGINS: 'app.example.com' });
    expect(badOrigin.stderr).toContain('allowedOrigins');
  });

  test('`npm start` serves the tracker of the directory npm was started from (INIT_CWD), on loopback', async () => {
    const dir = await emptyDir();
    const repo = fileURLToPath(new URL('../..', import.meta.url));
    const child = spawn('npm', ['--prefix', repo, 'start', '--silent'], { cwd: dir, env: { ...process.env, PM_MCP_HTTP_PORT: '0' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    cleanups.push(async () => killGroup());
    try {
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const endpoint = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start printed no URL; stderr: ${err}`)), 30_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const line = out.split('\n').find((l) => l.startsWith('http://'));
          if (line) {
            clearTimeout(timer);
            resolve(line.trim());
          }
        });
      });
      expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(err).toContain(`created one at ${dir}/.agents/pm`);
      expect(err).toContain('"pm-stdio"');
      const discover = modernRequest(1, 'server/discover');
      expect((await httpPost(endpoint, discover.body, discover.headers)).status).toBe(200);
      expect(out.trim()).toBe(endpoint); // with --silent, stdout is the URL alone
      // SIGTERM to npm itself (npm exits without passing it on): the server must not outlive it.
      const npmExited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await npmExited;
      const stillServing = async () => httpPost(endpoint, discover.body, discover.headers).then(() => true, () => false);
      const deadline = Date.now() + 15_000;
      while ((await stillServing()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await stillServing()).toBe(false);
    } finally {
      killGroup();
    }
  });
});

describe('bearer authorization wiring (PM_MCP_AUTH_SECRET)', () => {
  const secret = 'a-local-development-secret-of-32-bytes!!';
  const issuer = 'https://issuer.example.com';

  test('401 with a challenge, the RFC 9728 document at both paths, 403 for a missing scope, the principal as actor', async () => {
    const dir = await tempTracker();
    const server = await processes.start(dir, { PM_MCP_AUTH_ISSUER: issuer, PM_MCP_AUTH_SECRET: secret });
    const token = (scope: string) =>
      new SignJWT({ scope }).setProtectedHeader({ alg: 'HS256' }).setIssuer(issuer).setAudience(server.url).setSubject('alice').setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode(secret));
    const list = modernRequest(1, 'tools/list');
    const denied = await httpPost(server.url, list.body, list.headers);
    expect(denied.status).toBe(401);
    expect(denied.headers['www-authenticate']).toContain('resource_metadata="');
    expect(denied.body).toMatchObject({ id: 1, error: { code: expect.any(Number) } });
    const origin = new URL(server.url).origin;
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const metadata = await httpPost(`${origin}${path}`, undefined, {}, { method: 'GET', defaults: false });
      expect(metadata.status).toBe(200);
      expect(metadata.body).toMatchObject({ resource: server.url, authorization_servers: [issuer], scopes_supported: ['pm:read', 'pm:write'] });
    }
    const reader = await token('pm:read');
    expect((await httpPost(server.url, list.body, { ...list.headers, Authorization: `Bearer ${reader}` })).status).toBe(200);
    const create = modernRequest(2, 'tools/call', { name: 'pm_create', arguments: { title: 'needs write' } });
    const forbidden = await httpPost(server.url, create.body, { ...create.headers, Authorization: `Bearer ${reader}` });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers['www-authenticate']).toContain('insufficient_scope');
    const writer = await token('pm:write');
    const created = await httpPost(server.url, create.body, { ...create.headers, Authorization: `Bearer ${writer}` });
    expect(created.status).toBe(200);
    expect(created.body!.result.structuredContent.receipt.actor).toBe('alice');
    expect(server.proc.stderr()).toContain('authorization: bearer tokens from');
  });
});

describe('official MCP clients over HTTP', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await processes.start(await tempTracker());
  });

  test('the v2 client in 2026-07-28 mode lists and calls tools (x-mcp-header headers included)', async () => {
    const client = new ClientV2({ name: 'v2-http', version: '2.0.0' }, { versionNegotiation: { mode: { pin: PM_MCP_PROTOCOL_VERSION } } });
    await client.connect(new HttpTransportV2(new URL(server.url)));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(PM_MCP_PROTOCOL_VERSION);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('pm_get');
      const created = (await client.callTool({ name: 'pm_create', arguments: { title: 'from the v2 client' } })) as { structuredContent: { item: { id: string }; receipt: { actor: string } } };
      expect(created.structuredContent.receipt).toMatchObject({ client: 'v2-http/2.0.0' });
      const id = created.structuredContent.item.id;
      const got = (await client.callTool({ name: 'pm_get', arguments: { id } })) as { isError?: boolean; structuredContent: { item: { title: string } } };
      expect(got.isError).toBeFalsy();
      expect(got.structuredContent.item.title).toBe('from the v2 client');
      const discover = await client.discover();
      expect(discover.supportedVersions).toEqual([PM_MCP_PROTOCOL_VERSION]);
    } finally {
      await client.close();
    }
  });

  test('the v1 client (StreamableHTTPClientTransport, 2025-11-25) lists and calls tools', async () => {
    const client = new ClientV1({ name: 'v1-http', version: '1.0.0' });
    const transport = new HttpTransportV1(new URL(server.url));
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'pm' });
      expect(transport.sessionId).toMatch(/^pms1\./);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('pm_context');
      const context = (await client.callTool({ name: 'pm_context', arguments: {} })) as unknown as { isError?: boolean; structuredContent: { idPrefix: string } };
      expect(context.isError).toBeFalsy();
      expect(context.structuredContent.idPrefix).toBe('pm');
      const created = (await client.callTool({ name: 'pm_create', arguments: { title: 'from the v1 client' } })) as unknown as { structuredContent: { item: { id: string }; receipt: { actor: string } } };
      // The SDK echoes the Mcp-Session-Id, which carries its initialize identity: the write is the client's.
      expect(created.structuredContent.receipt).toMatchObject({ client: 'v1-http/1.0.0' });
      const got = (await client.callTool({ name: 'pm_get', arguments: { id: created.structuredContent.item.id } })) as unknown as { structuredContent: { item: { title: string } } };
      expect(got.structuredContent.item.title).toBe('from the v1 client');
      await expect(client.ping()).resolves.toEqual({});
    } finally {
      await client.close();
    }
  });
});
