/**
 * The tracker's MCP surface (seed 004 "Decision"; docs/MCP.md "Tools"): SDK-backed tracker tools
 * selected by profile, the pm:// resources, the prompts, and the server factory the
 * composition layer builds pm-mcp from. Pure domain code over the Tracker and the FileSystem port.
 */
export * from './tool-arguments.js';
export { editDistance, nearestDeclaredKey } from '../util/nearest-key.js';
export * from './consent.js';
export { completeRequiredCustomFields, pmMcpCustomFieldsElicitation, PM_MCP_CUSTOM_FIELDS_INPUT } from './custom-field-elicitation.js';
export * from './tool-kit.js';
export * from './profiles.js';
export * from './tool-catalog.js';
export * from './item-graph.js';
export * from './item-completion.js';
export * from './guidance.js';
export * from './tracker-resources.js';
export * from './tracker-prompts.js';
export * from './tracker-server.js';
export * from './tracker-change-source.js';
export * from './lease-expiry-source.js';
export * from './result-bounds.js';
export * from './offset-cursor.js';
