import { BoundedCache } from '../../util/bounded-cache.js';

/**
 * `x-mcp-header` annotations in a tool's `inputSchema` (2026-07-28 `server/tools` "Tool
 * Input Schema Header Annotations" and `basic/transports/streamable-http` "Custom Headers";
 * SEP-2243). An annotation names the `Mcp-Param-{Name}` header that mirrors an
 * argument. Rules: the name is a non-empty RFC 9110 token (so no CR/LF/CTL), case-insensitively
 * unique in the schema; only on `string`, `integer` or `boolean` properties (never `number`);
 * only on properties reachable from the root through `properties` keys alone (never under
 * `items`, `anyOf`/`oneOf`/`allOf`/`not`, `if`/`then`/`else`, `$ref` targets and the like).
 * An invalid annotation makes clients drop the tool, so servers validate before advertising.
 */

/** The schema keyword. */
export const MCP_X_MCP_HEADER = 'x-mcp-header';

/** RFC 9110 §5.6.2 `token` (1*tchar). */
export const MCP_HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The JSON Schema types an annotated property may have. */
export type McpHeaderValueType = 'string' | 'integer' | 'boolean';

/** One valid annotation: where the argument sits and which header mirrors it. */
export interface McpHeaderAnnotation {
  /** Property path from the arguments object (`["id"]`, or deeper through nested `properties`). */
  readonly path: readonly string[];
  /** The `{Name}` of `Mcp-Param-{Name}`, as declared. */
  readonly name: string;
  readonly type: McpHeaderValueType;
}

/** Subschema keywords whose contents are not reachable through `properties` alone. */
const UNREACHABLE_SINGLE = ['items', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'not', 'if', 'then', 'else'] as const;
const UNREACHABLE_ARRAY = ['prefixItems', 'allOf', 'anyOf', 'oneOf'] as const;
const UNREACHABLE_MAP = ['patternProperties', 'dependentSchemas', '$defs', 'definitions'] as const;
const ALLOWED_TYPES: readonly string[] = ['string', 'integer', 'boolean'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function where(path: readonly string[]): string {
  return path.length ? path.join('.') : '(root)';
}

/**
 * Every `x-mcp-header` annotation of `inputSchema`, validated. Throws a RangeError naming the
 * first violated rule (the registry refuses such a tool before it is advertised).
 */
export function scanMcpHeaderAnnotations(inputSchema: unknown): readonly McpHeaderAnnotation[] {
  const found: McpHeaderAnnotation[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: readonly string[], reachable: boolean): void => {
    if (!isObject(node)) return;
    if (Object.prototype.hasOwnProperty.call(node, MCP_X_MCP_HEADER)) {
      if (!reachable || path.length === 0) throw new RangeError(`${where(path)}: x-mcp-header is allowed only on properties reached through "properties" keys alone`);
      const name = node[MCP_X_MCP_HEADER];
      if (typeof name !== 'string' || name.length === 0) throw new RangeError(`${where(path)}: x-mcp-header must be a non-empty string`);
      if (!MCP_HEADER_TOKEN.test(name)) throw new RangeError(`${where(path)}: x-mcp-header ${JSON.stringify(name)} is not an RFC 9110 token`);
      const type = node.type;
      if (typeof type !== 'string' || !ALLOWED_TYPES.includes(type)) throw new RangeError(`${where(path)}: x-mcp-header is allowed only on string, integer or boolean properties (got ${JSON.stringify(type ?? null)})`);
      const lower = name.toLowerCase();
      const prior = seen.get(lower);
      if (prior !== undefined) throw new RangeError(`${where(path)}: x-mcp-header ${JSON.stringify(name)} repeats ${JSON.stringify(prior)} (names are case-insensitive)`);
      seen.set(lower, name);
      found.push(Object.freeze({ path: Object.freeze([...path]), name, type: type as McpHeaderValueType }));
    }
    const properties = node.properties;
    if (isObject(properties)) for (const [key, child] of Object.entries(properties)) visit(child, [...path, key], reachable);
    for (const key of UNREACHABLE_SINGLE) visit(node[key], [...path, `<${key}>`], false);
    for (const key of UNREACHABLE_ARRAY) {
      const branches = node[key];
      if (Array.isArray(branches)) for (const branch of branches) visit(branch, [...path, `<${key}>`], false);
    }
    for (const key of UNREACHABLE_MAP) {
      const map = node[key];
      if (isObject(map)) for (const child of Object.values(map)) visit(child, [...path, `<${key}>`], false);
    }
  };
  visit(inputSchema, [], true);
  return Object.freeze(found);
}

const cache = new BoundedCache<object, readonly McpHeaderAnnotation[]>('x-mcp-header annotations by tool input schema', 256);

/** {@link scanMcpHeaderAnnotations}, kept per (frozen, advertised) schema object. */
export function mcpHeaderAnnotationsOf(inputSchema: object): readonly McpHeaderAnnotation[] {
  return cache.getOrCreate(inputSchema, scanMcpHeaderAnnotations);
}

/** Throws a RangeError naming `toolName` when its schema carries an invalid `x-mcp-header`. */
export function assertMcpHeaderAnnotations(inputSchema: unknown, toolName: string): void {
  try {
    scanMcpHeaderAnnotations(inputSchema);
  } catch (error) {
    throw new RangeError(`tool ${toolName} inputSchema: ${(error as Error).message}`);
  }
}

/** The argument value an annotation mirrors (undefined when absent along the path). */
export function mcpAnnotatedArgument(args: unknown, annotation: McpHeaderAnnotation): unknown {
  let node: unknown = args;
  for (const key of annotation.path) {
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}
