import { z } from 'zod';
import { lazy } from '../../util/lazy.js';
import type { McpListMethod } from '../method-hooks.js';
import type { McpCompleteOutcome } from '../method-outcome.js';
import type { PmMcpMethodRegistry } from '../method-registry.js';
import type { McpMethodSpec } from '../method-spec.js';
import { paginateMcpList } from '../pagination.js';
import type { McpRequestContext } from '../request-context.js';
import type { McpResourceLister } from '../resource-registry.js';
import type { JsonObject, McpCachePolicy } from '../wire-types.js';

/**
 * The one list-method handler (2026-07-28 `server/utilities/pagination`,
 * `server/utilities/caching`): `tools/list`, `resources/list`, `resources/templates/list` and
 * `prompts/list` differ only in their entries and result member. Here, once: list decorators
 * for this request, cursor pagination bound to the list and its decoration variant, the cache
 * fields, and the memo key of each page. With a dynamic lister (tracker items after the fixed
 * resources) the list is private tracker data and is not memoized.
 */

/** The params of every list method. */
export const mcpListParamsSchema = lazy(() => z.object({ cursor: z.string().optional() }));

/** What one list method lists. */
export interface McpListMethodOptions {
  readonly spec: McpMethodSpec & { readonly method: McpListMethod };
  /** The result member holding the entries (`tools`, `resources`, `resourceTemplates`, `prompts`). */
  readonly member: string;
  /** The fixed entries in advertisement order (read per request: a registry may build them on first use). */
  readonly entries: () => readonly JsonObject[];
  readonly pageSize: number;
  /** Cache fields of the fixed list (public metadata). */
  readonly cache: McpCachePolicy;
  /** Entries listed after the fixed ones, page by page (private, never memoized). */
  readonly lister?: McpResourceLister;
}

/** Cursors of a lister's part carry this prefix before the lister's own cursor. */
const LISTER_CURSOR = 'd.';

/** Registers one list method. */
export function registerMcpListMethod(methods: PmMcpMethodRegistry, options: McpListMethodOptions): void {
  const { spec, member, pageSize, cache, lister } = options;
  const page = (entries: readonly unknown[], nextCursor: string | undefined): JsonObject => ({ [member]: entries, ...(nextCursor !== undefined ? { nextCursor } : {}) });
  methods.register({
    ...spec,
    params: mcpListParamsSchema,
    handle(params, ctx): McpCompleteOutcome | Promise<McpCompleteOutcome> {
      const { items, variant } = methods.decorateList(spec.method, options.entries(), ctx);
      const listKey = `${spec.method}|${variant ?? '~'}`;
      if (lister) return listWithLister(lister, items, params.cursor, pageSize, listKey, ctx, page);
      const slice = paginateMcpList(items, params.cursor, pageSize, listKey);
      return { body: page(slice.items, slice.nextCursor), cache, ...(variant !== undefined ? { memoKey: `${variant}|${slice.offset}` } : {}) };
    },
  });
}

/** The fixed entries first, then the lister's, one cursor sequence over both. */
async function listWithLister(
  lister: McpResourceLister,
  fixed: readonly JsonObject[],
  cursor: string | undefined,
  pageSize: number,
  listKey: string,
  ctx: McpRequestContext,
  page: (entries: readonly unknown[], nextCursor: string | undefined) => JsonObject,
): Promise<McpCompleteOutcome> {
  const outcome = (entries: readonly unknown[], nextCursor: string | undefined): McpCompleteOutcome => ({ body: page(entries, nextCursor), cache: lister.cache });
  if (cursor?.startsWith(LISTER_CURSOR)) {
    const next = await lister.list(cursor.slice(LISTER_CURSOR.length) || undefined, pageSize, ctx);
    return outcome(next.resources, next.nextCursor === undefined ? undefined : LISTER_CURSOR + next.nextCursor);
  }
  const head = paginateMcpList(fixed, cursor, pageSize, listKey);
  if (head.nextCursor !== undefined) return outcome(head.items, head.nextCursor);
  const room = pageSize - head.items.length;
  if (room <= 0) return outcome(head.items, LISTER_CURSOR);
  const next = await lister.list(undefined, room, ctx);
  return outcome([...head.items, ...next.resources], next.nextCursor === undefined ? undefined : LISTER_CURSOR + next.nextCursor);
}
