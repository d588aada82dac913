/**
 * Listen-stream subscriptions (2026-07-28 `subscriptions/listen`; seed 004; issue 3
 * "Subscriptions"): the filter rules, the public {@link PmMcpSubscriptionRegistry}, the
 * change-source contract with the tracker's file-watch source, and the listen method.
 */
export * from './change-source.js';
export * from './subscription-filter.js';
export * from './subscription-registry.js';
export * from './listen-method.js';
