import { z } from 'zod';
import { buildMcpDiscoverBody } from '../discover.js';
import { registerMcpLegacyMethods } from '../legacy-adapter.js';
import { PmMcpMethodRegistry } from '../method-registry.js';
import type { PmMcpServerDescriptor } from '../server-descriptor.js';
import { registerMcpExtensions, type PmMcpServerExtension } from '../server-extension.js';
import { registerMcpCompletionMethod, registerMcpPromptMethods } from './prompt-methods.js';
import { registerMcpResourceMethods } from './resource-methods.js';
import { registerMcpToolMethods } from './tool-methods.js';
import { lazy } from '../../util/lazy.js';
import { MCP_DISCOVER_METHOD } from './core-method-specs.js';

/**
 * Assembles the generic MCP methods for a server description: `server/discover` (modern,
 * mandatory), the legacy adapter's `initialize`/`ping`, and the tools/resources/prompts/
 * completion methods for the registries the server has. A method whose capability is not
 * advertised is simply absent, so calling it is -32601 (2026-07-28 `MethodNotFoundError`).
 */

/** `server/discover` params: only `_meta` (removed before parsing). */
export const mcpDiscoverParamsSchema = lazy(() => z.looseObject({}));

/** Registers `server/discover` (modern only). */
export function registerMcpDiscoverMethod(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor): void {
  const body = Object.freeze(buildMcpDiscoverBody({ capabilities: server.capabilities, instructions: server.instructions }));
  methods.register({
    ...MCP_DISCOVER_METHOD,
    params: mcpDiscoverParamsSchema,
    handle: () => ({ body, cache: { ttlMs: server.discoverTtlMs, cacheScope: 'public' }, memoKey: 'discover' }),
  });
}

/**
 * A method registry with every generic method for `server`, then each extension's
 * registrations (their offers must already be in the server's `extensions`).
 */
export function createPmMcpMethodRegistry(server: PmMcpServerDescriptor, extensions: readonly PmMcpServerExtension[] = []): PmMcpMethodRegistry {
  const methods = new PmMcpMethodRegistry();
  registerMcpDiscoverMethod(methods, server);
  registerMcpLegacyMethods(methods, server);
  if (server.tools) registerMcpToolMethods(methods, server, server.tools);
  if (server.resources) registerMcpResourceMethods(methods, server, server.resources);
  if (server.prompts) registerMcpPromptMethods(methods, server, server.prompts);
  if (server.features.completions) registerMcpCompletionMethod(methods, server.prompts, server.resources);
  return registerMcpExtensions(methods, server, extensions);
}
