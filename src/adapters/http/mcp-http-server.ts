import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mcpHttpAuthority, mcpHttpRejection } from '../../domain/mcp/http/index.js';

/**
 * The node:http listener under pm-mcp-http: binds host/port (port 0 → an ephemeral port),
 * bounds header sizes (node's `maxHeaderSize`; an oversized header block is answered 431 with a
 * JSON-RPC error body, as is any unparsable request with 400), and shuts down gracefully: stop
 * accepting connections, let in-flight responses finish, close idle keep-alive sockets, and only
 * after a grace period cut what is left. The request handler (the express app) is installed once
 * the composition knows the bound port; until then requests get 503.
 */

/** Options of {@link listenMcpHttp}. */
export interface McpHttpListenOptions {
  readonly host: string;
  readonly port: number;
  /** Largest request header block in bytes (node `maxHeaderSize`). */
  readonly maxHeaderBytes: number;
}

/** What the load balancer's probes are answered from. */
export interface McpHttpProbes {
  /** Why the server cannot take requests now (empty: ready). */
  notReady(): Promise<readonly string[]>;
}

/** The probe paths: liveness (the process answers) and readiness (it can serve). */
export const MCP_HTTP_HEALTH_PATH = '/healthz';
export const MCP_HTTP_READY_PATH = '/readyz';

/** A bound listener. */
export interface McpHttpListener {
  readonly server: Server;
  readonly host: string;
  /** The bound port (the real one when 0 was asked for). */
  readonly port: number;
  /** `http://<host>:<port><path>` (IPv6 literals bracketed). */
  url(path: string): string;
  /** Installs the request handler. */
  serve(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  /** Installs what `GET /readyz` reports (until then it answers 503 "starting"). */
  probe(probes: McpHttpProbes): void;
  /**
   * Stops accepting connections and waits (at most `graceMs`) for `drain` (in-flight requests
   * and streams) and for open sockets to close; then destroys what is left.
   */
  close(options?: { readonly drain?: () => Promise<void>; readonly graceMs?: number }): Promise<void>;
}

function writeRawRejection(socket: Socket, status: number, reason: string, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = mcpHttpRejection(status, message).body;
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * Answers the load balancer's probes, before Host and Origin checks (they carry no data):
 * `/healthz` 200 whenever the process answers; `/readyz` 200 `{"status":"ready"}`, or 503 with
 * the reasons (starting, draining, the database unreachable) so the balancer sends traffic
 * elsewhere.
 */
async function answerProbe(req: IncomingMessage, res: ServerResponse, path: string, probes: McpHttpProbes | undefined): Promise<void> {
  let reasons: readonly string[] = [];
  if (path === MCP_HTTP_READY_PATH) {
    try {
      reasons = probes ? await probes.notReady() : ['starting'];
    } catch (error) {
      reasons = [`readiness check failed: ${(error as Error).message}`];
    }
  }
  const body = JSON.stringify(reasons.length ? { status: 'unavailable', reasons } : { status: path === MCP_HTTP_READY_PATH ? 'ready' : 'ok' });
  res.writeHead(reasons.length ? 503 : 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Binds the listener. Rejects when the address is in use or not available. */
export async function listenMcpHttp(options: McpHttpListenOptions): Promise<McpHttpListener> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let probes: McpHttpProbes | undefined;
  const server = createServer({ maxHeaderSize: options.maxHeaderBytes }, (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if ((req.method === 'GET' || req.method === 'HEAD') && (path === MCP_HTTP_HEALTH_PATH || path === MCP_HTTP_READY_PATH)) return void answerProbe(req, res, path, probes);
    if (handler) return handler(req, res);
    const rejection = mcpHttpRejection(503, 'Service unavailable: the server is starting');
    res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
    res.end(rejection.body);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'HPE_HEADER_OVERFLOW') return writeRawRejection(socket, 431, 'Request Header Fields Too Large', `Request header fields too large: the header block exceeds ${options.maxHeaderBytes} bytes`);
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    writeRawRejection(socket, 400, 'Bad Request', 'Bad request: the HTTP request could not be parsed');
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    server.once('error', fail);
    server.listen(options.port, options.host, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    host: options.host,
    port,
    url: (path) => `http://${mcpHttpAuthority(options.host, port)}${path}`,
    serve(next) {
      handler = next;
    },
    probe(next) {
      probes = next;
    },
    async close({ drain, graceMs = 10_000 } = {}) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
      if (drain) await Promise.race([drain(), timeout]);
      server.closeIdleConnections();
      const outcome = await Promise.race([closed.then(() => 'closed' as const), timeout]);
      if (outcome === 'timeout') {
        server.closeAllConnections();
        await closed;
      }
    },
  };
}
