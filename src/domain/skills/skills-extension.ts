import { z } from 'zod';
import { lazy } from '../util/lazy.js';
import type { McpCompleteOutcome } from '../mcp/method-outcome.js';
import type { PmMcpMethodRegistry } from '../mcp/method-registry.js';
import { mcpListParamsSchema } from '../mcp/methods/list-method.js';
import type { McpRequestContext } from '../mcp/request-context.js';
import type { PmMcpServerExtension } from '../mcp/server-extension.js';
import type { JsonObject, McpCachePolicy } from '../mcp/wire-types.js';
import { assertPmMcpSkillsCapability, PM_MCP_SKILLS_SERVER_CAPABILITY, type PmSkillsDeclarationMode } from './skills-capability.js';
import { PM_MCP_DIRECTORY_READ_METHOD, PM_MCP_SKILLS_GET_METHOD, PM_MCP_SKILLS_LIST_METHOD } from './skills-method-specs.js';
import { isPmSkillUri } from './skill-uri.js';
import { pmMcpSkillsChangeSource } from './skills-change-source.js';
import type { PmMcpSkillsService } from './skills-service.js';
import { PM_SKILLS_EXTENSION_ID } from './types.js';

/**
 * The Skills extension of pm's MCP servers (seed 000 "Skills over MCP"; SEP-2640 at the pinned
 * revision), plugged in by registration alone:
 * - `skills/list`, `skills/get` and `resources/directory/read`, each gated by
 *   {@link assertPmMcpSkillsCapability} under the operator's declaration mode;
 * - an interceptor on `resources/read` that serves `skill://` URIs from the registry (gated the
 *   same way) and passes every other URI on;
 * - a decorator on `resources/list` that lists each SKILL.md (name and description from its
 *   front matter), keyed by the registry digest.
 * The registry is loaded while the server prepares (so `server/discover` never waits for it);
 * every request takes the current registry once, so a reload never changes a request midway,
 * and every result of one registry is memoized under its digest.
 */

/** Cache fields of skills results: short-lived, private (workspace skills are repository content). */
export const PM_MCP_SKILLS_CACHE: McpCachePolicy = Object.freeze({ ttlMs: 60_000, cacheScope: 'private' as const });

/** `skills/get` params. */
export const pmSkillsGetParamsSchema = lazy(() => z.object({ uri: z.string().min(1) }));

/** `resources/directory/read` params. */
export const pmDirectoryReadParamsSchema = lazy(() => z.object({ uri: z.string().min(1), cursor: z.string().optional() }));

/** What the extension runs over. */
export interface PmMcpSkillsExtensionOptions {
  /** The skills the server serves: loaded when the server prepares, kept in step with the workspace. */
  readonly skills: PmMcpSkillsService;
  /** PM_MCP_SKILLS_DECLARATION (default `required`, as the seed decides). */
  readonly mode?: PmSkillsDeclarationMode;
}

/** The Skills extension (see the module comment). */
export function pmMcpSkillsExtension(options: PmMcpSkillsExtensionOptions): PmMcpServerExtension {
  const mode = options.mode ?? 'required';
  const skills = options.skills;
  return {
    id: PM_SKILLS_EXTENSION_ID,
    offer: PM_MCP_SKILLS_SERVER_CAPABILITY,
    legacyOffer: true,
    prepare: () => skills.prepare(),
    changeSources: [pmMcpSkillsChangeSource(skills)],
    register: (methods) => {
      registerPmMcpSkills(methods, skills, mode);
      methods.onDrain(() => skills.stop());
    },
  };
}

function registerPmMcpSkills(methods: PmMcpMethodRegistry, skills: PmMcpSkillsService, mode: PmSkillsDeclarationMode): void {
  const gate = (ctx: McpRequestContext, method: string, directoryRead = false) => {
    assertPmMcpSkillsCapability(ctx, { method, mode, directoryRead });
    skills.watch();
    return skills.current;
  };
  const complete = (body: JsonObject, memoKey: string, cache: McpCachePolicy | null = PM_MCP_SKILLS_CACHE): McpCompleteOutcome => ({ body, memoKey, ...(cache ? { cache } : {}) });

  methods.register({
    ...PM_MCP_SKILLS_LIST_METHOD,
    params: mcpListParamsSchema,
    handle(params, ctx) {
      const registry = gate(ctx, 'skills/list');
      return complete(registry.list(params.cursor !== undefined ? { cursor: params.cursor } : {}) as unknown as JsonObject, `${registry.digest}|${params.cursor ?? ''}`);
    },
  });
  methods.register({
    ...PM_MCP_SKILLS_GET_METHOD,
    params: pmSkillsGetParamsSchema,
    handle(params, ctx) {
      const registry = gate(ctx, 'skills/get');
      return complete(registry.get(params.uri) as unknown as JsonObject, `${registry.digest}|${params.uri}`);
    },
  });
  methods.register({
    ...PM_MCP_DIRECTORY_READ_METHOD,
    params: pmDirectoryReadParamsSchema,
    handle(params, ctx) {
      const registry = gate(ctx, 'resources/directory/read', true);
      const page = registry.readDirectory(params.uri, params.cursor !== undefined ? { cursor: params.cursor } : {});
      // A directory read is a paginated result only (SEP-2640 "Directory Listing"): no cache fields.
      return complete(page as unknown as JsonObject, `${registry.digest}|${params.uri}|${params.cursor ?? ''}`, null);
    },
  });
  methods.addInterceptor({
    id: PM_SKILLS_EXTENSION_ID,
    method: 'resources/read',
    variant: () => 'skill-uris',
    intercept: async (params, ctx, next) => {
      const uri = (params as { uri: string }).uri;
      if (!isPmSkillUri(uri)) return next(params);
      const registry = gate(ctx, 'resources/read');
      return complete(registry.read(uri) as unknown as JsonObject, `${registry.digest}|${uri}`);
    },
  });
  methods.addListDecorator({
    id: PM_SKILLS_EXTENSION_ID,
    method: 'resources/list',
    variant: () => skills.current.digest,
    decorate: (items) => [...items, ...(skills.current.resources() as unknown as readonly JsonObject[])],
  });
}
