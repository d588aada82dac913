/**
 * MCP Apps for pm (seed 000 "MCP Apps", "Public SDK"; MCP Apps 2026-01-26): the tool-to-view
 * contracts, the capability check, the tools/list decoration, the `ui://` resources, the view
 * documents and the server extension that projects them. A custom host can project the same
 * resources and policy from these without any pm server internals.
 */
export * from './app-contracts.js';
export * from './apps-capability.js';
export * from './tool-decoration.js';
export * from './app-resources.js';
export * from './app-html.js';
export * from './app-documents.js';
export * from './apps-extension.js';
