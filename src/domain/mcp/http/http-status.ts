import { MCP_ERROR_CODES } from '../../errors/mcp-errors.js';
import { serializeJsonRpcError } from '../json-rpc.js';
import type { McpEra } from '../protocol.js';
import type { JsonRpcId } from '../wire-types.js';

/**
 * HTTP statuses of JSON-RPC outcomes on Streamable HTTP (2026-07-28 `basic/transports/streamable-http` and `basic/index` "Error Codes"; seed 004
 * "Transport behavior"). The spec fixes: 400 for -32020, -32021, -32022 and the missing-`_meta`
 * -32602; 404 for -32601; 202 for an accepted notification; 403 for a foreign Origin; 405 for
 * GET/DELETE. pm's policy for the rest (docs/HTTP.md "Statuses"):
 *
 * - modern path: every error that describes the request itself is 400 (-32700, -32600, -32602
 *   of any kind, -32020, -32021, -32022), -32601 is 404, and errors met while executing a
 *   well-formed request (-32603, the tracker's application codes) are 200 with the error body,
 *   so every client reads them the same way as on stdio;
 * - legacy path (initialize-era clients): only unreadable messages (-32700, -32600) are 400;
 *   everything else is 200 with the error body, which is what 2025-era clients expect (they
 *   surface a non-2xx POST as a transport failure, not as the JSON-RPC error it carries).
 */
export function mcpHttpStatusForError(code: number, era: McpEra): number {
  if (code === MCP_ERROR_CODES.parseError || code === MCP_ERROR_CODES.invalidRequest) return 400;
  if (era === 'legacy') return 200;
  if (code === MCP_ERROR_CODES.methodNotFound) return 404;
  if (
    code === MCP_ERROR_CODES.invalidParams ||
    code === MCP_ERROR_CODES.headerMismatch ||
    code === MCP_ERROR_CODES.missingRequiredClientCapability ||
    code === MCP_ERROR_CODES.unsupportedProtocolVersion
  ) {
    return 400;
  }
  return 200;
}

/** A response decided before (or instead of) dispatch: status, extra headers and a JSON-RPC error body. */
export interface McpHttpRejection {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** The serialized JSON-RPC error response (every rejection carries one). */
  readonly body: string;
}

/**
 * A transport-level rejection. The JSON-RPC code is -32600 Invalid Request unless given: the
 * HTTP exchange itself is unacceptable (foreign Origin, bad Host, wrong HTTP method, oversized
 * body, unacceptable Accept), and 2026-07-28 reserves -32000…-32099 to codes it defines.
 * `id` is echoed only when the body was read.
 */
export function mcpHttpRejection(status: number, message: string, options: { readonly code?: number; readonly id?: JsonRpcId; readonly data?: Record<string, unknown>; readonly headers?: Record<string, string> } = {}): McpHttpRejection {
  const error = { code: options.code ?? MCP_ERROR_CODES.invalidRequest, message, ...(options.data ? { data: options.data } : {}) };
  return Object.freeze({ status, ...(options.headers ? { headers: Object.freeze({ ...options.headers }) } : {}), body: serializeJsonRpcError(options.id, error) });
}
