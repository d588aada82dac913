/**
 * Streamable HTTP test support: real `pm-mcp-http` processes on 127.0.0.1 with port 0, the
 * same transport started in-process over any dispatcher, and a raw HTTP client
 * (node:http, so Host, Origin and header case go out exactly as written) that reads JSON and
 * SSE responses. Every process started here is killed by {@link McpHttpProcesses.killAll}.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import { listenMcpHttp, type McpHttpListener } from '../../src/adapters/http/mcp-http-server.js';
import { StreamableHttpTransport } from '../../src/adapters/http/mcp-http-transport.js';
import {
  buildMcpHttpRequestHeaders,
  createMcpHttpSecurityPolicy,
  type McpHttpAuthorize,
  type PmMcpDispatcher,
  type PmMcpServerDescriptor,
} from '../../src/domain/mcp/index.js';
import { checkMcpMessage, type McpSchemaRevision } from './mcp-schema.js';
import { McpProcesses, modernMeta, type McpProcess } from './mcp-stdio.js';

/** A parsed JSON message, read loosely by tests (deep member access without casts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseJson = Record<string, any>;

export const PM_MCP_HTTP_BIN = fileURLToPath(new URL('../../bin/pm-mcp-http.js', import.meta.url));

/** A running pm-mcp-http and its endpoint URL. */
export interface HttpServerProcess {
  readonly proc: McpProcess;
  readonly url: string;
  readonly port: number;
}

/** Starts `pm-mcp-http` processes (cwd = a tracker directory, port 0) and kills every one of them. */
export class McpHttpProcesses {
  private readonly processes = new McpProcesses();

  /** Spawns one server (pm-mcp-http, or `script args`) and waits for the URL it prints on stdout. */
  async start(cwd: string, env: NodeJS.ProcessEnv = {}, script = PM_MCP_HTTP_BIN, args: readonly string[] = []): Promise<HttpServerProcess> {
    const proc = this.processes.spawn(cwd, { PM_MCP_HTTP_PORT: '0', INIT_CWD: cwd, ...env }, script, args);
    const url = await proc.waitForLine((line) => line.startsWith('http://'), 20_000, 'the endpoint URL on stdout');
    return { proc, url, port: Number(new URL(url).port) };
  }

  /** Spawns one server that is expected to fail at startup; resolves with its exit and stderr. */
  async startFailing(cwd: string, env: NodeJS.ProcessEnv = {}, args: readonly string[] = []): Promise<{ code: number | null; stderr: string; stdout: string }> {
    const proc = this.processes.spawn(cwd, { PM_MCP_HTTP_PORT: '0', INIT_CWD: cwd, ...env }, PM_MCP_HTTP_BIN, args);
    const { code } = await proc.exited;
    return { code, stderr: proc.stderr(), stdout: proc.lines.join('\n') };
  }

  killAll(): Promise<void> {
    return this.processes.killAll();
  }
}

/** The same transport as pm-mcp-http, in this process, over `dispatcher` (port 0 on 127.0.0.1). */
export async function startInProcessHttp(options: {
  readonly server?: PmMcpServerDescriptor;
  readonly dispatcher: PmMcpDispatcher;
  readonly authorize?: McpHttpAuthorize;
  readonly maxBodyBytes?: number;
  readonly maxHeaderBytes?: number;
  readonly allowedOrigins?: readonly string[];
  readonly keepAliveMs?: number;
  readonly graceMs?: number;
  readonly path?: string;
}): Promise<{ url: string; listener: McpHttpListener; transport: StreamableHttpTransport; errors: unknown[] }> {
  const listener = await listenMcpHttp({ host: '127.0.0.1', port: 0, maxHeaderBytes: options.maxHeaderBytes ?? 16 * 1024 });
  const errors: unknown[] = [];
  const path = options.path ?? '/mcp';
  const transport = new StreamableHttpTransport(listener, {
    path,
    security: createMcpHttpSecurityPolicy({ host: '127.0.0.1', port: listener.port, allowedOrigins: options.allowedOrigins ?? [] }),
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    ...(options.authorize ? { authorize: options.authorize } : {}),
    ...(options.keepAliveMs ? { keepAliveMs: options.keepAliveMs } : {}),
    ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
    onError: (error) => errors.push(error),
  });
  await transport.start(options.dispatcher);
  return { url: listener.url(path), listener, transport, errors };
}

/** One HTTP response, fully read. SSE bodies are split into their JSON `data:` events. */
export interface HttpReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The parsed JSON body (application/json), if any. */
  readonly body: LooseJson | undefined;
  /** The parsed `data:` events (text/event-stream), in order. */
  readonly events: LooseJson[];
  /** Raw SSE field lines other than data (must be none: no ids). */
  readonly otherSseLines: string[];
}

