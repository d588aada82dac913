import { z } from 'zod';
import type { OperationScope } from '../../../ports/transport.js';
import { PmMcpInvalidParamsError, PmMcpProtocolError } from '../../errors/mcp-errors.js';
import { PmError } from '../../errors/pm-error.js';
import { ValidationError } from '../../errors/tracker-errors.js';
import { BoundedCache } from '../../util/bounded-cache.js';
import { deepFreeze } from '../../util/canonical-json.js';
import { lazy } from '../../util/lazy.js';
import type { McpRawParams, PmMcpMethodRegistry } from '../method-registry.js';
import type { McpEra } from '../protocol.js';
import type { PmMcpServerDescriptor } from '../server-descriptor.js';
import type { AnyMcpToolDefinition, McpToolOutput, PmMcpToolRegistry } from '../tool-registry.js';
import type { JsonObject, McpContentBlock } from '../wire-types.js';
import { MCP_TOOLS_CALL_METHOD, MCP_TOOLS_LIST_METHOD } from './core-method-specs.js';
import { registerMcpListMethod } from './list-method.js';
import { assertDeclaredToolArguments, assertToolArgumentDepth } from '../tool-argument-guard.js';
import { buildMcpCompatToolText } from './tool-result-compat.js';

/**
 * `tools/list` and `tools/call` over a {@link PmMcpToolRegistry} (2026-07-28 `server/tools`).
 * Tool failures — argument values the tool's schema refuses and tracker errors — are `isError`
 * results the model can read; an unknown tool, malformed call params, an argument key the tool
 * does not declare and arguments nested too deeply are protocol errors (-32602); protocol errors
 * thrown by a handler (e.g. -32021) and unexpected throws stay protocol errors.
 */

/** `tools/call` params (MRTR members are accepted here and read by interceptors). */
export const mcpCallToolParamsSchema = lazy(() =>
  z.object({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).optional(),
    inputResponses: z.record(z.string(), z.unknown()).optional(),
    requestState: z.string().optional(),
  })
);

/** Parsed `tools/call` params. */
export type McpCallToolParams = z.infer<ReturnType<typeof mcpCallToolParamsSchema>>;

/**
 * The `CallToolResult` body for a handler's output: the compatibility adapter's text
 * (buildMcpCompatToolText: modern, the readable text or the JSON when the tool gives none;
 * legacy, the JSON text duplicated) beside `structuredContent` (seed 004 "Decision").
 */
export function buildMcpToolResultBody(output: McpToolOutput, era: McpEra): JsonObject {
  const text = buildMcpCompatToolText(output, era);
  const content: McpContentBlock[] = [{ type: 'text', text }, ...(output.content ?? [])];
  return {
    content,
    structuredContent: output.structuredContent,
    ...(output.isError ? { isError: true } : {}),
  };
}

/** The arguments of a call as a memo key part (JSON text; small by the tools' bounded schemas). */
function memoArguments(args: unknown): string {
  return args === undefined ? '' : JSON.stringify(args);
}

/** How many parsed argument sets of read-only tools are kept, and the longest argument text kept. */
const PARSED_ARGUMENTS_LIMIT = 256;
const PARSED_ARGUMENTS_MAX_TEXT = 1024;

/**
 * Parsed arguments of read-only tools by tool and argument text: their parse is a pure function
 * of the two, and an agent repeats the same reads. Kept deep-frozen; failures are not kept.
 * Tools that change the tracker always parse.
 */
class ParsedArgumentsMemo {
  private readonly entries = new BoundedCache<string, { readonly data: unknown }>('parsed arguments of read-only tools by tool and argument text', PARSED_ARGUMENTS_LIMIT);

