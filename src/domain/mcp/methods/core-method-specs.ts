import { defineMcpMethodSpec } from '../method-spec.js';

/**
 * The declarations of the methods 2026-07-28 defines that pm serves, and the legacy adapter's
 * (seed 004 "Legacy boundary"). The handlers spread them into their definitions; the derived
 * tables of the public SDK (method-catalog.ts) read them.
 */

/** `server/discover`: modern only, and answered before the server is prepared (2026-07-28 `server/discover`). */
export const MCP_DISCOVER_METHOD = defineMcpMethodSpec({ method: 'server/discover', eras: ['modern'], beforeReady: true });

/** Legacy `initialize` (initialize-era revisions only). */
export const MCP_INITIALIZE_METHOD = defineMcpMethodSpec({ method: 'initialize', eras: ['legacy'] });

/** Legacy `ping` (removed from 2026-07-28). */
export const MCP_PING_METHOD = defineMcpMethodSpec({ method: 'ping', eras: ['legacy'] });

/**
 * Legacy `logging/setLevel` (2025-11-25 `server/utilities/logging`; removed from 2026-07-28,
 * where a request carries its own `io.modelcontextprotocol/logLevel`).
 */
export const MCP_LOGGING_SET_LEVEL_METHOD = defineMcpMethodSpec({ method: 'logging/setLevel', eras: ['legacy'] });

/** `tools/list`. */
export const MCP_TOOLS_LIST_METHOD = defineMcpMethodSpec({ method: 'tools/list', eras: ['modern', 'legacy'] });

/**
 * `tools/call`: `Mcp-Name` mirrors `name`; its scope is decided per tool (a read-only tool needs
 * the read scope); it may answer `input_required` (MRTR) or, with the tasks extension, `task`.
 */
export const MCP_TOOLS_CALL_METHOD = defineMcpMethodSpec({ method: 'tools/call', eras: ['modern', 'legacy'], nameSource: 'name', interim: ['input_required', 'task'] });

/** `resources/list`. */
export const MCP_RESOURCES_LIST_METHOD = defineMcpMethodSpec({ method: 'resources/list', eras: ['modern', 'legacy'] });

/** `resources/templates/list`. */
export const MCP_RESOURCE_TEMPLATES_LIST_METHOD = defineMcpMethodSpec({ method: 'resources/templates/list', eras: ['modern', 'legacy'] });

/** `resources/read`: `Mcp-Name` mirrors `uri`; it may answer `input_required`. */
export const MCP_RESOURCES_READ_METHOD = defineMcpMethodSpec({ method: 'resources/read', eras: ['modern', 'legacy'], nameSource: 'uri', interim: ['input_required'] });

/** `prompts/list`. */
export const MCP_PROMPTS_LIST_METHOD = defineMcpMethodSpec({ method: 'prompts/list', eras: ['modern', 'legacy'] });

/** `prompts/get`: `Mcp-Name` mirrors `name`; it may answer `input_required`. */
export const MCP_PROMPTS_GET_METHOD = defineMcpMethodSpec({ method: 'prompts/get', eras: ['modern', 'legacy'], nameSource: 'name', interim: ['input_required'] });

/** `completion/complete`. */
export const MCP_COMPLETION_METHOD = defineMcpMethodSpec({ method: 'completion/complete', eras: ['modern', 'legacy'] });

/** `subscriptions/listen`: modern only; answers with a stream (2026-07-28 `basic/patterns/subscriptions`). */
export const MCP_SUBSCRIPTIONS_LISTEN_METHOD = defineMcpMethodSpec({ method: 'subscriptions/listen', eras: ['modern'], streams: true });

/** Every core declaration, in the order the core registers them. */
export const MCP_CORE_METHOD_SPECS = Object.freeze([
  MCP_DISCOVER_METHOD,
  MCP_INITIALIZE_METHOD,
  MCP_PING_METHOD,
  MCP_LOGGING_SET_LEVEL_METHOD,
  MCP_TOOLS_LIST_METHOD,
  MCP_TOOLS_CALL_METHOD,
  MCP_RESOURCES_LIST_METHOD,
  MCP_RESOURCE_TEMPLATES_LIST_METHOD,
  MCP_RESOURCES_READ_METHOD,
  MCP_PROMPTS_LIST_METHOD,
  MCP_PROMPTS_GET_METHOD,
  MCP_COMPLETION_METHOD,
  MCP_SUBSCRIPTIONS_LISTEN_METHOD,
]);
