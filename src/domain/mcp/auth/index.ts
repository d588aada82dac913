/**
 * Authorization for the MCP HTTP resource server (2026-07-28 `basic/authorization`):
 * RFC 9728 protected resource metadata, RFC 6750 bearer challenges, RFC 8707 audience-bound
 * token claims, per-operation scopes and per-request identity isolation. Pure domain code:
 * token signatures are verified by an adapter (jose) behind the Authorizer port.
 */
export * from './www-authenticate.js';
export * from './resource-uri.js';
export * from './protected-resource-metadata.js';
export * from './auth-errors.js';
export * from './scopes.js';
export * from './bearer-header.js';
export * from './token-claims.js';
export * from './request-isolation.js';
