import { isMcpScopeToken } from './www-authenticate.js';
import { assertMcpHttpUrl, canonicalMcpResourceUri } from './resource-uri.js';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728 §2) for an MCP server (2026-07-28 `basic/authorization`: the
 * server MUST publish it with at least one authorization server; `scopes_supported` SHOULD NOT
 * list `offline_access`). Built once from configuration; invalid configuration throws.
 */

/** The RFC 9728 document pm serves (members it never sets are absent, not null). */
export interface McpProtectedResourceMetadata {
  /** This server's canonical resource URI (RFC 9728 §2 `resource`; RFC 8707). */
  readonly resource: string;
  /** Issuer identifiers of the authorization servers whose tokens this server accepts. */
  readonly authorization_servers: readonly string[];
  readonly scopes_supported: readonly string[];
  /** pm accepts bearer tokens in the `Authorization` header only (RFC 6750 §2.1). */
  readonly bearer_methods_supported: readonly ['header'];
  readonly resource_name?: string;
  readonly resource_documentation?: string;
  readonly jwks_uri?: string;
}

/** Input of {@link buildMcpProtectedResourceMetadata}. */
export interface McpProtectedResourceMetadataInput {
  /** The server's resource URI, e.g. `http://127.0.0.1:8787/mcp` (canonicalized). */
  readonly resource: string;
  /** At least one authorization server issuer URL. */
  readonly authorizationServers: readonly string[];
  /** The scopes a client needs for basic use (e.g. `pm:read pm:write`); never `offline_access`. */
  readonly scopesSupported: readonly string[];
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
  /** The resource's own signing keys (rarely needed; RFC 9728 §2 `jwks_uri`, https only). */
  readonly jwksUri?: string;
}

function unique(values: readonly string[], what: string): readonly string[] {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw new RangeError(`${what} lists ${JSON.stringify(value)} twice`);
    seen.add(value);
  }
  return values;
}

/**
 * Builds and validates the RFC 9728 document (public SDK, seed 004 "Public SDK"). Throws
 * RangeError when the resource is not a canonical http(s) URI without fragment or query, when
 * no authorization server is given or one is not an http(s) URL without query/fragment
 * (RFC 8414 §2 issuer identifiers), when a scope is not an RFC 6749 scope token, duplicated,
 * or `offline_access`, or when `jwks_uri` is not https. The result is frozen.
 */
export function buildMcpProtectedResourceMetadata(input: McpProtectedResourceMetadataInput): McpProtectedResourceMetadata {
  const resource = canonicalMcpResourceUri(input.resource);
  if (!input.authorizationServers.length) throw new RangeError('protected resource metadata needs at least one authorization server');
  const servers = unique(
    input.authorizationServers.map((server) => {
      assertMcpHttpUrl(server, 'authorization server');
      return server;
    }),
    'authorization_servers',
  );
  if (!input.scopesSupported.length) throw new RangeError('protected resource metadata needs at least one supported scope');
  for (const scope of input.scopesSupported) {
    if (!isMcpScopeToken(scope)) throw new RangeError(`invalid scope token ${JSON.stringify(scope)}`);
    if (scope === 'offline_access') throw new RangeError('scopes_supported must not include offline_access (MCP authorization: SHOULD NOT)');
  }
  const document: Record<string, unknown> = {
    resource,
    authorization_servers: Object.freeze([...servers]),
    scopes_supported: Object.freeze([...unique(input.scopesSupported, 'scopes_supported')]),
    bearer_methods_supported: Object.freeze(['header']),
  };
  if (input.resourceName !== undefined) {
    if (!input.resourceName.trim()) throw new RangeError('resource_name must not be blank');
    document.resource_name = input.resourceName;
  }
  if (input.resourceDocumentation !== undefined) document.resource_documentation = assertMcpHttpUrl(input.resourceDocumentation, 'resource_documentation', { allowQuery: true });
  if (input.jwksUri !== undefined) {
    const jwks = assertMcpHttpUrl(input.jwksUri, 'jwks_uri', { allowQuery: true });
    if (!jwks.startsWith('https:')) throw new RangeError('jwks_uri must use https (RFC 9728 §2)');
    document.jwks_uri = jwks;
  }
  return Object.freeze(document) as unknown as McpProtectedResourceMetadata;
}
