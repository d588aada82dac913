import { BoundedCache } from '../../util/bounded-cache.js';
import { mcpHttpRejection, type McpHttpRejection } from './http-status.js';

/**
 * The request `Content-Type` of a Streamable HTTP POST (2026-07-28
 * `basic/transports/streamable-http`: the body is a JSON-RPC message, sent as
 * `application/json`; `basic/security_best_practices` on cross-site requests). A browser sends
 * `text/plain`, `application/x-www-form-urlencoded` and `multipart/form-data` — or no type at
 * all — cross-site without a CORS preflight, so a server that reads such a body as JSON lets
 * any web page post tool calls to it. pm reads only bodies declared JSON:
 *
 * - `application/json` or a structured-syntax `+json` type (RFC 6839 §3.1), any case, with
 *   parameters;
 * - a `charset` parameter, when present, must be UTF-8 (the body is decoded as UTF-8 only);
 * - anything else, an empty value or no header → 415 Unsupported Media Type with a JSON-RPC
 *   error (-32600), before the body is read. The client's value is not repeated.
 */

const memo = new BoundedCache<string, boolean>('JSON content types by Content-Type value', 32);

const REJECTION = mcpHttpRejection(415, 'Unsupported Media Type: Content-Type must be application/json (a JSON-RPC message encoded as UTF-8)');

/** Undefined when `contentType` declares a UTF-8 JSON body, else the 415 rejection. */
export function checkMcpHttpContentType(contentType: string | undefined): McpHttpRejection | undefined {
  if (contentType === undefined) return REJECTION;
  return memo.getOrCreate(contentType, isJsonContentType) ? undefined : REJECTION;
}

/** Whether a Content-Type value declares a UTF-8 JSON body (see the module comment). */
export function isJsonContentType(contentType: string): boolean {
  const [type = '', ...parameters] = contentType.split(';');
  const media = type.trim().toLowerCase();
  const json = media === 'application/json' || /^application\/[a-z0-9!#$&^_.+-]+\+json$/.test(media);
  if (!json) return false;
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const charset = parameter.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return false;
  }
  return true;
}
