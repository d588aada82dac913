import { z } from 'zod';
import { PmMcpResourceNotFoundError } from '../../errors/mcp-errors.js';
import { NotFoundError } from '../../errors/tracker-errors.js';
import { lazy } from '../../util/lazy.js';
import type { PmMcpMethodRegistry } from '../method-registry.js';
import type { McpRequestContext } from '../request-context.js';
import type { PmMcpResourceRegistry } from '../resource-registry.js';
import type { PmMcpServerDescriptor } from '../server-descriptor.js';
import type { JsonObject, McpResourceContents } from '../wire-types.js';
import { MCP_RESOURCE_TEMPLATES_LIST_METHOD, MCP_RESOURCES_LIST_METHOD, MCP_RESOURCES_READ_METHOD } from './core-method-specs.js';
import { registerMcpListMethod } from './list-method.js';

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

/** Registers the resource methods (both eras). */
export function registerMcpResourceMethods(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor, resources: PmMcpResourceRegistry): void {
  registerMcpListMethod(methods, {
    spec: MCP_RESOURCES_LIST_METHOD,
    member: 'resources',
    entries: () => resources.resources as unknown as readonly JsonObject[],
    pageSize: server.pageSize,
    cache: server.listCache,
    ...(resources.lister ? { lister: resources.lister } : {}),
  });
  registerMcpListMethod(methods, {
    spec: MCP_RESOURCE_TEMPLATES_LIST_METHOD,
    member: 'resourceTemplates',
    entries: () => resources.templates as unknown as readonly JsonObject[],
    pageSize: server.pageSize,
    cache: server.listCache,
  });
  methods.register({
    ...MCP_RESOURCES_READ_METHOD,
    params: mcpReadResourceParamsSchema,
    async handle(params, ctx) {
      const { contents, cache } = await readContents(resources, params.uri, ctx);
      return { body: { contents }, cache };
    },
  });
}
