import type { Principal } from '../../../ports/authorizer.js';
import type { TransportFacts } from '../../../ports/transport.js';

/**
 * Per-request identity and trace isolation over HTTP (seed 004 "Decision": no modern request
 * reads identity from a previous one; 2026-07-28 `basic/authorization`: the server is
 * stateless, so every request is authenticated and authorized on its own, and the client's
 * token is never passed upstream). Client identity and trace context never cross from one
 * request to another.
 *
 * How pm guarantees it:
 * - the transport authorizes every POST on its own and builds fresh facts for it with
 *   {@link mcpHttpRequestFacts} (credential headers removed, principal frozen);
 * - `resolveMcpRequestContext` builds one frozen context per message from that message's
 *   `_meta` (trace: `traceparent`/`tracestate`/`baggage`) and these facts alone — nothing is
 *   read from an earlier request;
 * - over HTTP each POST gets its own `PmMcpConnection` (`dispatcher.connect()` per request), so
 *   not even the legacy `initialize` state (client identity) outlives the request.
 */

/** Request headers that carry credentials; they are removed before facts reach the domain. */
export const MCP_CREDENTIAL_HEADERS: readonly string[] = Object.freeze(['authorization', 'proxy-authorization', 'cookie']);

/** A frozen copy of a principal (its scopes frozen too), safe to hand to handlers. */
export function freezeMcpPrincipal(principal: Principal): Principal {
  if (Object.isFrozen(principal) && Object.isFrozen(principal.scopes)) return principal;
  return Object.freeze({
    id: principal.id,
    scopes: Object.freeze([...principal.scopes]),
    ...(principal.issuer !== undefined ? { issuer: principal.issuer } : {}),
  });
}

/**
 * The transport facts of one HTTP request: a new frozen object with lowercased header names,
 * repeated headers joined with ", ", credential headers ({@link MCP_CREDENTIAL_HEADERS})
 * dropped, and the principal the authorizer established for this request (frozen).
 */
export function mcpHttpRequestFacts(headers: Readonly<Record<string, string | readonly string[] | undefined>>, principal?: Principal): TransportFacts {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    if (MCP_CREDENTIAL_HEADERS.includes(key)) continue;
    copy[key] = typeof value === 'string' ? value : value.join(', ');
  }
  return Object.freeze({
    kind: 'http' as const,
    headers: Object.freeze(copy),
    ...(principal ? { principal: freezeMcpPrincipal(principal) } : {}),
  });
}
