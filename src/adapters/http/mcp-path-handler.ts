import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_ERROR_CODES } from '../../domain/errors/mcp-errors.js';
import type { McpCancellable } from '../../domain/mcp/dispatcher.js';
import { checkMcpHttpOrigin, mcpHttpRejection, type McpHttpExchange, type McpHttpHeaders, type McpHttpSecurityPolicy, type PmMcpHttpEndpoint } from '../../domain/mcp/http/index.js';
import { serializeJsonRpcError } from '../../domain/mcp/json-rpc.js';
import { NodeMcpHttpResponder, writeJsonResponse, writeRejection } from './http-responder.js';
import { readRequestBody } from './read-request-body.js';

/**
 * Everything pm-mcp-http does with a request on the MCP path once Host has been checked
 * (seed 004 "Transport behavior"; docs/HTTP.md "What happens to one POST", steps 2–3):
 * Origin → 403 (an allowed browser origin gets the CORS response headers); `access_token` in
 * the query → 400 (tokens travel only in the Authorization header); OPTIONS → the CORS
 * preflight; POST → the body, bounded (413), decoded as UTF-8 (400 -32700 otherwise) and handed
 * to the runtime-neutral endpoint; any other method → 405 with `Allow: POST`.
 *
 * Written over node's own request and response (issue 4 "Performance (benchmark)"): no body
 * parser, no per-request closures for cancellation (one shared 'close' listener aborts the
 * request the dispatcher registered), one responder object per POST.
 */

/** Options of {@link createMcpPathHandler}. */
export interface McpPathHandlerOptions {
  readonly endpoint: PmMcpHttpEndpoint;
  readonly security: McpHttpSecurityPolicy;
  /** Largest accepted request body in bytes (larger → 413). */
  readonly maxBodyBytes: number;
  /** Interval of SSE keep-alive comments on long streams. */
  readonly keepAliveMs: number;
  /** Told about unexpected failures. */
  readonly onError?: (error: unknown) => void;
}

const CORS_ALLOWED_HEADERS = 'Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name';
const CORS_REQUEST_HEADERS = /^[A-Za-z0-9\-_, ]*$/;
const ACCESS_TOKEN_IN_QUERY = /[?&]access_token=/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const CANCEL_TARGET = Symbol('pm.mcp.cancel');

type CancellableResponse = ServerResponse & { [CANCEL_TARGET]?: McpCancellable };

const clientClosed = (): Error => new Error('the client closed the response');

/** The one 'close' listener of every MCP POST response (shared: no closure per request). */
function onResponseClose(this: CancellableResponse): void {
  const target = this[CANCEL_TARGET];
  if (target !== undefined && !this.writableFinished) target.abort(clientClosed());
}

/** One POST as the endpoint sees it; cancellation is registered on the response, not created. */
class NodeMcpHttpExchange implements McpHttpExchange {
  constructor(
    readonly headers: McpHttpHeaders,
    readonly body: string | undefined,
    private readonly res: CancellableResponse,
  ) {}

  onCancel(target: McpCancellable): void {
    const res = this.res;
    res[CANCEL_TARGET] = target;
    if (res.destroyed && !res.writableFinished) target.abort(clientClosed());
  }
}

/** The handler of requests on the MCP path (Host already checked). */
export function createMcpPathHandler(options: McpPathHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { endpoint, security, maxBodyBytes, keepAliveMs } = options;

  const internalError = (res: ServerResponse, error: unknown): void => {
    options.onError?.(error);
    writeJsonResponse(res, 500, serializeJsonRpcError(undefined, { code: MCP_ERROR_CODES.internalError, message: 'Internal error' }));
  };

  async function handlePost(req: IncomingMessage, res: ServerResponse, raw: Buffer | undefined): Promise<void> {
    let text: string | undefined;
    if (raw !== undefined && raw.length !== 0) {
      try {
        text = UTF8.decode(raw);
      } catch {
        return writeRejection(res, mcpHttpRejection(400, 'Parse error: the body is not valid UTF-8', { code: MCP_ERROR_CODES.parseError }));
      }
    }
    res.on('close', onResponseClose);
    try {
      await endpoint.handle(new NodeMcpHttpExchange(req.headers, text, res), new NodeMcpHttpResponder(res, keepAliveMs));
    } catch (error) {
      return internalError(res, error);
    }
    // Cancelled before anything was written: nobody is listening any more.
    if (!res.headersSent && !res.destroyed) res.destroy();
  }

  return (req, res) => {
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const forbidden = checkMcpHttpOrigin(security, origin);
      if (forbidden) return writeRejection(res, forbidden);
      // An allowed browser origin may read the response (and the auth challenge).
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
    }
    const url = req.url ?? '';
    if (url.includes('access_token=') && ACCESS_TOKEN_IN_QUERY.test(url)) {
      return writeRejection(res, mcpHttpRejection(400, 'Bad request: bearer tokens are accepted only in the Authorization header, never in the query string'));
    }
    const method = req.method;
    if (method === 'POST') {
      readRequestBody(req, maxBodyBytes, (refusal, raw) => {
        if (refusal) return writeRejection(res, mcpHttpRejection(refusal.status, refusal.message, refusal.tooLarge ? { headers: { Connection: 'close' } } : {}));
        handlePost(req, res, raw).catch((error: unknown) => internalError(res, error));
      });
      return;
    }
    if (method === 'OPTIONS') {
      const requested = req.headers['access-control-request-headers'];
      res.writeHead(204, {
        Allow: 'POST, OPTIONS',
        ...(origin !== undefined
          ? {
              'Access-Control-Allow-Methods': 'POST',
              'Access-Control-Allow-Headers': typeof requested === 'string' && CORS_REQUEST_HEADERS.test(requested) ? requested : CORS_ALLOWED_HEADERS,
              'Access-Control-Max-Age': '600',
            }
          : {}),
      });
      res.end();
      return;
    }
    writeRejection(res, mcpHttpRejection(405, `Method not allowed: ${method}; this MCP endpoint accepts POST only (no GET stream, no DELETE: there are no sessions)`, { headers: { Allow: 'POST' } }));
  };
}
