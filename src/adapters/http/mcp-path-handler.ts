import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_ERROR_CODES } from '../../domain/errors/mcp-errors.js';
import { checkMcpHttpContentType, checkMcpHttpOrigin, mcpHttpRejection, type McpHttpSecurityPolicy } from '../../domain/mcp/http/index.js';
import { serializeJsonRpcError } from '../../domain/mcp/json-rpc.js';
import { writeJsonResponse, writeRejection } from './http-responder.js';
import { readRequestBody } from './read-request-body.js';

/**
 * Everything pm-mcp-http does with a request on the MCP path once Host has been checked
 * (seed 004 "Transport behavior"; docs/HTTP.md "What happens to one POST", steps 2–3):
 * Origin → 403 (an allowed browser origin gets the CORS response headers); `access_token` in
 * the query → 400 (tokens travel only in the Authorization header); OPTIONS → the CORS
 * preflight; POST → a Content-Type that is not JSON → 415 before the body is read; the body, bounded (413), decoded as UTF-8 (400 -32700 otherwise) and handed
 * to the transport's exchange; any other method → 405 with `Allow: POST`.
 *
 * Written over node's own request and response: no body parser, one responder object per POST.
 */

/** Answers one POST whose body has been read and decoded. */
export type McpHttpExchangeHandler = (req: IncomingMessage, res: ServerResponse, body: string | undefined) => Promise<void>;

/** Options of {@link createMcpPathHandler}. */
export interface McpPathHandlerOptions {
  readonly exchange: McpHttpExchangeHandler;
  readonly security: McpHttpSecurityPolicy;
  /** Largest accepted request body in bytes (larger → 413). */
  readonly maxBodyBytes: number;
  /** Told about unexpected failures. */
  readonly onError?: (error: unknown) => void;
}

const CORS_ALLOWED_HEADERS = 'Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name';
const CORS_REQUEST_HEADERS = /^[A-Za-z0-9\-_, ]*$/;
const ACCESS_TOKEN_IN_QUERY = /[?&]access_token=/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The handler of requests on the MCP path (Host already checked). */
export function createMcpPathHandler(options: McpPathHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { security, maxBodyBytes } = options;

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
    try {
      await options.exchange(req, res, text);
    } catch (error) {
      internalError(res, error);
    }
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
      const unsupported = checkMcpHttpContentType(req.headers['content-type']);
      if (unsupported) return writeRejection(res, unsupported);
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
    writeRejection(res, mcpHttpRejection(405, `Method not allowed: ${method}; this MCP endpoint accepts POST only (no GET stream; no DELETE: a legacy Mcp-Session-Id holds no server state to end)`, { headers: { Allow: 'POST' } }));
  };
}
