import { defineMcpMethodSpec } from '../method-spec.js';

/**
 * The declarations of the tasks extension's methods (`io.modelcontextprotocol/tasks`, SEP-2663;
 * seed 004 "MRTR, tasks, and cache behavior"): modern only, `Mcp-Name` mirrors `taskId`, and the
 * two that steer a possibly mutating operation need the write scope. Declared here so clients of
 * the SDK build the right headers; the extension registers their handlers.
 */

/** The tasks extension id. */
export const MCP_TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** `tasks/get`. */
export const MCP_TASKS_GET_METHOD = defineMcpMethodSpec({ method: 'tasks/get', eras: ['modern'], nameSource: 'taskId', legacyName: true });

/** `tasks/update` (answers to a task's input requests). */
export const MCP_TASKS_UPDATE_METHOD = defineMcpMethodSpec({ method: 'tasks/update', eras: ['modern'], nameSource: 'taskId', scope: 'write' });

/** `tasks/cancel`. */
export const MCP_TASKS_CANCEL_METHOD = defineMcpMethodSpec({ method: 'tasks/cancel', eras: ['modern'], nameSource: 'taskId', scope: 'write', legacyName: true });

/** The tasks extension's declarations. */
export const MCP_TASKS_METHOD_SPECS = Object.freeze([MCP_TASKS_GET_METHOD, MCP_TASKS_UPDATE_METHOD, MCP_TASKS_CANCEL_METHOD]);
