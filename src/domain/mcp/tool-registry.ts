import type { z } from 'zod';
import { deepFreeze } from '../util/canonical-json.js';
import { assertMcpHeaderAnnotations } from './http/header-annotations.js';
import type { McpRequestContext } from './request-context.js';
import type { JsonObject, McpContentBlock, McpObjectSchema, McpToolAnnotations, McpToolDescriptor } from './wire-types.js';

/**
 * The tool registry the tracker tools implement (2026-07-28 `server/tools`). Definitions are
 * validated once, before advertisement: names, object-rooted bounded JSON Schema 2020-12
 * input/output schemas. Descriptors are precomputed and frozen so `tools/list` never rebuilds them.
 */

/** What a tool handler returns. */
export interface McpToolOutput<S extends JsonObject = JsonObject> {
  /** The structured result. A JSON object, so it is valid in every era (legacy requires an object). */
  readonly structuredContent: S;
  /** A readable rendering for `content`; defaults to the JSON text of `structuredContent`. */
  readonly text?: string;
  /** Further content blocks (resource links, images) after the text block. */
  readonly content?: readonly McpContentBlock[];
  /** A business-level failure reported as a result (throwing a tracker PmError does the same). */
  readonly isError?: boolean;
  /**
   * Declares that this output is a function of the tool, its arguments as sent and this key
   * alone (e.g. an item's version): the dispatcher then serializes the result once per key,
   * era and revision and reuses the bytes (what does not change per request is computed once).
   * Never set it for outputs that depend on anything else (time, the caller).
   */
  readonly memoKey?: string;
}

/** One tool: descriptor fields, the zod parser for its arguments, and the handler. */
export interface McpToolDefinition<A = unknown, S extends JsonObject = JsonObject> {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** JSON Schema 2020-12 with `type: "object"` at the root. */
  readonly inputSchema: McpObjectSchema;
  /** JSON Schema 2020-12 for `structuredContent`, object-rooted (legacy clients require it). */
  readonly outputSchema?: McpObjectSchema;
  readonly annotations?: McpToolAnnotations;
  /** Descriptor `_meta` (e.g. `ui.resourceUri`, added by the Apps decorator). */
  readonly meta?: JsonObject;
  /** Parses `arguments`; failures become `isError` tool results. */
  readonly args: z.ZodType<A>;
  /**
   * The tool may take long (it reads or writes the whole tracker): a request that negotiated the
   * tasks extension gets it as a durable task (seed 004 "MRTR, tasks, and cache behavior");
   * every other request runs it inline. Not advertised.
   */
  readonly longRunning?: boolean;
  handler(args: A, ctx: McpRequestContext): Promise<McpToolOutput<S>> | McpToolOutput<S>;
}

/** Any tool definition (the registry does not care about the argument/result types). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMcpToolDefinition = McpToolDefinition<any, any>;

/** Tool name rule (2026-07-28 `server/tools` "Tool Names"). */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Bounds a schema must respect before it is advertised. */
export const MCP_SCHEMA_BOUNDS = Object.freeze({ maxBytes: 64 * 1024, maxDepth: 32 });
const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

function isJsonValue(value: unknown, depth: number): boolean {
  if (depth > 256) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isJsonValue(v, depth + 1));
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((v) => isJsonValue(v, depth + 1));
}

function depthOf(value: unknown): number {
  if (!value || typeof value !== 'object') return 0;
  let max = 0;
  for (const v of Object.values(value)) max = Math.max(max, depthOf(v));
  return max + 1;
}

/**
 * Checks that `schema` is an object-rooted, JSON-serializable, bounded JSON Schema 2020-12
 * document. Throws a RangeError naming `where` otherwise.
 */
export function assertMcpObjectSchema(schema: unknown, where: string): asserts schema is McpObjectSchema {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw new RangeError(`${where}: schema must be an object`);
  const record = schema as JsonObject;
  if (record.type !== 'object') throw new RangeError(`${where}: schema root must have type "object"`);
  if (record.$schema !== undefined && record.$schema !== DIALECT_2020_12) throw new RangeError(`${where}: only JSON Schema 2020-12 is advertised (got ${String(record.$schema)})`);
  if (!isJsonValue(schema, 0)) throw new RangeError(`${where}: schema holds non-JSON values`);
  const text = JSON.stringify(schema);
  if (new TextEncoder().encode(text).length > MCP_SCHEMA_BOUNDS.maxBytes) throw new RangeError(`${where}: schema exceeds ${MCP_SCHEMA_BOUNDS.maxBytes} bytes`);
  if (depthOf(schema) > MCP_SCHEMA_BOUNDS.maxDepth) throw new RangeError(`${where}: schema nests deeper than ${MCP_SCHEMA_BOUNDS.maxDepth}`);
}

/** The advertised `Tool` descriptor of a definition. */
export function toMcpToolDescriptor(tool: AnyMcpToolDefinition): McpToolDescriptor {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    ...(tool.meta !== undefined ? { _meta: tool.meta } : {}),
  };
}

/** The definitions of a registry, or a function producing them on first use. */
export type McpToolSource = readonly AnyMcpToolDefinition[] | (() => readonly AnyMcpToolDefinition[]);

interface BuiltTools {
  readonly descriptors: readonly McpToolDescriptor[];
  readonly byName: ReadonlyMap<string, AnyMcpToolDefinition>;
}

function buildTools(tools: readonly AnyMcpToolDefinition[]): BuiltTools {
  const byName = new Map<string, AnyMcpToolDefinition>();
  for (const tool of tools) {
    if (!MCP_TOOL_NAME.test(tool.name)) throw new RangeError(`tool name ${JSON.stringify(tool.name)} breaks the naming rule ${MCP_TOOL_NAME}`);
    if (byName.has(tool.name)) throw new RangeError(`tool ${tool.name} is defined twice`);
    if (!tool.description.trim()) throw new RangeError(`tool ${tool.name} needs a description`);
    assertMcpObjectSchema(tool.inputSchema, `tool ${tool.name} inputSchema`);
    assertMcpHeaderAnnotations(tool.inputSchema, tool.name); // x-mcp-header rules (2026-07-28 `basic/transports/streamable-http` "Custom Headers")
    if (tool.outputSchema !== undefined) assertMcpObjectSchema(tool.outputSchema, `tool ${tool.name} outputSchema`);
    byName.set(tool.name, tool);
  }
  return { byName, descriptors: deepFreeze(structuredClone(tools.map(toMcpToolDescriptor))) };
}

/**
 * The tools a server offers, in advertisement order (deterministic: the order given). Given a
 * function instead of definitions, the registry builds and validates them on first use (the
 * first tools/list or tools/call), so a server answers `server/discover` without paying for
 * its tool catalogue (a cold start pays only for what it serves); either way nothing is
 * advertised unvalidated.
 */
export class PmMcpToolRegistry {
  private built: BuiltTools | undefined;
  private source: McpToolSource | undefined;

  constructor(tools: McpToolSource) {
    if (typeof tools === 'function') this.source = tools;
    else this.built = buildTools(tools);
  }

  /** Precomputed, frozen `Tool` descriptors in advertisement order. */
  get descriptors(): readonly McpToolDescriptor[] {
    return this.tools().descriptors;
  }

  get size(): number {
    return this.tools().byName.size;
  }

  get(name: string): AnyMcpToolDefinition | undefined {
    return this.tools().byName.get(name);
  }

  private tools(): BuiltTools {
    if (!this.built) {
      const source = this.source as () => readonly AnyMcpToolDefinition[];
      this.built = buildTools(source());
      this.source = undefined;
    }
    return this.built;
  }
}
