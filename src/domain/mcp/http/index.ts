/**
 * Streamable HTTP rules of the MCP core (seed 004 "Transport behavior", "Public SDK"), used by
 * servers and clients alike: the header SDK (buildMcpHttpRequestHeaders /
 * validateMcpHttpRequestHeaders, value encoding, `x-mcp-header` annotations), status mapping,
 * Origin/Host policy, Accept negotiation, the SSE format, and the admission of one POST's
 * message. Pure: no node I/O, no framework; the endpoint's lifecycle lives in the HTTP adapter.
 */
export * from './header-values.js';
export * from './header-annotations.js';
export * from './request-headers.js';
export * from './http-status.js';
export * from './http-security.js';
export * from './accept.js';
export * from './content-type.js';
export * from './outbound.js';
export * from './admission.js';
export * from './authorize.js';
