import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportPeer } from '../../ports/transport.js';
import type { McpHttpAuthorize } from '../../domain/mcp/http/admission.js';
import type { PmMcpLegacySessions } from '../../domain/mcp/http/legacy-session.js';
import { mcpHttpRejection, type McpHttpSecurityPolicy } from '../../domain/mcp/http/index.js';
import type { BrowserBoardHandler } from './browser-board-handler.js';
import { createExpressMcpApp } from './express-mcp-app.js';
import { NodeMcpHttpResponder, writeJsonResponse, writeRejection } from './http-responder.js';
import { abortOnResponseClose, NodeMcpHttpExchange } from './mcp-http-exchange.js';
import type { McpHttpListener } from './mcp-http-server.js';

/** Options of {@link StreamableHttpTransport}. */
export interface StreamableHttpTransportOptions {
  /** The MCP endpoint path, e.g. `/mcp`. */
  readonly path: string;
  readonly security: McpHttpSecurityPolicy;
  /** Largest accepted request body in bytes (larger → 413). */
  readonly maxBodyBytes: number;
  /** Bearer-token authorization; absent = no authorization (no principal). */
  readonly authorize?: McpHttpAuthorize;
  /** The RFC 9728 document and the paths it is served at (authorization on). */
  readonly protectedResourceMetadata?: { readonly document: unknown; readonly paths: readonly string[] };
  /** Seals and opens legacy clients' `Mcp-Session-Id` (absent: none issued, the header ignored). */
  readonly legacySessions?: PmMcpLegacySessions;
  /** Interval of SSE keep-alive comments on long streams (default 15 s). */
  readonly keepAliveMs?: number;
  /** How long `close` waits for in-flight exchanges before cutting them (default 10 s). */
  readonly graceMs?: number;
  /** Told about unexpected failures (logged on stderr by the composition). */
  readonly onError?: (error: unknown) => void;
  /** Serves the live board page beside the endpoint (docs/APPS.md "The board in the browser"). */
  readonly board?: BrowserBoardHandler;
}

/**
 * The Streamable HTTP transport of pm-mcp-http (seed 004 "Transport behavior": pm-mcp-http
 * binds the same dispatcher to sessionless Streamable HTTP POST; docs/HTTP.md): every POST body
 * is one frame for a fresh connection of the peer. This class owns the endpoint's lifecycle:
 * in-flight exchanges are counted; `close` refuses new POSTs (503), lets the peer drain (listen
 * streams answer their closing result), waits for in-flight exchanges (at most `graceMs`),
 * then closes the listener's sockets.
 */
export class StreamableHttpTransport implements Transport {
  private peer: TransportPeer | undefined;
  private active = 0;
  private closing = false;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly keepAliveMs: number;

  constructor(
    private readonly listener: McpHttpListener,
    private readonly options: StreamableHttpTransportOptions,
  ) {
    this.keepAliveMs = options.keepAliveMs ?? 15_000;
  }

  /** The Origin/Host policy it enforces (the startup banner lists its origins). */
  get security(): McpHttpSecurityPolicy {
    return this.options.security;
  }

  /** POSTs still being answered (listen streams included). */
  get inFlight(): number {
    return this.active;
  }

  /** Starts answering requests on the listener (until now they got 503). */
  async start(peer: TransportPeer): Promise<void> {
    this.peer = peer;
    const { path, security, maxBodyBytes, protectedResourceMetadata, onError, board } = this.options;
    this.listener.serve(
      createExpressMcpApp({
        path,
        security,
        maxBodyBytes,
        exchange: (req, res, body) => this.exchange(req, res, body),
        ...(protectedResourceMetadata ? { protectedResourceMetadata } : {}),
        ...(onError ? { onError } : {}),
        ...(board ? { board } : {}),
      }),
    );
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.listener.close({
      drain: async () => {
        this.peer?.drain();
        await this.idle();
      },
      graceMs: this.options.graceMs ?? 10_000,
    });
  }

  /** Resolves once no POST is in flight. */
  idle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Answers one POST whose body was read and decoded (Host, Origin and the body bound already checked). */
  private async exchange(req: IncomingMessage, res: ServerResponse, body: string | undefined): Promise<void> {
    const peer = this.peer;
    if (this.closing || !peer) {
      return writeRejection(res, mcpHttpRejection(503, 'Service unavailable: the server is shutting down', { headers: { Connection: 'close' } }));
    }
    this.active++;
    try {
      res.on('close', abortOnResponseClose);
      const exchange = new NodeMcpHttpExchange(req, res, new NodeMcpHttpResponder(res, this.keepAliveMs), this.options.authorize, this.options.legacySessions);
      const outcome = await peer.connect().dispatch(body ?? '', exchange);
      if (outcome === 'accepted') writeJsonResponse(res, 202, undefined);
      else if (outcome === 'cancelled') exchange.sink.release();
      // Cancelled before anything was written: nobody is listening any more.
      if (!res.headersSent && !res.destroyed) res.destroy();
    } finally {
      if (--this.active === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }
}
