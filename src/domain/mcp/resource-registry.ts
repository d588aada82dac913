import { deepFreeze } from '../util/canonical-json.js';
import type { McpRequestContext } from './request-context.js';
import { compileMcpUriTemplate, type McpUriTemplateMatcher } from './uri-template.js';
import type { JsonObject, McpCachePolicy, McpResourceContents, McpResourceDescriptor, McpResourceTemplateDescriptor } from './wire-types.js';

/**
 * The resource registry (2026-07-28 `server/resources`): fixed resources and URI templates.
 * Reads carry the definition's cache policy (tracker data is `private`); descriptor lists are
 * precomputed and frozen.
 */

/** Descriptor fields shared by resources and templates. */
interface McpResourceCommon {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly annotations?: JsonObject;
  readonly meta?: JsonObject;
  /** Cache policy of a read result (`ttlMs`, `cacheScope`). */
  readonly cache: McpCachePolicy;
}

/** A fixed resource. */
export interface McpResourceDefinition extends McpResourceCommon {
  readonly uri: string;
  /** Returns the contents; an empty array is treated as "not found" (empty contents are forbidden). */
  read(ctx: McpRequestContext): Promise<readonly McpResourceContents[]> | readonly McpResourceContents[];
}

/**
 * Candidates a completion provider found when it cannot return them all (e.g. ids among 100k
 * items): the first values plus the `total` that match (2026-07-28 `CompleteResult`).
 */
export interface McpCompletionValues {
  readonly values: readonly string[];
  readonly total: number;
}

/** Completion of one template variable (`completion/complete` with `ref/resource`). */
export type McpCompletionProvider = (
  argument: string,
  value: string,
  context: Readonly<Record<string, string>>,
  ctx: McpRequestContext,
) => Promise<readonly string[] | McpCompletionValues> | readonly string[] | McpCompletionValues;

/** A URI template (RFC 6570 subset of {@link compileMcpUriTemplate}). */
export interface McpResourceTemplateDefinition extends McpResourceCommon {
  readonly uriTemplate: string;
  read(uri: string, variables: Readonly<Record<string, string>>, ctx: McpRequestContext): Promise<readonly McpResourceContents[]> | readonly McpResourceContents[];
  readonly complete?: McpCompletionProvider;
}

/** One page of a dynamic resource listing. */
export interface McpResourcePage {
  readonly resources: readonly McpResourceDescriptor[];
  /** The lister's own continuation token; absent on the last page. */
  readonly nextCursor?: string;
}

/**
 * A dynamic part of `resources/list` (e.g. one `pm://items/<id>` per tracker item), listed
 * after the fixed resources and paged by its own cursor (an invalid one must throw -32602).
 * Its entries are tracker data, so a `resources/list` with a lister carries the lister's
 * (private) cache policy on every page and is never memoized (seed 004: tool and resource
 * data stay private).
 */
export interface McpResourceLister {
  readonly cache: McpCachePolicy;
  list(cursor: string | undefined, limit: number, ctx: McpRequestContext): Promise<McpResourcePage> | McpResourcePage;
}

/** What a URI resolves to. */
export type McpResolvedResource =
  | { readonly kind: 'resource'; readonly definition: McpResourceDefinition }
  | { readonly kind: 'template'; readonly definition: McpResourceTemplateDefinition; readonly variables: Readonly<Record<string, string>> };

function common(def: McpResourceCommon): JsonObject {
  return {
    name: def.name,
    ...(def.title !== undefined ? { title: def.title } : {}),
    ...(def.description !== undefined ? { description: def.description } : {}),
    ...(def.mimeType !== undefined ? { mimeType: def.mimeType } : {}),
    ...(def.annotations !== undefined ? { annotations: def.annotations } : {}),
    ...(def.meta !== undefined ? { _meta: def.meta } : {}),
  };
}

function checkCache(where: string, cache: McpCachePolicy): void {
  if (!Number.isSafeInteger(cache.ttlMs) || cache.ttlMs < 0) throw new RangeError(`${where}: ttlMs must be an integer >= 0`);
  if (cache.cacheScope !== 'public' && cache.cacheScope !== 'private') throw new RangeError(`${where}: cacheScope must be public or private`);
}

/** Resources and templates a server offers, in advertisement order. */
export class PmMcpResourceRegistry {
  readonly resources: readonly McpResourceDescriptor[];
  readonly templates: readonly McpResourceTemplateDescriptor[];
  private readonly byUri: ReadonlyMap<string, McpResourceDefinition>;
  private readonly matchers: readonly { readonly matcher: McpUriTemplateMatcher; readonly definition: McpResourceTemplateDefinition }[];

  constructor(
    resources: readonly McpResourceDefinition[],
    templates: readonly McpResourceTemplateDefinition[] = [],
    /** Dynamic entries listed after the fixed resources (see {@link McpResourceLister}). */
    readonly lister?: McpResourceLister,
  ) {
    if (lister) checkCache('resource lister', lister.cache);
    const byUri = new Map<string, McpResourceDefinition>();
    for (const r of resources) {
      if (!URL.canParse(r.uri)) throw new RangeError(`resource ${r.name}: ${r.uri} is not a URI`);
      if (byUri.has(r.uri)) throw new RangeError(`resource ${r.uri} is defined twice`);
      checkCache(`resource ${r.uri}`, r.cache);
      byUri.set(r.uri, r);
    }
    const seen = new Set<string>();
    this.matchers = templates.map((t) => {
      if (seen.has(t.uriTemplate)) throw new RangeError(`resource template ${t.uriTemplate} is defined twice`);
      seen.add(t.uriTemplate);
      checkCache(`resource template ${t.uriTemplate}`, t.cache);
      return { matcher: compileMcpUriTemplate(t.uriTemplate), definition: t };
    });
    this.byUri = byUri;
    this.resources = deepFreeze(structuredClone(resources.map((r) => ({ uri: r.uri, ...common(r) }) as McpResourceDescriptor)));
    this.templates = deepFreeze(structuredClone(templates.map((t) => ({ uriTemplate: t.uriTemplate, ...common(t) }) as McpResourceTemplateDescriptor)));
  }

  get isEmpty(): boolean {
    return this.byUri.size === 0 && this.matchers.length === 0;
  }

  /** True when some template offers completion. */
  get completes(): boolean {
    return this.matchers.some((m) => m.definition.complete !== undefined);
  }

  /** Resolves a URI: a fixed resource first, then the first matching template. */
  resolve(uri: string): McpResolvedResource | undefined {
    const fixed = this.byUri.get(uri);
    if (fixed) return { kind: 'resource', definition: fixed };
    for (const { matcher, definition } of this.matchers) {
      const variables = matcher.match(uri);
      if (variables) return { kind: 'template', definition, variables };
    }
    return undefined;
  }

  /** The template declared as `uriTemplate` (completion references templates by their text). */
  template(uriTemplate: string): McpResourceTemplateDefinition | undefined {
    return this.matchers.find((m) => m.definition.uriTemplate === uriTemplate)?.definition;
  }
}
