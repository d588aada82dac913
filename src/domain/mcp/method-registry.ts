import type { z } from 'zod';
import { PmMcpMissingClientCapabilityError } from '../errors/mcp-errors.js';
import type { McpEra } from './protocol.js';
import { hasMcpExtension, type McpRequestContext } from './request-context.js';
import type { JsonObject, McpCachePolicy } from './wire-types.js';

/**
 * The method handler registry behind the one dispatcher (DESIGN "How a request flows" step 4).
 * Core methods register here; extensions slot in without touching them, keyed by what the
 * request negotiated: extra methods (Skills, tasks), list decorators (Apps, progressive
 * discovery), interceptors (MRTR, task handles, ui:// reads) and result shapers.
 */

/** What a method handler returns; the dispatcher turns it into the era's envelope, once. */
export interface McpMethodOutcome {
  /** `complete` (default), or an interim type (`input_required`, or `task` from the tasks extension). */
  readonly resultType?: string;
  /** The method-specific result members (no `resultType`, no cache fields). */
  readonly body: JsonObject;
  /** Cache fields for discover/list/read results. */
  readonly cache?: McpCachePolicy;
  /**
   * When set, the enveloped, serialized result depends only on (era, revision, method, memoKey):
   * the dispatcher serializes it once and reuses the text (precomputed list pages).
   */
  readonly memoKey?: string;
}

/** One JSON-RPC method. `params` parses the request params (with `_meta` removed). */
export interface McpMethodDefinition<P = unknown> {
  readonly method: string;
  /** The eras that serve this method; elsewhere it is -32601. */
  readonly eras: readonly McpEra[];
  /**
   * The params parser, or a function that builds it on first use: a zod schema runs its
   * constructors when built, so methods a process may never see keep theirs out of start-up
   * (issue 3, cold start).
   */
  readonly params: z.ZodType<P> | (() => z.ZodType<P>);
  handle(params: P, ctx: McpRequestContext): Promise<McpMethodOutcome> | McpMethodOutcome;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMethod = McpMethodDefinition<any>;

/** Continues the chain with (possibly rewritten) params. */
export type McpNext = (params: unknown) => Promise<McpMethodOutcome>;

/** Wraps a method: it may answer itself (e.g. `input_required`, a task handle) or call `next`. */
export interface McpInterceptor {
  /** Identifies the hook (usually the extension id). */
  readonly id: string;
  readonly method: string;
  intercept(params: unknown, ctx: McpRequestContext, next: McpNext): Promise<McpMethodOutcome>;
}

/** Rewrites a finished outcome (e.g. progressive discovery's canonical `structuredContent.result`). */
export interface McpResultShaper {
  readonly id: string;
  readonly method: string;
  applies(ctx: McpRequestContext): boolean;
  shape(outcome: McpMethodOutcome, ctx: McpRequestContext, params: unknown): McpMethodOutcome;
}

/** The list methods whose entries decorators may rewrite. */
export type McpListMethod = 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list';

/**
 * Rewrites the full entry list of a list method before pagination. `variant` returns a key for
 * this request's decoration (undefined: the decorator does not apply), so pages stay memoizable
 * and cursors stay bound to the variant they came from.
 */
export interface McpListDecorator {
  readonly id: string;
  readonly method: McpListMethod;
  variant(ctx: McpRequestContext): string | undefined;
  decorate(items: readonly JsonObject[], ctx: McpRequestContext): readonly JsonObject[];
}

/** How an extension method answers a request that did not negotiate the extension. */
export type McpExtensionGate = (ctx: McpRequestContext) => void;

/** Registry of methods and extension hooks. */
export class PmMcpMethodRegistry {
  private readonly methods = new Map<string, AnyMethod>();
  private readonly interceptors = new Map<string, McpInterceptor[]>();
  private readonly shapers = new Map<string, McpResultShaper[]>();
  private readonly decorators = new Map<McpListMethod, McpListDecorator[]>();
  private readonly decorated = new WeakMap<readonly JsonObject[], Map<string, readonly JsonObject[]>>();

