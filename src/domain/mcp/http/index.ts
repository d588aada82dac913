/**
 * Streamable HTTP support of the MCP core (seed 004 "Transport behavior", "Public SDK"): the
 * header SDK (buildMcpHttpRequestHeaders / validateMcpHttpRequestHeaders, value encoding,
 * `x-mcp-header` annotations), status mapping, Origin/Host policy, Accept negotiation and the
 * runtime-neutral POST endpoint that any HTTP host can drive. Pure: no node I/O, no framework.
 */
export * from './header-values.js';
export * from './header-annotations.js';
export * from './request-headers.js';
export * from './http-status.js';
export * from './http-security.js';
export * from './accept.js';
export * from './outbound.js';
export * from './endpoint.js';
export * from './authorize.js';
