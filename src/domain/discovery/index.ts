/**
 * Progressive tool discovery and canonical model-facing results (seed 004 "Decision"): the
 * extension's negotiation, the catalogue with its digest, deterministic ranking, cursors bound
 * to query, profile and catalogue, token and omission receipts, the canonical result shape and
 * the server extension that applies them to negotiated requests only.
 */
export * from './token-estimate.js';
export * from './discovery-capability.js';
export * from './tool-ranking.js';
export * from './tool-catalog.js';
export * from './discovery-cursor.js';
export * from './discover-tools.js';
export * from './pm-discover-tool.js';
export * from './canonical-result.js';
export * from './catalog-source.js';
export * from './pm-discovery-catalog.js';
export * from './discovery-extension.js';
