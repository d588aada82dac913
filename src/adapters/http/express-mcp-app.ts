import express, { type NextFunction, type Request, type Response } from 'express';
import {
  checkMcpHttpHost,
  checkMcpHttpOrigin,
  MCP_SSE_HEADERS,
  MCP_SSE_KEEP_ALIVE,
  mcpHttpRejection,
  type McpHttpRejection,
  type McpHttpResponder,
  type McpHttpSecurityPolicy,
  type PmMcpHttpEndpoint,
} from '../../domain/mcp/http/index.js';
import { MCP_ERROR_CODES } from '../../domain/errors/mcp-errors.js';
import { serializeJsonRpcError } from '../../domain/mcp/json-rpc.js';

/**
 * The express 5 binding of pm's Streamable HTTP endpoint (seed 004 "Transport behavior";
 * docs/HTTP.md). Framework code only: the protocol decisions live in the runtime-neutral
 * `PmMcpHttpEndpoint` and the policy functions of `src/domain/mcp/http/`. Per request:
 *
 * 1. Host (DNS rebinding) → 421, on every path.
 * 2. RFC 9728 metadata (when authorization is on) at `/.well-known/oauth-protected-resource`
 *    and its path-suffixed form.
 * 3. The MCP path: Origin → 403; `access_token` in the query → 400 (tokens travel only in the
 *    Authorization header); OPTIONS → CORS preflight for allowed browser origins; POST → the
 *    body, bounded (413), decoded as UTF-8 and handed to the endpoint; any other method → 405
 *    with `Allow: POST`. Mcp-Session-Id and Last-Event-ID are never read and never issued.
 * 4. Anything else → 404. Every rejection carries a JSON-RPC error body.
 */

/** Options of {@link createExpressMcpApp}. */
export interface ExpressMcpAppOptions {
  readonly endpoint: PmMcpHttpEndpoint;
  /** The MCP endpoint path, e.g. `/mcp`. */
  readonly path: string;
  readonly security: McpHttpSecurityPolicy;
  /** Largest accepted request body in bytes (larger → 413). */
  readonly maxBodyBytes: number;
  /** The RFC 9728 document and the paths it is served at (authorization on). */
  readonly protectedResourceMetadata?: { readonly document: unknown; readonly paths: readonly string[] };
  /** Interval of SSE keep-alive comments on long streams (default 15 s). */
  readonly keepAliveMs?: number;
  /** Told about unexpected failures (logged on stderr by the composition). */
  readonly onError?: (error: unknown) => void;
}

const CORS_ALLOWED_HEADERS = 'Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name';
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function send(res: Response, rejection: McpHttpRejection): void {
  if (res.headersSent) return;
  res.writeHead(rejection.status, { ...rejection.headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(rejection.body) });
  res.end(rejection.body);
}

function responder(res: Response, keepAliveMs: number): McpHttpResponder {
  return {
    respond(status, body, headers) {
      if (res.headersSent || res.destroyed) return;
      if (body === undefined) {
        res.writeHead(status, { ...headers, 'Content-Length': 0 });
        res.end();
        return;
      }
      res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    },
    openEventStream() {
      res.writeHead(200, MCP_SSE_HEADERS);
      res.flushHeaders();
      const timer = setInterval(() => res.write(MCP_SSE_KEEP_ALIVE), keepAliveMs);
      timer.unref();
      res.once('close', () => clearInterval(timer));
      return {
        write: (chunk) => {
          if (!res.writableEnded) res.write(chunk);
        },
        end: () => {
          clearInterval(timer);
          if (!res.writableEnded) res.end();
        },
      };
    },
  };
}

/** The express application serving one MCP endpoint. */
export function createExpressMcpApp(options: ExpressMcpAppOptions): express.Express {
  const { endpoint, path, security } = options;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');

  app.use((req, res, next) => {
    const rejection = checkMcpHttpHost(security, req.headers.host);
    if (rejection) return send(res, rejection);
    next();
  });

  const metadata = options.protectedResourceMetadata;
  if (metadata) {
    const body = JSON.stringify(metadata.document);
    app.get(metadata.paths as string[], (_req, res) => {
      // Public metadata: readable from any origin (browser-based clients discover the authorization server).
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=300' });
      res.end(body);
    });
  }

  const bodyParser = express.raw({ type: () => true, limit: options.maxBodyBytes });

  app.use((req, res, next) => {
    if (req.path !== path) return next();
    const origin = req.headers.origin;
    const forbidden = checkMcpHttpOrigin(security, origin);
    if (forbidden) return send(res, forbidden);
    if (origin !== undefined) {
      // An allowed browser origin may read the response (and the auth challenge).
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
    }
    if (typeof req.url === 'string' && /[?&]access_token=/.test(req.url)) {
      return send(res, mcpHttpRejection(400, 'Bad request: bearer tokens are accepted only in the Authorization header, never in the query string'));
    }
    if (req.method === 'OPTIONS') {
      const requested = req.headers['access-control-request-headers'];
      res.writeHead(204, {
        Allow: 'POST, OPTIONS',
        ...(origin !== undefined
          ? {
              'Access-Control-Allow-Methods': 'POST',
              'Access-Control-Allow-Headers': typeof requested === 'string' && /^[A-Za-z0-9\-_, ]*$/.test(requested) ? requested : CORS_ALLOWED_HEADERS,
              'Access-Control-Max-Age': '600',
            }
          : {}),
      });
      res.end();
      return;
    }
    if (req.method !== 'POST') {
      return send(res, mcpHttpRejection(405, `Method not allowed: ${req.method}; this MCP endpoint accepts POST only (no GET stream, no DELETE: there are no sessions)`, { headers: { Allow: 'POST' } }));
    }
    bodyParser(req, res, (error?: unknown) => {
      if (error) return next(error);
      void handlePost(req, res);
    });
  });

  async function handlePost(req: Request, res: Response): Promise<void> {
    const raw = req.body as Buffer | undefined;
    let text: string | undefined;
    if (raw && raw.length) {
      try {
        text = UTF8.decode(raw);
      } catch {
        return send(res, mcpHttpRejection(400, 'Parse error: the body is not valid UTF-8', { code: MCP_ERROR_CODES.parseError }));
      }
    }
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('the client closed the response'));
    });
    try {
      await endpoint.handle({ headers: req.headers, body: text, signal: controller.signal }, responder(res, keepAliveMs));
    } catch (error) {
      options.onError?.(error);
      send(res, { status: 500, body: serializeJsonRpcError(undefined, { code: MCP_ERROR_CODES.internalError, message: 'Internal error' }) });
      return;
    }
    // Cancelled before anything was written: nobody is listening any more.
    if (!res.headersSent && !res.destroyed) res.destroy();
  }

  app.use((req, res) => {
    send(res, mcpHttpRejection(404, `Not found: ${req.path} (the MCP endpoint is ${path})`));
  });

  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    const type = (error as { type?: unknown }).type;
    if (type === 'entity.too.large') return send(res, mcpHttpRejection(413, `Payload too large: the body exceeds ${options.maxBodyBytes} bytes`, { headers: { Connection: 'close' } }));
    if (type === 'request.aborted') return;
    if (status >= 400 && status < 500) return send(res, mcpHttpRejection(status, `Bad request: ${(error as Error).message}`));
    options.onError?.(error);
    send(res, { status: 500, body: serializeJsonRpcError(undefined, { code: MCP_ERROR_CODES.internalError, message: 'Internal error' }) });
  });
  return app;
}