  parse(tool: AnyMcpToolDefinition, args: unknown, argsText: string): z.ZodSafeParseResult<unknown> {
    const key = tool.annotations?.readOnlyHint === true && argsText.length <= PARSED_ARGUMENTS_MAX_TEXT ? `${tool.name}|${argsText}` : undefined;
    const known = key === undefined ? undefined : this.entries.get(key);
    if (known !== undefined) return { success: true, data: known.data };
    const parsed = tool.args.safeParse(args ?? {});
    if (key !== undefined && parsed.success) this.entries.set(key, { data: deepFreeze(parsed.data) });
    return parsed;
  }
}

/** The `isError` result body for a tool failure (a typed tracker error or invalid arguments). */
export function buildMcpToolErrorBody(error: PmError): JsonObject {
  const detail = Object.keys(error.data).length ? `\n${JSON.stringify(error.data)}` : '';
  return { content: [{ type: 'text', text: `${error.message} (${error.reason})${detail}` }], isError: true };
}

function argumentError(tool: string, issues: readonly z.core.$ZodIssue[]): ValidationError {
  const list = issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
  const summary = list.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new ValidationError(`Invalid arguments for ${tool}: ${summary}`, { tool, issues: list });
}

function calledTool(tools: PmMcpToolRegistry, params: McpRawParams): AnyMcpToolDefinition | undefined {
  const name = params?.name;
  return typeof name === 'string' ? tools.get(name) : undefined;
}

/**
 * The scope a tools/call needs (2026-07-28 `basic/authorization`: scopes per operation): a tool
 * annotated `readOnlyHint: true` needs the read scope; every other tool — mutating or
 * destructive — the write scope. An unknown tool needs read (it is -32602 anyway).
 */
export function mcpToolCallScope(tool: AnyMcpToolDefinition | undefined): OperationScope {
  return tool && tool.annotations?.readOnlyHint !== true ? 'write' : 'read';
}

/** Registers `tools/list` and `tools/call` (both eras). */
export function registerMcpToolMethods(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor, tools: PmMcpToolRegistry): void {
  const parsedArguments = new ParsedArgumentsMemo();
  registerMcpListMethod(methods, {
    spec: MCP_TOOLS_LIST_METHOD,
    member: 'tools',
    entries: () => tools.descriptors as unknown as readonly JsonObject[],
    pageSize: server.pageSize,
    cache: server.listCache,
  });

  methods.register({
    ...MCP_TOOLS_CALL_METHOD,
    params: mcpCallToolParamsSchema,
    scopeOf: (params) => mcpToolCallScope(calledTool(tools, params)),
    headerSchemaOf: (params) => calledTool(tools, params)?.inputSchema,
    // Strict arguments (docs/MCP.md "Strict arguments"), before a retry's state, an interceptor
    // (pm_discover's) or the handler reads them: nothing recurses into hostile nesting, no key is dropped.
    check(params) {
      assertToolArgumentDepth(params.name, params.arguments);
      const tool = tools.get(params.name);
      // An extension's tool (pm_discover) checks its own keys; the handler refuses an unknown tool.
      if (tool) assertDeclaredToolArguments(tool, params.arguments);
    },
    async handle(params, ctx) {
      const tool = tools.get(params.name);
      if (!tool) throw new PmMcpInvalidParamsError(`Unknown tool: ${params.name}`, { name: params.name });
      const argsText = memoArguments(params.arguments);
      const parsed = parsedArguments.parse(tool, params.arguments, argsText);
      if (!parsed.success) return { body: buildMcpToolErrorBody(argumentError(tool.name, parsed.error.issues)) };
      try {
        const output = await tool.handler(parsed.data, ctx);
        const body = buildMcpToolResultBody(output, ctx.era);
        // Arguments as sent are part of the key: they decide the parse and any warnings.
        return output.memoKey === undefined || output.isError ? { body } : { body, memoKey: `${tool.name}|${output.memoKey}|${argsText}` };
      } catch (error) {
        if (error instanceof PmError && !(error instanceof PmMcpProtocolError)) return { body: buildMcpToolErrorBody(error) };
        throw error;
      }
    },
  });
}
