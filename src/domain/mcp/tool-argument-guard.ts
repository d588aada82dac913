import { PmMcpInvalidParamsError } from '../errors/mcp-errors.js';
import { nearestDeclaredKey } from '../util/nearest-key.js';
import type { AnyMcpToolDefinition } from './tool-registry.js';

/**
 * What `tools/call` checks of a tool's arguments before anything else reads them
 * (docs/MCP.md "Strict arguments"), in both eras: how deeply they nest, and that every key is
 * one the tool's advertised input schema declares when that schema says
 * `additionalProperties: false`. Both refusals are -32602 protocol errors: a misspelled guard
 * (`expectedRevison`) must never be dropped while the change goes through.
 */

/**
 * Deepest nesting of arrays and objects accepted in `arguments` (the arguments object itself is
 * level 1). pm's tools need 3; the bound keeps every later step (memo keys, zod, JSON) from
 * recursing without limit on hostile input.
 */
export const MAX_TOOL_ARGUMENT_DEPTH = 32;

/** Unknown keys named in one refusal at most (the rest are counted). */
const MAX_UNKNOWN_NAMED = 5;
const MAX_KEY_SHOWN = 64;

/** The depth of `value`, counted without recursion and only as far as `limit + 1`. */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length) {
    const { value: node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  return deepest;
}

/** Refuses (-32602) arguments nested deeper than {@link MAX_TOOL_ARGUMENT_DEPTH}. */
export function assertToolArgumentDepth(tool: string, args: unknown): void {
  if (depthOf(args, MAX_TOOL_ARGUMENT_DEPTH) <= MAX_TOOL_ARGUMENT_DEPTH) return;
  throw new PmMcpInvalidParamsError(`Invalid arguments for ${tool}: nested more than ${MAX_TOOL_ARGUMENT_DEPTH} levels deep`, { tool, maxDepth: MAX_TOOL_ARGUMENT_DEPTH });
}

function shown(key: string): string {
  return key.length > MAX_KEY_SHOWN ? `${key.slice(0, MAX_KEY_SHOWN)}…` : key;
}

/** The refusal text of one unknown key: the nearest declared key, else every declared key. */
export function unknownArgumentProblem(key: string, declared: readonly string[]): string {
  const near = nearestDeclaredKey(key, declared);
  if (near) return `unknown argument '${shown(key)}'; did you mean '${near}'?`;
  return `unknown argument '${shown(key)}'; declared arguments: ${declared.length ? declared.join(', ') : '(none)'}`;
}

/**
 * Refuses (-32602) argument keys the tool's input schema does not declare, when the schema
 * closes its properties (`additionalProperties: false`, as every pm tool's does). `data`
 * carries the unknown keys and, for each one close to a declared key, the suggestion.
 */
export function assertDeclaredToolArguments(tool: AnyMcpToolDefinition, args: Readonly<Record<string, unknown>> | undefined): void {
  if (!args || tool.inputSchema.additionalProperties !== false) return;
  const declared = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
  const unknown = Object.keys(args).filter((key) => !declared.includes(key));
  if (!unknown.length) return;
  const named = unknown.slice(0, MAX_UNKNOWN_NAMED).map((key) => unknownArgumentProblem(key, declared));
  if (unknown.length > MAX_UNKNOWN_NAMED) named.push(`${unknown.length - MAX_UNKNOWN_NAMED} more unknown arguments`);
  const suggestions: Record<string, string> = {};
  for (const key of unknown.slice(0, MAX_UNKNOWN_NAMED)) {
    const near = nearestDeclaredKey(key, declared);
    if (near) suggestions[shown(key)] = near;
  }
  throw new PmMcpInvalidParamsError(`Invalid arguments for ${tool.name}: ${named.join('; ')}`, {
    tool: tool.name,
    unknown: unknown.slice(0, MAX_UNKNOWN_NAMED).map(shown),
    ...(Object.keys(suggestions).length ? { suggestions } : {}),
    declared,
  });
}
