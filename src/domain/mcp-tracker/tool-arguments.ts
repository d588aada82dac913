import { z } from 'zod';

/**
 * Strict argument parsing for the tracker tools (docs/MCP.md "Strict arguments"): the zod twin
 * of a tool's input schema, which declares `additionalProperties: false`, refuses keys the shape
 * does not declare. `tools/call` refuses such keys earlier still, as -32602 naming the nearest
 * declared key (tool-argument-guard.ts); this keeps the parser honest for callers that parse
 * arguments themselves.
 */
export function mcpToolArguments<S extends z.ZodRawShape>(shape: S): z.ZodType<z.output<z.ZodObject<S>>> {
  return z.strictObject(shape) as unknown as z.ZodType<z.output<z.ZodObject<S>>>;
}
