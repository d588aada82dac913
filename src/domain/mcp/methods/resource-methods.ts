import { z } from 'zod';
import { PmMcpResourceNotFoundError } from '../../errors/mcp-errors.js';
import { NotFoundError } from '../../errors/tracker-errors.js';
import type { McpMethodOutcome, PmMcpMethodRegistry } from '../method-registry.js';
import { paginateMcpList } from '../pagination.js';
import type { McpRequestContext } from '../request-context.js';
import type { McpResourceLister, PmMcpResourceRegistry } from '../resource-registry.js';
import type { PmMcpServerDescriptor } from '../server-descriptor.js';
import type { JsonObject, McpResourceContents } from '../wire-types.js';
import { mcpListParamsSchema } from './tool-methods.js';
import { lazy } from '../../util/lazy.js';

/**
 * `resources/list`, `resources/templates/list` and `resources/read` over a
 * {@link PmMcpResourceRegistry} (2026-07-28 `server/resources`, SEP-2164). A URI nothing
 * serves — or a read that finds nothing — is "resource not found": -32602 with `data.uri` on
 * the modern path, -32002 on the legacy path (mapped once, in the error mapper). Empty
 * `contents` are never returned. A registry with a dynamic lister (tracker items) makes
 * `resources/list` private tracker data; without one it is a public, memoized metadata list.
 */

/** `resources/read` params. */
export const mcpReadResourceParamsSchema = lazy(() =>
  z.object({
    uri: z.string().min(1),
    inputResponses: z.record(z.string(), z.unknown()).optional(),
    requestState: z.string().optional(),
  })
);

async function readContents(resources: PmMcpResourceRegistry, uri: string, ctx: McpRequestContext) {
  const resolved = resources.resolve(uri);
  if (!resolved) throw new PmMcpResourceNotFoundError(uri);
  let contents: readonly McpResourceContents[];
  try {
    contents = resolved.kind === 'resource' ? await resolved.definition.read(ctx) : await resolved.definition.read(uri, resolved.variables, ctx);
  } catch (error) {
    if (error instanceof NotFoundError) throw new PmMcpResourceNotFoundError(uri);
    throw error;
  }
  if (!contents.length) throw new PmMcpResourceNotFoundError(uri);
  return { contents, cache: resolved.definition.cache };
}

/** Cursors of the dynamic part of `resources/list` carry this prefix before the lister's own cursor. */
const LISTER_CURSOR = 'd.';

/**
 * `resources/list` with a dynamic lister: the fixed (decorated) resources first, then the
 * lister's entries, one cursor sequence over both. Tracker data: the lister's private cache
 * policy, no memo key.
 */
async function listWithLister(lister: McpResourceLister, fixed: readonly JsonObject[], cursor: string | undefined, pageSize: number, listKey: string, ctx: McpRequestContext): Promise<McpMethodOutcome> {
  const outcome = (entries: readonly unknown[], nextCursor: string | undefined): McpMethodOutcome => ({
    body: { resources: entries, ...(nextCursor !== undefined ? { nextCursor } : {}) },
    cache: lister.cache,
  });
  if (cursor?.startsWith(LISTER_CURSOR)) {
    const page = await lister.list(cursor.slice(LISTER_CURSOR.length) || undefined, pageSize, ctx);
    return outcome(page.resources, page.nextCursor === undefined ? undefined : LISTER_CURSOR + page.nextCursor);
  }
  const head = paginateMcpList(fixed, cursor, pageSize, listKey);
  if (head.nextCursor !== undefined) return outcome(head.items, head.nextCursor);
  const room = pageSize - head.items.length;
  if (room <= 0) return outcome(head.items, LISTER_CURSOR);
  const page = await lister.list(undefined, room, ctx);
  return outcome([...head.items, ...page.resources], page.nextCursor === undefined ? undefined : LISTER_CURSOR + page.nextCursor);
}

/** Registers the resource methods (both eras). */
export function registerMcpResourceMethods(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor, resources: PmMcpResourceRegistry): void {
  methods.register({
    method: 'resources/list',
    eras: ['modern', 'legacy'],
    params: mcpListParamsSchema,
    handle(params, ctx) {
      const { items, variant } = methods.decorateList('resources/list', resources.resources as unknown as readonly JsonObject[], ctx);
      if (resources.lister) return listWithLister(resources.lister, items, params.cursor, server.pageSize, `resources/list|${variant}`, ctx);
      const page = paginateMcpList(items, params.cursor, server.pageSize, `resources/list|${variant}`);
      return {
        body: { resources: page.items, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) },
        cache: server.listCache,
        memoKey: `${variant}|${page.offset}`,
      };
    },
  });

  methods.register({
    method: 'resources/templates/list',
    eras: ['modern', 'legacy'],
    params: mcpListParamsSchema,
    handle(params, ctx) {
      const { items, variant } = methods.decorateList('resources/templates/list', resources.templates as unknown as readonly JsonObject[], ctx);
      const page = paginateMcpList(items, params.cursor, server.pageSize, `resources/templates/list|${variant}`);
      return {
        body: { resourceTemplates: page.items, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) },
        cache: server.listCache,
        memoKey: `${variant}|${page.offset}`,
      };
    },
  });

  methods.register({
    method: 'resources/read',
    eras: ['modern', 'legacy'],
    params: mcpReadResourceParamsSchema,
    async handle(params, ctx) {
      const { contents, cache } = await readContents(resources, params.uri, ctx);
      return { body: { contents }, cache };
    },
  });
}
