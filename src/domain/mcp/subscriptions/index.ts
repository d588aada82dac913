/**
 * Listen-stream subscriptions (2026-07-28 `basic/patterns/subscriptions`; seed 004 "Transport
 * behavior"): the filter rules, the public {@link PmMcpSubscriptionRegistry}, the change-source
 * contract and the listen method. The tracker's own change source lives with the tracker's MCP
 * surface (`domain/mcp-tracker/tracker-change-source.ts`).
 */
export * from './change-source.js';
export * from './subscription-filter.js';
export * from './subscription-registry.js';
export * from './listen-method.js';
