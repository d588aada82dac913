/**
 * The MCP server's canonical resource URI and where its metadata lives (2026-07-28 `basic/authorization`
 * "Canonical URI"; RFC 8707 §2 "Access Token Request" resource indicators; RFC 9728 §3
 * "Obtaining Protected Resource Metadata"). Uses only the WHATWG `URL` global, so it stays pure.
 */

/** RFC 9728 §3: the well-known suffix of protected resource metadata. */
export const MCP_PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

function parseHttpUrl(uri: string, what: string): URL {
  if (typeof uri !== 'string' || uri.trim() !== uri || uri === '') throw new RangeError(`${what} must be a non-empty URL without surrounding spaces (got ${JSON.stringify(uri)})`);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new RangeError(`${what} is not an absolute URL: ${JSON.stringify(uri)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RangeError(`${what} must use http or https: ${JSON.stringify(uri)}`);
  if (!url.hostname) throw new RangeError(`${what} needs a host: ${JSON.stringify(uri)}`);
  if (url.username || url.password) throw new RangeError(`${what} must not carry user info: ${JSON.stringify(uri)}`);
  if (uri.includes('#')) throw new RangeError(`${what} must not have a fragment: ${JSON.stringify(uri)}`);
  return url;
}

/**
 * Validates an absolute http(s) URL used in metadata (authorization servers, documentation,
 * jwks_uri): scheme + host, no user info, no fragment. Returns the WHATWG serialization.
 */
export function assertMcpHttpUrl(uri: string, what: string, options: { readonly allowQuery?: boolean } = {}): string {
  const url = parseHttpUrl(uri, what);
  if (!options.allowQuery && url.search) throw new RangeError(`${what} must not have a query: ${JSON.stringify(uri)}`);
  return url.href;
}

/**
 * The canonical form of an MCP server's resource URI (2026-07-28 `basic/authorization`; RFC 8707 §2): http(s)
 * scheme, a host, optional port and path, no fragment, no query, no user info. Scheme and host
 * are lowercased and a default port is dropped (both by the URL parser); a bare origin has no
 * trailing slash; a path is kept as given. Throws RangeError on anything else (bad config).
 */
export function canonicalMcpResourceUri(uri: string): string {
  const url = parseHttpUrl(uri, 'resource URI');
  if (url.search || uri.includes('?')) throw new RangeError(`resource URI must not have a query: ${JSON.stringify(uri)}`);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * The paths this server answers with its RFC 9728 document: the root well-known path and,
 * when the resource has a path, the path-inserted form (RFC 9728 §3.1: the well-known suffix
 * goes between host and path), e.g. for `http://127.0.0.1:8787/mcp`:
 * `['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']`.
 * Serving both covers clients that probe either (2026-07-28 `basic/authorization` "Protected Resource Metadata Discovery").
 */
export function mcpProtectedResourceMetadataPaths(resourceUri: string): readonly string[] {
  const path = new URL(canonicalMcpResourceUri(resourceUri)).pathname.replace(/\/+$/, '');
  return Object.freeze(path ? [MCP_PROTECTED_RESOURCE_WELL_KNOWN, `${MCP_PROTECTED_RESOURCE_WELL_KNOWN}${path}`] : [MCP_PROTECTED_RESOURCE_WELL_KNOWN]);
}

/**
 * The absolute URL advertised as `resource_metadata` in challenges: the RFC 9728 §3.1 location
 * for the resource (path-inserted when the resource has a path), on the resource's own origin.
 */
export function mcpProtectedResourceMetadataUrl(resourceUri: string): string {
  const url = new URL(canonicalMcpResourceUri(resourceUri));
  const paths = mcpProtectedResourceMetadataPaths(resourceUri);
  return `${url.protocol}//${url.host}${paths[paths.length - 1]}`;
}
