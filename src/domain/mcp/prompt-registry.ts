import { deepFreeze } from '../util/canonical-json.js';
import type { McpRequestContext } from './request-context.js';
import type { McpCompletionProvider } from './resource-registry.js';
import type { JsonObject, McpPromptArgument, McpPromptDescriptor, McpPromptMessage } from './wire-types.js';

/**
 * The prompt registry (2026-07-28 `server/prompts`). Required arguments are enforced by the
 * generic `prompts/get` before the prompt runs; descriptors are precomputed and frozen.
 */

/** What `get` returns (the `GetPromptResult` body). */
export interface McpPromptOutput {
  readonly description?: string;
  readonly messages: readonly McpPromptMessage[];
}

/** One prompt. */
export interface McpPromptDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly McpPromptArgument[];
  readonly meta?: JsonObject;
  get(args: Readonly<Record<string, string>>, ctx: McpRequestContext): Promise<McpPromptOutput> | McpPromptOutput;
  /** Completion of one argument (`completion/complete` with `ref/prompt`). */
  readonly complete?: McpCompletionProvider;
}

/** The advertised `Prompt` descriptor of a definition. */
export function toMcpPromptDescriptor(prompt: McpPromptDefinition): McpPromptDescriptor {
  return {
    name: prompt.name,
    ...(prompt.title !== undefined ? { title: prompt.title } : {}),
    ...(prompt.description !== undefined ? { description: prompt.description } : {}),
    ...(prompt.arguments !== undefined ? { arguments: prompt.arguments } : {}),
    ...(prompt.meta !== undefined ? { _meta: prompt.meta } : {}),
  };
}

/** Prompts a server offers, in advertisement order. */
export class PmMcpPromptRegistry {
  readonly descriptors: readonly McpPromptDescriptor[];
  private readonly byName: ReadonlyMap<string, McpPromptDefinition>;

  constructor(prompts: readonly McpPromptDefinition[]) {
    const byName = new Map<string, McpPromptDefinition>();
    for (const p of prompts) {
      if (!p.name) throw new RangeError('a prompt needs a name');
      if (byName.has(p.name)) throw new RangeError(`prompt ${p.name} is defined twice`);
      const argNames = new Set<string>();
      for (const a of p.arguments ?? []) {
        if (argNames.has(a.name)) throw new RangeError(`prompt ${p.name}: argument ${a.name} is declared twice`);
        argNames.add(a.name);
      }
      byName.set(p.name, p);
    }
    this.byName = byName;
    this.descriptors = deepFreeze(structuredClone(prompts.map(toMcpPromptDescriptor)));
  }

  get size(): number {
    return this.byName.size;
  }

  /** True when some prompt offers argument completion. */
  get completes(): boolean {
    return [...this.byName.values()].some((p) => p.complete !== undefined);
  }

  get(name: string): McpPromptDefinition | undefined {
    return this.byName.get(name);
  }
}