/** Options of {@link httpPost}. */
export interface HttpPostOptions {
  readonly method?: string;
  /** Sent as the Host header instead of the URL's authority. */
  readonly host?: string;
  /** Include the default Accept/Content-Type headers (default true). */
  readonly defaults?: boolean;
}

function parseSse(text: string): { events: LooseJson[]; other: string[] } {
  const events: LooseJson[] = [];
  const other: string[] = [];
  for (const block of text.split('\n\n')) {
    for (const line of block.split('\n')) {
      if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)) as LooseJson);
      else if (line !== '' && !line.startsWith(':')) other.push(line);
    }
  }
  return { events, other };
}

/** One request with headers written exactly as given; resolves when the response has ended. */
export function httpPost(url: string, body: string | Record<string, unknown> | undefined, headers: Record<string, string | string[]> = {}, options: HttpPostOptions = {}): Promise<HttpReply> {
  const target = new URL(url);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const all: Record<string, string | string[]> = {
    ...(options.defaults === false ? {} : { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }),
    ...(options.host !== undefined ? { Host: options.host } : {}),
    ...headers,
  };
  return new Promise((resolve, reject) => {
    const req = request({ hostname: target.hostname, port: target.port, path: target.pathname + target.search, method: options.method ?? 'POST', headers: all, agent: false }, (res) => {
      res.setEncoding('utf8');
      let text = '';
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const type = res.headers['content-type'] ?? '';
        const sse = type.startsWith('text/event-stream') ? parseSse(text) : { events: [], other: [] };
        let parsed: LooseJson | undefined;
        if (type.startsWith('application/json') && text) parsed = JSON.parse(text) as LooseJson;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed, events: sse.events, otherSseLines: sse.other });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** An SSE response read incrementally (listen streams); close() drops the connection. */
export interface SseStream {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly events: LooseJson[];
  readonly raw: string[];
  /** Resolves with the first event (past or future) that matches. */
  waitFor(match: (event: LooseJson) => boolean, timeoutMs?: number): Promise<LooseJson>;
  /** Resolves when the server ended the response. */
  readonly ended: Promise<void>;
  /** Closes the connection (the client going away). */
  close(): void;
}

/** Opens one POST whose response is read as a live SSE stream. */
export function openSse(url: string, body: Record<string, unknown>, headers: Record<string, string>): Promise<SseStream> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        const events: LooseJson[] = [];
        const raw: string[] = [];
        const wakers = new Set<() => void>();
        let buffer = '';
        let done = false;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            raw.push(block);
            for (const line of block.split('\n')) if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)) as LooseJson);
          }
          for (const wake of wakers) wake();
        });
        const ended = new Promise<void>((done_) => {
          const finish = () => {
            done = true;
            done_();
            for (const wake of wakers) wake();
          };
          res.on('end', finish);
          res.on('close', finish);
          res.on('error', finish);
        });
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          raw,
          ended,
          close: () => req.destroy(),
          waitFor: (match, timeoutMs = 15_000) =>
            new Promise((ok, fail) => {
              const timer = setTimeout(() => settle(new Error(`no matching SSE event within ${timeoutMs} ms; got ${JSON.stringify(events)}`)), timeoutMs);
              const check = () => {
                const hit = events.find(match);
                if (hit) settle(undefined, hit);
                else if (done) settle(new Error(`the stream ended without a matching event; got ${JSON.stringify(events)}`));
              };
              const settle = (error?: Error, event?: LooseJson) => {
                clearTimeout(timer);
                wakers.delete(check);
                if (error) fail(error);
                else ok(event!);
              };
              wakers.add(check);
              check();
            }),
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A modern JSON-RPC request and the MCP headers a conformant client sends with it. */
export function modernRequest(
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
  options: { readonly meta?: Record<string, unknown>; readonly toolInputSchema?: object; readonly clientName?: string } = {},
): { body: { jsonrpc: '2.0'; id: string | number; method: string; params: Record<string, unknown> }; headers: Record<string, string> } {
  const body = { jsonrpc: '2.0' as const, id, method, params: { ...params, _meta: modernMeta(options.meta ?? {}, options.clientName ?? 'http-test') } };
  return { body, headers: buildMcpHttpRequestHeaders(body, options.toolInputSchema ? { toolInputSchema: options.toolInputSchema } : {}) };
}

/** Schema problems of a reply: its JSON body, or every SSE event, for `revision` (empty: valid). */
export function replyProblems(reply: HttpReply, revision: McpSchemaRevision, method?: string): string[] {
  const messages = reply.body !== undefined ? [reply.body] : reply.events;
  if (!messages.length) return reply.status === 202 ? [] : [`no JSON-RPC message in a ${reply.status} response: ${reply.text.slice(0, 200)}`];
  return messages.flatMap((message) => checkMcpMessage(message, revision, method && (message.result !== undefined || message.error !== undefined) ? { method } : {}));
}
