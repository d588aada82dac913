import { MCP_ERROR_CODES, PmMcpProtocolError } from '../errors/mcp-errors.js';
import { PmError } from '../errors/pm-error.js';
import type { JsonRpcErrorObject } from './json-rpc.js';
import type { McpEra } from './protocol.js';

/**
 * The one place a thrown value becomes a JSON-RPC error object (docs/ARCHITECTURE.md "How a request flows"
 * step 5). Typed `PmError`s keep their code, message and data; anything else is -32603 with a
 * generic message, so internals never reach the client. HTTP status mapping stays in the HTTP
 * adapter.
 */

/** Codes a 2026-07-28 server may emit from the reserved -32000..-32099 block (`basic/index` "Error Codes"). */
const MODERN_RESERVED_ALLOWED: ReadonlySet<number> = new Set([
  MCP_ERROR_CODES.headerMismatch,
  MCP_ERROR_CODES.missingRequiredClientCapability,
  MCP_ERROR_CODES.unsupportedProtocolVersion,
]);

function isReserved(code: number): boolean {
  return code >= -32099 && code <= -32000;
}

/**
 * Maps `error` to the JSON-RPC error for `era`. Legacy-only codes (e.g. -32002 resource not
 * found) apply on the legacy path only. On the modern path a code from the spec-reserved
 * -32000..-32099 block that 2026-07-28 does not define becomes -32603, keeping the typed
 * `reason` and the original code in `data` (the spec forbids emitting undefined reserved codes).
 */
export function toMcpJsonRpcError(error: unknown, era: McpEra): JsonRpcErrorObject {
  if (!(error instanceof PmError)) return { code: MCP_ERROR_CODES.internalError, message: 'Internal error' };
  const wire = error.toJsonRpcError();
  let code = wire.code;
  let data: Record<string, unknown> = wire.data;
  if (era === 'legacy' && error instanceof PmMcpProtocolError && error.legacyJsonRpcCode !== undefined) code = error.legacyJsonRpcCode;
  if (era === 'modern' && isReserved(code) && !MODERN_RESERVED_ALLOWED.has(code)) {
    data = { ...data, pmCode: code };
    code = MCP_ERROR_CODES.internalError;
  }
  return Object.keys(data).length ? { code, message: wire.message, data } : { code, message: wire.message };
}
