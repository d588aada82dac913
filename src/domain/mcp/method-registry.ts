import type { z } from 'zod';
import type { AdmissionRequest, OperationScope } from '../../ports/transport.js';
import { PmMcpMissingClientCapabilityError } from '../errors/mcp-errors.js';
import { BoundedCache } from '../util/bounded-cache.js';
import { extendMcpHookTrail, type McpHook, type McpHookTrail, type McpInterceptor, type McpListDecorator, type McpListMethod, type McpResultShaper } from './method-hooks.js';
import type { McpMethodOutcome } from './method-outcome.js';
import { claimsBareMcpRequests, type McpMethodSpec } from './method-spec.js';
import type { McpEra } from './protocol.js';
import { hasMcpExtension, type McpRequestContext } from './request-context.js';
import type { JsonObject } from './wire-types.js';

/**
 * The method registry behind the one dispatcher (docs/ARCHITECTURE.md "How a request flows",
 * step 4). Core methods register here with their declarations (method-spec.ts); extensions slot
 * in by registration alone — extra methods, list decorators, interceptors, result shapers and
 * drain hooks — and every rule that depends on a method (era, `Mcp-Name`, scope, streaming,
 * readiness, interim results) is read from what was registered.
 */

/** The params of a request as the declaration hooks see them (unparsed, `_meta` included). */
export type McpRawParams = Readonly<Record<string, unknown>> | undefined;

/** One JSON-RPC method: its declaration, its params parser and its handler. */
export interface McpMethodDefinition<P = unknown> extends McpMethodSpec {
  /** Parses the request params (with `_meta` removed), or builds that parser on first use. */
  readonly params: z.ZodType<P> | (() => z.ZodType<P>);
  /** The scope when it depends on the params (tools/call: per tool); otherwise `scope`. */
  scopeOf?(params: McpRawParams): OperationScope;
  /** The input schema whose `x-mcp-header` annotations select `Mcp-Param-*` headers (tools/call: the called tool's). */
  headerSchemaOf?(params: McpRawParams): object | undefined;
  /**
   * Refusals the params parser cannot make alone (they need the registry: tools/call's strict
   * arguments), run on the parsed params once the server is prepared and before a retry's
   * state, an interceptor or the handler reads them; throws a typed -32602.
   */
  check?(params: P): void;
  handle(params: P, ctx: McpRequestContext): Promise<McpMethodOutcome> | McpMethodOutcome;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMcpMethodDefinition = McpMethodDefinition<any>;

/** How an extension method answers a request that did not negotiate the extension. */
export type McpExtensionGate = (ctx: McpRequestContext) => void;

/** What one invocation produced, with the trail of hooks that ran (the memo-key part). */
export interface McpInvocation {
  readonly outcome: McpMethodOutcome;
  readonly trail: McpHookTrail;
}

/** What resolving scopes and admission needs from a registry (the public scope helpers take it). */
export interface McpMethodTraits {
  /** The scope a message needs (unknown methods: read). */
  scopeOf(method: string, params: McpRawParams): OperationScope;
}

/** Registry of methods and extension hooks. */
export class PmMcpMethodRegistry implements McpMethodTraits {
  private readonly methods = new Map<string, AnyMcpMethodDefinition>();
  private readonly interceptors = new Map<string, McpInterceptor[]>();
  private readonly shapers = new Map<string, McpResultShaper[]>();
  private readonly decorators = new Map<McpListMethod, McpListDecorator[]>();
  private readonly drains: (() => void)[] = [];
  private readonly decorated = new WeakMap<readonly JsonObject[], BoundedCache<string, readonly JsonObject[]>>();

  /** Registers a method; a second registration of the same name is a programming error. */
  register<P>(definition: McpMethodDefinition<P>): this {
    if (this.methods.has(definition.method)) throw new RangeError(`method ${definition.method} is registered twice`);
    if (!definition.eras.length) throw new RangeError(`method ${definition.method} serves no era`);
    this.methods.set(definition.method, definition as AnyMcpMethodDefinition);
    return this;
  }

