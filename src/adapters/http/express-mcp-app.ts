import { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction } from 'express';
import { MCP_ERROR_CODES } from '../../domain/errors/mcp-errors.js';
import { checkMcpHttpHost, mcpHttpRejection, type McpHttpSecurityPolicy } from '../../domain/mcp/http/index.js';
import { serializeJsonRpcError } from '../../domain/mcp/json-rpc.js';
import { writeJsonResponse, writeRejection } from './http-responder.js';
import type { BrowserBoardHandler } from './browser-board-handler.js';
import { createMcpPathHandler, type McpHttpExchangeHandler } from './mcp-path-handler.js';
import { isRequestTargetPath, requestTargetPath } from './request-target.js';

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
 *    body, bounded (413), decoded as UTF-8 and handed to the transport's exchange; any other method → 405
 *    with `Allow: POST`. Last-Event-ID is never read; Mcp-Session-Id only on the legacy path
 *    (mcp-http-exchange.ts, domain/mcp/http/legacy-session.ts).
 * 4. The live board page (`/`, `/_pm/board.js|css`, browser-board-handler.ts) when given.
 * 5. Anything else → 404. Every rejection carries a JSON-RPC error body.
 *
 * Kept thin for the hot path (docs/BENCHMARKS.md bench:http):
 * express routes every request, but with node's own request/response prototypes (its
 * per-request prototype swap is then a no-op), and the MCP path is one layer registered first:
 * Host and path are checked on the raw request target (no route regex) and
 * `mcp-path-handler.ts` serves it (its own bounded body reader instead of body-parser,
 * responses written by `http-responder.ts`).
 */

/** Options of {@link createExpressMcpApp}. */
export interface ExpressMcpAppOptions {
  /** Answers one POST on the MCP path (the transport's exchange). */
  readonly exchange: McpHttpExchangeHandler;
  /** The MCP endpoint path, e.g. `/mcp`. */
  readonly path: string;
  readonly security: McpHttpSecurityPolicy;
  /** Largest accepted request body in bytes (larger → 413). */
  readonly maxBodyBytes: number;
  /** The RFC 9728 document and the paths it is served at (authorization on). */
  readonly protectedResourceMetadata?: { readonly document: unknown; readonly paths: readonly string[] };
  /** Told about unexpected failures (logged on stderr by the composition). */
  readonly onError?: (error: unknown) => void;
  /** The live board page at `/` and its assets (docs/APPS.md "The board in the browser"). */
  readonly board?: BrowserBoardHandler;
}

/** The express application serving one MCP endpoint. */
export function createExpressMcpApp(options: ExpressMcpAppOptions): express.Express {
  const { path, security } = options;
  const mcpPath = createMcpPathHandler({
    exchange: options.exchange,
    security,
    maxBodyBytes: options.maxBodyBytes,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // Every handler here uses node's request/response API only, so express is given node's own
  // prototypes: its per-request `Object.setPrototypeOf(req|res, app.request|app.response)` is
  // then a no-op. Swapping the prototypes of node's objects slows node's HTTP code and costs
  // most of a tools/list's CPU (figures: docs/BENCHMARKS.md, bench:http).
  app.request = IncomingMessage.prototype as express.Request;
  app.response = ServerResponse.prototype as express.Response;

  // One layer, first: Host on every path, then the MCP path itself (no route regex).
  app.use((req: IncomingMessage, res: ServerResponse, next: NextFunction) => {
    const misdirected = checkMcpHttpHost(security, req.headers.host);
    if (misdirected) return writeRejection(res, misdirected);
    if (isRequestTargetPath(req.url ?? '', path)) return mcpPath(req, res);
    next();
  });

  const board = options.board;
  if (board) {
    app.use((req: IncomingMessage, res: ServerResponse, next: NextFunction) => {
      if (!board(req, res)) next();
    });
  }

  const metadata = options.protectedResourceMetadata;
  if (metadata) {
    const body = JSON.stringify(metadata.document);
    const headers = ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(body)), 'Access-Control-Allow-Origin', '*', 'Cache-Control', 'max-age=300'];
    app.get(metadata.paths as string[], (_req: IncomingMessage, res: ServerResponse) => {
      // Public metadata: readable from any origin (browser-based clients discover the authorization server).
      res.writeHead(200, headers);
      res.end(body);
    });
  }

  app.use((req: IncomingMessage, res: ServerResponse) => {
    writeRejection(res, mcpHttpRejection(404, `Not found: ${requestTargetPath(req.url ?? '')} (the MCP endpoint is ${path})`));
  });

  app.use((error: unknown, _req: IncomingMessage, res: ServerResponse, _next: NextFunction) => {
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    if (status >= 400 && status < 500) return writeRejection(res, mcpHttpRejection(status, `Bad request: ${(error as Error).message}`));
    options.onError?.(error);
    writeJsonResponse(res, 500, serializeJsonRpcError(undefined, { code: MCP_ERROR_CODES.internalError, message: 'Internal error' }));
  });
  return app;
}
