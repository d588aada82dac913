import { z } from 'zod';
import { implementationForRevision } from './envelope.js';
import type { PmMcpMethodRegistry } from './method-registry.js';
import { isPmMcpLegacyProtocolVersion } from './protocol.js';
import type { McpLegacyConnectionState, McpRequestContext } from './request-context.js';
import type { PmMcpServerDescriptor } from './server-descriptor.js';
import { lazy } from '../util/lazy.js';
import { MCP_INITIALIZE_METHOD, MCP_PING_METHOD } from './methods/core-method-specs.js';

/**
 * The legacy (initialize-era) adapter: 2025-11-25 and 2025-06-18 (seed 004 "Legacy boundary").
 * `initialize` answers with the requested revision (omitted → 2025-11-25; outside the set →
 * -32022 from the context resolver), `notifications/initialized` and `ping` exist only here,
 * results keep the legacy shapes (the envelope strips modern members). There is no session
 * id: on stdio the connection remembers what `initialize` declared for later legacy requests
 * only; nothing here is ever read by a modern request.
 */

/** `initialize` params (validated in depth by the context resolver; extra members are tolerated). */
export const mcpInitializeParamsSchema = lazy(() =>
  z.looseObject({
    protocolVersion: z.string().optional(),
    capabilities: z.record(z.string(), z.unknown()).optional(),
    clientInfo: z.record(z.string(), z.unknown()).optional(),
  })
);

/** `ping` params: nothing but an optional `_meta` (removed before parsing). */
export const mcpPingParamsSchema = lazy(() => z.looseObject({}));

/** Registers `initialize` and `ping` on the legacy path only (modern requests get -32601). */
export function registerMcpLegacyMethods(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor): void {
  methods.register({
    ...MCP_INITIALIZE_METHOD,
    params: mcpInitializeParamsSchema,
    handle(_params, ctx) {
      return {
        body: {
          protocolVersion: ctx.revision,
          capabilities: server.legacyCapabilities,
          serverInfo: implementationForRevision(server.serverInfo, ctx.revision),
          ...(server.instructions !== undefined ? { instructions: server.instructions } : {}),
        },
        memoKey: 'initialize',
      };
    },
  });
  methods.register({
    ...MCP_PING_METHOD,
    params: mcpPingParamsSchema,
    handle: () => ({ body: {}, memoKey: 'ping' }),
  });
}

/**
 * The connection state after a successful legacy `initialize` (identity and capabilities for
 * later legacy requests on the same stdio connection), or undefined for any other request.
 */
export function legacyStateAfter(ctx: McpRequestContext): McpLegacyConnectionState | undefined {
  if (ctx.era !== 'legacy' || ctx.method !== 'initialize' || !isPmMcpLegacyProtocolVersion(ctx.revision)) return undefined;
  return Object.freeze({ revision: ctx.revision, clientCapabilities: ctx.clientCapabilities, clientInfo: ctx.clientInfo });
}
