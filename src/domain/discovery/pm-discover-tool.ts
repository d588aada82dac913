import { z } from 'zod';
import type { McpRequestContext } from '../mcp/request-context.js';
import { toMcpToolDescriptor, type AnyMcpToolDefinition, type McpToolOutput } from '../mcp/tool-registry.js';
import type { JsonObject, McpObjectSchema, McpToolDescriptor } from '../mcp/wire-types.js';
import { mcpToolArguments } from '../mcp-tracker/tool-arguments.js';
import { PM_DISCOVER_TOOL_NAME, PM_TOOL_DISCOVERY_LIMITS } from './discovery-capability.js';
import type { PmDiscoverToolsRequest, PmDiscoverToolsResult } from './discover-tools.js';

/**
 * The pm_discover tool (seed 004 "Decision": negotiated clients expand the entry catalogue with
 * pm_discover). Its descriptor is part of the entry catalogue, so it is kept short; it is
 * read-only, idempotent and closed-world like the tracker's read tools. It exists only for
 * requests that negotiated the extension: it is never in an unnegotiated tools/list, and an
 * unnegotiated call gets -32602 "Unknown tool" like any tool outside the profile.
 */

const L = PM_TOOL_DISCOVERY_LIMITS;
const MAX_CURSOR = 512;

const PROPERTIES: Record<string, JsonObject> = {
  need: { type: 'string', maxLength: L.maxNeedLength, description: 'What you want to do.' },
  names: { type: 'array', items: { type: 'string', maxLength: 128 }, maxItems: L.maxNames },
  limit: { type: 'integer', minimum: 1, maximum: L.limitMax },
  tokenBudget: { type: 'integer', minimum: L.tokenBudgetMin, maximum: L.tokenBudgetMax },
  outputSchema: { type: 'boolean' },
  cursor: { type: 'string', maxLength: MAX_CURSOR },
};

const shape = () => ({
  need: z.string().max(L.maxNeedLength).optional(),
  names: z.array(z.string().max(128)).max(L.maxNames).optional(),
  limit: z.number().int().min(1).max(L.limitMax).optional(),
  tokenBudget: z.number().int().min(L.tokenBudgetMin).max(L.tokenBudgetMax).optional(),
  outputSchema: z.boolean().optional(),
  cursor: z.string().max(MAX_CURSOR).optional(),
});

/** How a pm_discover call is answered (the extension supplies the catalogue and the request's view). */
export type PmDiscoverAnswer = (request: PmDiscoverToolsRequest, ctx: McpRequestContext) => PmDiscoverToolsResult;

/** The pm_discover definition over `answer`. */
export function createPmDiscoverTool(answer: PmDiscoverAnswer): AnyMcpToolDefinition {
  return {
    name: PM_DISCOVER_TOOL_NAME,
    title: 'Discover tools',
    description: 'Finds more pm tools with input schemas, best first: give need (in words) and/or names; nextCursor pages. Call found tools like listed ones.',
    inputSchema: { type: 'object', properties: PROPERTIES, additionalProperties: false } as McpObjectSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    args: mcpToolArguments(shape()),
    handler(args: PmDiscoverToolsRequest, ctx: McpRequestContext): McpToolOutput {
      const result = answer(args, ctx);
      return { structuredContent: result as unknown as JsonObject, text: renderDiscovery(result) };
    },
  };
}

/** The descriptor pm_discover is advertised with. */
export function pmDiscoverToolDescriptor(tool: AnyMcpToolDefinition): McpToolDescriptor {
  return toMcpToolDescriptor(tool);
}

/** A readable summary (unused as model text when the result is canonical; kept for completeness of McpToolOutput). */
function renderDiscovery(result: PmDiscoverToolsResult): string {
  const lines = [
    result.tools.length ? `Found: ${result.tools.map((t) => t.name).join(', ')}` : 'No new tools returned.',
    ...(result.listed.length ? [`Already listed: ${result.listed.map((t) => t.name).join(', ')}`] : []),
    ...result.receipt.omitted.map((o) => `Omitted (${o.reason}): ${'names' in o ? o.names.join(', ') : 'name' in o ? o.name : o.count} (${o.recovery})`),
    `About ${result.receipt.estimatedTokens} tokens of ${result.receipt.tokenBudget}.${result.nextCursor ? ' More with cursor.' : ''}`,
  ];
  return lines.join('\n');
}
