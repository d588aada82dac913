/**
 * The SSE wire format of Streamable HTTP responses (2026-07-28 `basic/transports/streamable-http`
 * "Sending Messages to the Server"): one JSON-RPC message per event, no event ids — 2026-07-28
 * removed event ids and resumption (seed 004 "Removed, migrated, and deprecated behavior").
 */

/** One SSE event carrying one JSON-RPC message: a single `data:` line (the text has no newline). */
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
