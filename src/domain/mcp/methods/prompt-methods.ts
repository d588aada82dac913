import { z } from 'zod';
import { PmMcpInvalidParamsError } from '../../errors/mcp-errors.js';
import type { PmMcpMethodRegistry } from '../method-registry.js';
import type { PmMcpPromptRegistry } from '../prompt-registry.js';
import type { McpRequestContext } from '../request-context.js';
import type { McpCompletionProvider, PmMcpResourceRegistry } from '../resource-registry.js';
import type { PmMcpServerDescriptor } from '../server-descriptor.js';
import { compileMcpUriTemplate } from '../uri-template.js';
import type { JsonObject } from '../wire-types.js';
import { lazy } from '../../util/lazy.js';
import { MCP_COMPLETION_METHOD, MCP_PROMPTS_GET_METHOD, MCP_PROMPTS_LIST_METHOD } from './core-method-specs.js';
import { registerMcpListMethod } from './list-method.js';

/**
 * `prompts/list`, `prompts/get` (2026-07-28 `server/prompts`) and `completion/complete`
 * (`server/utilities/completion`). Unknown prompts, missing required arguments and unknown
 * completion references are -32602.
 */

/** `prompts/get` params. */
export const mcpGetPromptParamsSchema = lazy(() =>
  z.object({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.string()).optional(),
    inputResponses: z.record(z.string(), z.unknown()).optional(),
    requestState: z.string().optional(),
  })
);

/** `completion/complete` params. */
export const mcpCompleteParamsSchema = lazy(() =>
  z.object({
    ref: z.discriminatedUnion('type', [
      z.object({ type: z.literal('ref/prompt'), name: z.string() }),
      z.object({ type: z.literal('ref/resource'), uri: z.string() }),
    ]),
    argument: z.object({ name: z.string(), value: z.string() }),
    context: z.object({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
  })
);

/** Most values one completion result may carry (`CompleteResult.completion.values` maxItems). */
export const MCP_MAX_COMPLETION_VALUES = 100;

/**
 * The `CompleteResult` body for candidate `values`: at most 100 values, `total` and `hasMore`
 * describing what was cut. (Named "Completion" to keep `buildMcpCompleteResult` for the
 * `resultType: "complete"` envelope the seed's SDK list names.)
 */
export function buildMcpCompletionResult(values: readonly string[], total?: number): JsonObject {
  const unique = [...new Set(values)];
  const shown = unique.slice(0, MCP_MAX_COMPLETION_VALUES);
  const all = Math.max(total ?? 0, unique.length);
  return {
    completion: {
      values: shown,
      total: all,
      hasMore: all > shown.length,
    },
  };
}

function completionProvider(
  params: z.infer<ReturnType<typeof mcpCompleteParamsSchema>>,
  prompts: PmMcpPromptRegistry | undefined,
  resources: PmMcpResourceRegistry | undefined,
): McpCompletionProvider | undefined {
  if (params.ref.type === 'ref/prompt') {
    const prompt = prompts?.get(params.ref.name);
    if (!prompt) throw new PmMcpInvalidParamsError(`Unknown prompt: ${params.ref.name}`, { name: params.ref.name });
    if (!(prompt.arguments ?? []).some((a) => a.name === params.argument.name)) {
      throw new PmMcpInvalidParamsError(`Prompt ${prompt.name} has no argument ${params.argument.name}`, { name: prompt.name, argument: params.argument.name });
    }
    return prompt.complete;
  }
  const template = resources?.template(params.ref.uri);
  if (!template) throw new PmMcpInvalidParamsError(`Unknown resource template: ${params.ref.uri}`, { uri: params.ref.uri });
  if (!compileMcpUriTemplate(template.uriTemplate).variables.includes(params.argument.name)) {
    throw new PmMcpInvalidParamsError(`Resource template ${template.uriTemplate} has no variable ${params.argument.name}`, { uri: template.uriTemplate, argument: params.argument.name });
  }
  return template.complete;
}

async function getPrompt(prompts: PmMcpPromptRegistry, params: z.infer<ReturnType<typeof mcpGetPromptParamsSchema>>, ctx: McpRequestContext): Promise<JsonObject> {
  const prompt = prompts.get(params.name);
  if (!prompt) throw new PmMcpInvalidParamsError(`Unknown prompt: ${params.name}`, { name: params.name });
  const args = params.arguments ?? {};
  const missing = (prompt.arguments ?? []).filter((a) => a.required && (args[a.name] === undefined || args[a.name] === '')).map((a) => a.name);
  if (missing.length) throw new PmMcpInvalidParamsError(`Prompt ${prompt.name} is missing required arguments: ${missing.join(', ')}`, { name: prompt.name, missing });
  const output = await prompt.get(args, ctx);
  return { ...(output.description !== undefined ? { description: output.description } : {}), messages: output.messages };
}

/** Registers the prompt methods (both eras). */
export function registerMcpPromptMethods(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor, prompts: PmMcpPromptRegistry): void {
  registerMcpListMethod(methods, {
    spec: MCP_PROMPTS_LIST_METHOD,
    member: 'prompts',
    entries: () => prompts.descriptors as unknown as readonly JsonObject[],
    pageSize: server.pageSize,
    cache: server.listCache,
  });

  methods.register({
    ...MCP_PROMPTS_GET_METHOD,
    params: mcpGetPromptParamsSchema,
    async handle(params, ctx) {
      return { body: await getPrompt(prompts, params, ctx) };
    },
  });
}

/** Registers `completion/complete` (both eras); only called when the server advertises `completions`. */
export function registerMcpCompletionMethod(methods: PmMcpMethodRegistry, prompts: PmMcpPromptRegistry | undefined, resources: PmMcpResourceRegistry | undefined): void {
  methods.register({
    ...MCP_COMPLETION_METHOD,
    params: mcpCompleteParamsSchema,
    async handle(params, ctx) {
      const provider = completionProvider(params, prompts, resources);
      const found = provider ? await provider(params.argument.name, params.argument.value, params.context?.arguments ?? {}, ctx) : [];
      return { body: 'total' in found ? buildMcpCompletionResult(found.values, found.total) : buildMcpCompletionResult(found) };
    },
  });
}
