import { claimsBareMcpRequests, type McpMethodSpec, type McpNameSource } from '../method-spec.js';
import { MCP_CORE_METHOD_SPECS } from './core-method-specs.js';
import { MCP_TASKS_METHOD_SPECS } from './task-method-specs.js';

/**
 * The method declarations the public SDK knows without a server at hand (a client building
 * headers, a host deciding an era by hand), and the tables derived from them. A server reads
 * its own method registry instead, which also knows the methods extensions registered.
 */

/** Every method declaration the SDK knows: the core revision's, the legacy adapter's and the tasks extension's. */
export const PM_MCP_KNOWN_METHOD_SPECS: readonly McpMethodSpec[] = Object.freeze([...MCP_CORE_METHOD_SPECS, ...MCP_TASKS_METHOD_SPECS]);

/**
 * Methods that exist only in the modern era under names no legacy revision uses (derived):
 * without `_meta` they are malformed modern requests (-32602).
 */
export const MCP_MODERN_ONLY_METHODS: readonly string[] = Object.freeze(PM_MCP_KNOWN_METHOD_SPECS.filter(claimsBareMcpRequests).map((spec) => spec.method));

/**
 * Which body field `Mcp-Name` mirrors, per method (derived): `params.name` for tools/call and
 * prompts/get, `params.uri` for resources/read, `params.taskId` for the tasks methods. Other
 * methods carry no `Mcp-Name` (seed 004 "Transport behavior").
 */
export const MCP_NAME_HEADER_SOURCE: Readonly<Record<string, McpNameSource>> = Object.freeze(
  Object.fromEntries(PM_MCP_KNOWN_METHOD_SPECS.flatMap((spec) => (spec.nameSource ? [[spec.method, spec.nameSource]] : []))),
);
