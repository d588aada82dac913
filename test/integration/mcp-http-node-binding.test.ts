/**
 * The node:http + express binding of pm-mcp-http on 127.0.0.1, port 0 (docs/HTTP.md,
 * "Performance (benchmark)"; docs/HTTP.md "What happens to one POST" steps 1–3): the MCP path's
 * own body reader (no body-parser) keeps the parser's behaviour — Content-Encoding gzip/deflate/br
 * inflated under the bound, other encodings 415, chunked bodies bounded (413 after draining, the
 * connection closed), a client leaving mid-body harmless — and the path is matched exactly on
 * the raw request target (origin-form and absolute-form; a trailing slash or another case is 404).
 * Memoized results (tools/list) go out with an exact Content-Length.
 */
import { request } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { McpHttpListener } from '../../src/adapters/http/mcp-http-server.js';
import { McpHarness } from '../support/mcp-fake-server.js';
import { modernRequest, startInProcessHttp } from '../support/mcp-http.js';

interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** One POST with a raw body (Buffer chunks; `chunked` sends them without Content-Length). */
function rawPost(url: string, options: { path?: string; headers?: Record<string, string>; chunks: Buffer[]; chunked?: boolean }): Promise<RawReply> {
  const target = new URL(url);
  const length = options.chunks.reduce((n, c) => n + c.length, 0);
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(options.chunked ? {} : { 'Content-Length': String(length) }), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = request({ hostname: target.hostname, port: target.port, path: options.path ?? target.pathname, method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    for (const chunk of options.chunks) req.write(chunk);
    req.end();
  });
}

describe('the node binding of the MCP path', () => {
  let url: string;
  let listener: McpHttpListener;
  const list = modernRequest(1, 'tools/list');
  const listBody = Buffer.from(JSON.stringify(list.body));

  beforeAll(async () => {
    const h = new McpHarness();
    ({ url, listener } = await startInProcessHttp({ server: h.server, dispatcher: h.dispatcher, maxBodyBytes: 64 * 1024 }));
  });
  afterAll(async () => {
    await listener.close({ graceMs: 0 });
  });

  test('a memoized result is one JSON body with an exact Content-Length', async () => {
    for (let i = 0; i < 3; i++) {
      const reply = await rawPost(url, { headers: list.headers, chunks: [listBody] });
      expect(reply.status).toBe(200);
      expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
      expect(JSON.parse(reply.text)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: expect.any(Array) } });
    }
  });

  test('gzip, deflate and br bodies are inflated; another encoding is 415 with a JSON-RPC error', async () => {
    for (const [encoding, body] of [
      ['gzip', gzipSync(listBody)],
      ['deflate', deflateSync(listBody)],
      ['br', brotliCompressSync(listBody)],
      ['GZIP', gzipSync(listBody)],
    ] as const) {
      const reply = await rawPost(url, { headers: { ...list.headers, 'Content-Encoding': encoding }, chunks: [body] });
      expect({ encoding, status: reply.status }).toEqual({ encoding, status: 200 });
    }
    const unknown = await rawPost(url, { headers: { ...list.headers, 'Content-Encoding': 'compress' }, chunks: [listBody] });
    expect(unknown.status).toBe(415);
    expect(JSON.parse(unknown.text)).toMatchObject({ error: { code: -32600, message: 'Bad request: unsupported content encoding "compress"' } });
    const corrupt = await rawPost(url, { headers: { ...list.headers, 'Content-Encoding': 'gzip' }, chunks: [listBody] });
    expect(corrupt.status).toBe(400);
    expect(JSON.parse(corrupt.text).error.code).toBe(-32600);
  });

  test('the bound holds for chunked and inflated bodies: 413 with Connection: close', async () => {
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const chunked = await rawPost(url, { headers: list.headers, chunks: [chunk, chunk, chunk, chunk, chunk], chunked: true });
    expect(chunked.status).toBe(413);
    expect(chunked.headers.connection).toBe('close');
    expect(JSON.parse(chunked.text)).toMatchObject({ error: { code: -32600, message: expect.stringContaining('65536') } });
    const bomb = await rawPost(url, { headers: { ...list.headers, 'Content-Encoding': 'gzip' }, chunks: [gzipSync(Buffer.alloc(200 * 1024, 0x20))] });
    expect(bomb.status).toBe(413);
    // A body within the bound in many chunks is read whole.
    const pieces = [listBody.subarray(0, 10), listBody.subarray(10, 40), listBody.subarray(40)];
    expect((await rawPost(url, { headers: list.headers, chunks: pieces, chunked: true })).status).toBe(200);
  });

  test('a client leaving mid-body gets nothing and harms nothing', async () => {
    const target = new URL(url);
    // The client has sent 20 of the 5000 announced bytes and leaves once the server has the
    // request (headers parsed, its body reader started).
    const arrived = new Promise<void>((resolve) => listener.server.once('request', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      const req = request({ hostname: target.hostname, port: target.port, path: '/mcp', method: 'POST', headers: { ...list.headers, 'Content-Length': '5000' }, agent: false });
      req.on('response', (res) => reject(new Error(`a client that left got a response (${res.statusCode})`)));
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(listBody.subarray(0, 20));
      void arrived.then(() => req.destroy());
    });
    expect((await rawPost(url, { headers: list.headers, chunks: [listBody] })).status).toBe(200);
  });

  test('the path is exact: query strings and absolute-form reach it; a trailing slash or another case is 404', async () => {
    expect((await rawPost(url, { path: '/mcp?trace=1', headers: list.headers, chunks: [listBody] })).status).toBe(200);
    expect((await rawPost(url, { path: `http://${new URL(url).host}/mcp`, headers: list.headers, chunks: [listBody] })).status).toBe(200);
    for (const path of ['/mcp/', '/MCP', '/mcpx', '/']) {
      const reply = await rawPost(url, { path, headers: list.headers, chunks: [listBody] });
      expect({ path, status: reply.status }).toEqual({ path, status: 404 });
      expect(JSON.parse(reply.text).error.message).toBe(`Not found: ${path} (the MCP endpoint is /mcp)`);
    }
  });
});