  /**
   * Registers a modern-only method owned by extension `extensionId`. A request that did not
   * negotiate the extension gets -32021 naming it (or what `gate` decides, e.g. a stricter
   * revision check for the Skills draft).
   */
  registerExtensionMethod<P>(extensionId: string, definition: Omit<McpMethodDefinition<P>, 'eras'>, gate?: McpExtensionGate): this {
    const check: McpExtensionGate =
      gate ??
      ((ctx) => {
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

  /** Registers work to do when no more input is coming (e.g. end listen streams gracefully). */
  onDrain(drain: () => void): this {
    this.drains.push(drain);
    return this;
  }

  /** Runs every drain hook (the transport is closing). */
  drain(): void {
    for (const drain of this.drains) drain();
  }

  /** The definition registered for `method`, whatever its eras. */
  get(method: string): AnyMcpMethodDefinition | undefined {
    return this.methods.get(method);
  }

  /** The definition serving `method` in `era`, if any. */
  resolve(method: string, era: McpEra): AnyMcpMethodDefinition | undefined {
    const definition = this.methods.get(method);
    return definition && definition.eras.includes(era) ? definition : undefined;
  }

  /** True when a request for `method` is modern even without modern `_meta` (see claimsBareMcpRequests). */
  isModernOnly(method: string): boolean {
    const definition = this.methods.get(method);
    return definition !== undefined && claimsBareMcpRequests(definition);
  }

  scopeOf(method: string, params: McpRawParams): OperationScope {
    const definition = this.methods.get(method);
    if (!definition) return 'read';
    return definition.scopeOf ? definition.scopeOf(params) : (definition.scope ?? 'read');
  }

  /** What a transport needs to admit one message, read from its method's declaration. */
  admission(message: { readonly id?: AdmissionRequest['id']; readonly method: string; readonly params?: McpRawParams }, era: McpEra): AdmissionRequest {
    const definition = this.methods.get(message.method);
    const params = message.params;
    return {
      kind: message.id === undefined ? 'notification' : 'request',
      id: message.id,
      method: message.method,
      params,
      era,
      scope: this.scopeOf(message.method, params),
      nameSource: definition?.nameSource,
      headerSchema: definition?.headerSchemaOf?.(params),
      streams: definition?.streams === true,
    };
  }

  /** Names of the registered methods (diagnostics, tests). */
  get methodNames(): readonly string[] {
    return [...this.methods.keys()];
  }

  /** Runs `definition` through the interceptors and result shapers that apply to `ctx`. */
  async invoke(definition: AnyMcpMethodDefinition, params: unknown, ctx: McpRequestContext): Promise<McpInvocation> {
    let trail: McpHookTrail = '';
    const chain: McpInterceptor[] = [];
    for (const interceptor of this.interceptors.get(definition.method) ?? []) {
      const variant = interceptor.variant(ctx);
      if (variant === undefined) continue;
      chain.push(interceptor);
      trail = extendMcpHookTrail(trail, interceptor, variant);
    }
    const shapers: McpResultShaper[] = [];
    for (const shaper of this.shapers.get(definition.method) ?? []) {
      const variant = shaper.variant(ctx);
      if (variant === undefined) continue;
      shapers.push(shaper);
      trail = extendMcpHookTrail(trail, shaper, variant);
    }
    // Shapers rewrite the method's own result, so an interceptor that runs the rest of the
    // chain later (a task's work) gets what the request would have returned.
    const handle = async (current: unknown, runCtx: McpRequestContext): Promise<McpMethodOutcome> => {
      let outcome = await definition.handle(current, runCtx);
      for (const shaper of shapers) outcome = shaper.shape(outcome, runCtx, current);
      return outcome;
    };
    const run = (index: number, current: unknown, runCtx: McpRequestContext): Promise<McpMethodOutcome> => {
      const interceptor = chain[index];
      if (!interceptor) return handle(current, runCtx);
      return interceptor.intercept(current, runCtx, (next, nextCtx) => run(index + 1, next, nextCtx ?? runCtx));
    };
    const outcome = await run(0, params, ctx);
    return { outcome, trail };
  }

  /**
   * Applies the decorators for `method` that apply to this request. Returns the entries and a
   * variant key ('' when undecorated, undefined when a decorator forbids memoizing) to bind
   * cursors and memoized pages to. Decorated lists are kept per variant.
   */
  decorateList(method: McpListMethod, items: readonly JsonObject[], ctx: McpRequestContext): { readonly items: readonly JsonObject[]; readonly variant: McpHookTrail } {
    const active: McpListDecorator[] = [];
    let variant: McpHookTrail = '';
    for (const decorator of this.decorators.get(method) ?? []) {
      const key = decorator.variant(ctx);
      if (key === undefined) continue;
      active.push(decorator);
      variant = extendMcpHookTrail(variant, decorator, key);
    }
    if (!active.length) return { items, variant: '' };
    const apply = () => active.reduce((current, decorator) => decorator.decorate(current, ctx), items);
    if (variant === undefined) return { items: apply(), variant };
    let byVariant = this.decorated.get(items);
    if (!byVariant) this.decorated.set(items, (byVariant = new BoundedCache(`${method} entries by decoration variant`, 64)));
    return { items: byVariant.getOrCreate(variant, apply), variant };
  }

  private push<K, V extends McpHook>(map: Map<K, V[]>, key: K, value: V): void {
    const list = map.get(key);
    if (list?.some((hook) => hook.id === value.id)) throw new RangeError(`hook ${value.id} is registered twice for ${String(key)}`);
    if (list) list.push(value);
    else map.set(key, [value]);
  }
}
