import type { McpMethodOutcome } from './method-outcome.js';
import type { McpRequestContext } from './request-context.js';
import type { JsonObject } from './wire-types.js';

/**
 * How extensions change what core methods do, keyed by what each request negotiated
 * (docs/ARCHITECTURE.md "How a request flows", step 4): list decorators (Apps' `_meta.ui`),
 * interceptors (MRTR's `input_required`, task handles, strict `ui://` reads) and result shapers
 * (progressive discovery's canonical `structuredContent.result`).
 *
 * Every hook says per request whether it applies and in which variant: `variant(ctx)` returns
 * undefined when the hook does not apply (it does not run at all), or a key such that the
 * hook's effect depends only on that key and the method's own inputs. The dispatcher
 * memoizes a result only under the identities and variants of every hook that ran, so two
 * requests that negotiated differently never share bytes. A hook whose effect cannot be
 * described by a key sets `memoizable: false`: any result it touched is then never memoized.
 */
export interface McpHook {
  /** The hook's identity (usually the extension id); unique per method and kind. */
  readonly id: string;
  /** The variant for this request, or undefined when the hook does not apply to it. */
  variant(ctx: McpRequestContext): string | undefined;
  /** False when the hook's effect is not a function of its variant (results it touched are not memoized). */
  readonly memoizable?: boolean;
}

/**
 * Continues the chain with (possibly rewritten) params — and, for work that outlives the
 * exchange (a durable task), a detached context (`detachMcpRequestContext`). Whatever `next`
 * resolves to has been through the method's result shapers already.
 */
export type McpNext = (params: unknown, ctx?: McpRequestContext) => Promise<McpMethodOutcome>;

/** Wraps a method: it may answer itself (e.g. `input_required`, a task handle) or call `next`. */
export interface McpInterceptor extends McpHook {
  readonly method: string;
  intercept(params: unknown, ctx: McpRequestContext, next: McpNext): Promise<McpMethodOutcome>;
}

/** Rewrites a finished outcome. */
export interface McpResultShaper extends McpHook {
  readonly method: string;
  shape(outcome: McpMethodOutcome, ctx: McpRequestContext, params: unknown): McpMethodOutcome;
}

/** The list methods whose entries decorators may rewrite. */
export type McpListMethod = 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list';

/** Rewrites the full entry list of a list method before pagination (cursors bind to the variants). */
export interface McpListDecorator extends McpHook {
  readonly method: McpListMethod;
  decorate(items: readonly JsonObject[], ctx: McpRequestContext): readonly JsonObject[];
}

/** The hooks that ran for one request, as a memo-key part ('' when none); undefined when one of them forbids memoizing. */
export type McpHookTrail = string | undefined;

/** Appends `hook`'s identity and variant to a trail. */
export function extendMcpHookTrail(trail: McpHookTrail, hook: McpHook, variant: string): McpHookTrail {
  if (trail === undefined || hook.memoizable === false) return undefined;
  const part = `${JSON.stringify(hook.id)}=${JSON.stringify(variant)}`;
  return trail === '' ? part : `${trail};${part}`;
}