  /** Registers a method; a second registration of the same name is a programming error. */
  register<P>(definition: McpMethodDefinition<P>): this {
    if (this.methods.has(definition.method)) throw new RangeError(`method ${definition.method} is registered twice`);
    this.methods.set(definition.method, definition as AnyMethod);
    return this;
  }

  /**
   * Registers a modern-only method owned by extension `extensionId`. A request that did not
   * negotiate the extension gets -32021 naming it (or what `gate` decides, e.g. a stricter
   * revision check for the Skills draft).
   */
  registerExtensionMethod<P>(extensionId: string, definition: Omit<McpMethodDefinition<P>, 'eras'>, gate?: McpExtensionGate): this {
    const check: McpExtensionGate = gate ?? ((ctx) => {
      if (!hasMcpExtension(ctx, extensionId)) {
        throw new PmMcpMissingClientCapabilityError({ extensions: { [extensionId]: {} } }, `${definition.method} needs the ${extensionId} extension declared on the request`);
      }
    });
    return this.register<P>({
      ...definition,
      eras: ['modern'],
      handle: (params, ctx) => {
        check(ctx);
        return definition.handle(params, ctx);
      },
    });
  }

  addInterceptor(interceptor: McpInterceptor): this {
    this.push(this.interceptors, interceptor.method, interceptor);
    return this;
  }

  addResultShaper(shaper: McpResultShaper): this {
    this.push(this.shapers, shaper.method, shaper);
    return this;
  }

  addListDecorator(decorator: McpListDecorator): this {
    this.push(this.decorators, decorator.method, decorator);
    return this;
  }

  /** The definition serving `method` in `era`, if any. */
  resolve(method: string, era: McpEra): AnyMethod | undefined {
    const definition = this.methods.get(method);
    return definition && definition.eras.includes(era) ? definition : undefined;
  }

  /** Names of the registered methods (diagnostics, tests). */
  get methodNames(): readonly string[] {
    return [...this.methods.keys()];
  }

  /** Runs `definition` through its interceptors, then its result shapers. */
  async invoke(definition: AnyMethod, params: unknown, ctx: McpRequestContext): Promise<McpMethodOutcome> {
    const chain = this.interceptors.get(definition.method) ?? [];
    const run = (index: number, current: unknown): Promise<McpMethodOutcome> => {
      const interceptor = chain[index];
      if (!interceptor) return Promise.resolve(definition.handle(current, ctx));
      return interceptor.intercept(current, ctx, (next) => run(index + 1, next));
    };
    let outcome = await run(0, params);
    for (const shaper of this.shapers.get(definition.method) ?? []) {
      if (shaper.applies(ctx)) outcome = shaper.shape(outcome, ctx, params);
    }
    return outcome;
  }

  /**
   * Applies the decorators for `method` that apply to this request. Returns the entries and a
   * variant key ('' when undecorated) to bind cursors and memoized pages to. A decorator's
   * output must depend only on its variant key, so decorated lists are memoized per variant.
   */
  decorateList(method: McpListMethod, items: readonly JsonObject[], ctx: McpRequestContext): { items: readonly JsonObject[]; variant: string } {
    const active: { decorator: McpListDecorator; key: string }[] = [];
    for (const decorator of this.decorators.get(method) ?? []) {
      const variant = decorator.variant(ctx);
      if (variant !== undefined) active.push({ decorator, key: `${decorator.id}=${variant}` });
    }
    if (!active.length) return { items, variant: '' };
    const variant = active.map((a) => a.key).join(';');
    let byVariant = this.decorated.get(items);
    if (!byVariant) this.decorated.set(items, (byVariant = new Map()));
    let decorated = byVariant.get(variant);
    if (!decorated) {
      decorated = active.reduce((current, a) => a.decorator.decorate(current, ctx), items);
      if (byVariant.size >= 64) byVariant.clear();
      byVariant.set(variant, decorated);
    }
    return { items: decorated, variant };
  }

  private push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  }
}
