import { BoundedCache } from '../../util/bounded-cache.js';

/**
 * `Accept` negotiation for Streamable HTTP POSTs (2026-07-28 `basic/transports/streamable-http`:
 * the client MUST list both `application/json` and `text/event-stream`, but the server behaviour
 * for a missing or partial Accept is unspecified). pm's decision (docs/HTTP.md "Accept"): be liberal in what it accepts.
 *
 * - absent, empty, or a wildcard (`*` + `/*`) → both forms allowed;
 * - JSON only → single JSON responses; request-scoped progress and log notifications are dropped
 *   (sending them is optional), and `subscriptions/listen`, which needs a stream, is refused 406;
 * - SSE only → every response is an SSE stream (a single result is one event);
 * - neither → 406 Not Acceptable.
 *
 * Media ranges with `q=0` count as excluded.
 */

/** Which response forms the client accepts. */
export interface McpHttpResponseForms {
  readonly json: boolean;
  readonly sse: boolean;
}

const BOTH: McpHttpResponseForms = Object.freeze({ json: true, sse: true });

const memo = new BoundedCache<string, McpHttpResponseForms>('response forms by Accept value', 64);

/**
 * Parses `Accept` into the response forms pm may use. Clients send the same few values on every
 * request, so outcomes are kept per value (the outcome is a frozen constant).
 */
export function negotiateMcpHttpResponse(accept: string | undefined): McpHttpResponseForms {
  if (accept === undefined) return BOTH;
  return memo.getOrCreate(accept, parseAccept);
}

function parseAccept(accept: string): McpHttpResponseForms {
  if (accept.trim() === '') return BOTH;
  let json = false;
  let sse = false;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    if (range === '*/*') return BOTH;
    if (range === 'application/json' || range === 'application/*') json = true;
    if (range === 'text/event-stream' || range === 'text/*') sse = true;
  }
  return json && sse ? BOTH : Object.freeze({ json, sse });
}
