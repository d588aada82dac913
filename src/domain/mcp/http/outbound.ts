import type { JsonRpcId } from '../wire-types.js';

/**
 * Reading back what the dispatcher writes for one HTTP request, so the transport can choose
 * between a single JSON response and an SSE stream (2026-07-28 `basic/transports/streamable-http`
 * "Sending Messages to the Server"; spec-notes §6): request-scoped notifications before the
 * result need a stream, a lone result does not.
 */

/** One message written for a request: a notification, its result, or its error (with the code, for the HTTP status). */
export type McpOutboundKind = { readonly kind: 'notification' } | { readonly kind: 'result' } | { readonly kind: 'error'; readonly code: number };

const NOTIFICATION_PREFIX = '{"jsonrpc":"2.0","method":';

/**
 * Classifies a message written for request `id`. The dispatcher's own serializers are
 * recognised by prefix (no parse on the hot path); anything else is parsed.
 */
export function classifyMcpOutbound(message: unknown, id: JsonRpcId): McpOutboundKind {
  let value = message;
  if (typeof message === 'string') {
    if (message.startsWith(NOTIFICATION_PREFIX)) return { kind: 'notification' };
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
    if (message.startsWith(head)) return { kind: 'result' };
    value = JSON.parse(message) as unknown;
  }
  const record = (value ?? {}) as Record<string, unknown>;
  if (typeof record.method === 'string') return { kind: 'notification' };
  if (record.error && typeof record.error === 'object') {
    const code = (record.error as Record<string, unknown>).code;
    return { kind: 'error', code: typeof code === 'number' ? code : 0 };
  }
  return { kind: 'result' };
}

/** The message as one line of JSON text. */
export function mcpOutboundText(message: unknown): string {
  return typeof message === 'string' ? message : JSON.stringify(message);
}

/**
 * One SSE event carrying one JSON-RPC message: a single `data:` line (the text has no newline)
 * and no `id:` field — 2026-07-28 removed event ids and resumption (seed 004 "Removed").
 */
export function formatMcpSseEvent(text: string): string {
  return `data: ${text}\n\n`;
}

/** An SSE comment line, used as a keep-alive on long streams. */
export const MCP_SSE_KEEP_ALIVE = ': keep-alive\n\n';

/** Response headers of an SSE stream on a POST (X-Accel-Buffering: no keeps proxies from buffering). */
export const MCP_SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
});
