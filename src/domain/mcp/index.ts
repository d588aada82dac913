/**
 * pm's MCP protocol core (2026-07-28 canonical, initialize-era legacy adapter; seed 004):
 * constants, request-context resolution, envelopes, discovery, registries, method declarations,
 * the method registry with extension hooks, and the runtime-neutral dispatcher with its
 * connections. Pure domain code: no node I/O.
 */
export * from './protocol.js';
export * from './wire-types.js';
export * from './json-rpc.js';
export * from './request-meta.js';
export * from './request-context.js';
export * from './notifier.js';
export * from './capabilities.js';
export * from './envelope.js';
export * from './discover.js';
export * from './pagination.js';
export * from './uri-template.js';
export * from './tool-registry.js';
export * from './tool-argument-guard.js';
export * from './resource-registry.js';
export * from './prompt-registry.js';
export * from './server-descriptor.js';
export * from './server-extension.js';
export * from './method-spec.js';
export * from './method-outcome.js';
export * from './method-hooks.js';
export * from './method-registry.js';
export * from './interim-results.js';
export * from './interaction/interaction.js';
export * from './interaction/request-state.js';
export * from './interaction/input-required.js';
export * from './error-mapper.js';
export * from './legacy-adapter.js';
export * from './dispatcher.js';
export * from './connection.js';
export * from './request-observer.js';
export * from './methods/core-method-specs.js';
export * from './methods/task-method-specs.js';
export * from './methods/method-catalog.js';
export * from './methods/list-method.js';
export * from './methods/core-methods.js';
export * from './methods/tool-methods.js';
export * from './methods/tool-result-compat.js';
export * from './methods/resource-methods.js';
export * from './methods/prompt-methods.js';
export * from './subscriptions/index.js';
export * from './http/index.js';
export * from './auth/index.js';
