import { z } from 'zod';
import { PmMcpLegacyDisabledError } from '../errors/mcp-errors.js';
import { implementationForRevision } from './envelope.js';
import type { PmMcpMethodRegistry } from './method-registry.js';
import { isPmMcpLegacyProtocolVersion, MCP_LOG_LEVELS, PM_MCP_PROTOCOL_VERSION, type McpLogLevel } from './protocol.js';
import type { McpLegacyConnectionState, McpRequestContext } from './request-context.js';
import type { PmMcpServerDescriptor } from './server-descriptor.js';
import { lazy } from '../util/lazy.js';
import { MCP_INITIALIZE_METHOD, MCP_LOGGING_SET_LEVEL_METHOD, MCP_PING_METHOD } from './methods/core-method-specs.js';

/**
 * The legacy (initialize-era) adapter: 2025-11-25 and 2025-06-18 (seed 004 "Legacy boundary").
 * `initialize` answers with the requested revision (omitted → 2025-11-25; outside the set →
 * -32022 from the context resolver), `notifications/initialized` and `ping` exist only here,
 * results keep the legacy shapes (the envelope strips modern members). When the server declares
 * legacy logging, `logging/setLevel` exists here too (2025-11-25 `server/utilities/logging`):
 * on stdio the connection remembers the level for its later legacy requests; over sessionless
 * HTTP each POST is its own connection, so the level covers only that exchange. On stdio the
 * connection remembers what `initialize` declared for later legacy requests only; over HTTP the
 * client echoes the sealed `Mcp-Session-Id` that carries it (http/legacy-session.ts). Nothing
 * here is ever read by a modern request.
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

/** `logging/setLevel` params: the `LoggingLevel` (anything else is -32602). */
export const mcpSetLevelParamsSchema = lazy(() => z.looseObject({ level: z.enum(MCP_LOG_LEVELS) }));

/** The `logger` name of the messages the legacy adapter itself emits. */
export const PM_MCP_LEGACY_LOGGER = 'pm.legacy';

/**
 * Registers `initialize` and `ping` (and `logging/setLevel` when the server declares legacy
 * logging) on the legacy path only (modern requests get -32601).
 */
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
  if (server.legacyCapabilities.logging) {
    methods.register({
      ...MCP_LOGGING_SET_LEVEL_METHOD,
      params: mcpSetLevelParamsSchema,
      handle(params, ctx) {
        // The deprecation notice travels at `notice`, so a client asking for warnings and above is not told.
        ctx.notify.log('notice', { message: `logging/setLevel is legacy compatibility (${ctx.revision}); MCP ${PM_MCP_PROTOCOL_VERSION} clients set io.modelcontextprotocol/logLevel on each request`, level: params.level }, PM_MCP_LEGACY_LOGGER);
        return { body: {} };
      },
    });
  }
}

/** How a dispatcher treats initialize-era requests (seed 004 "Rollout, rollback, and proof"). */
export interface PmMcpLegacyPolicy {
  /** False: the adapter is off and every legacy request is refused with -32022. */
  readonly enabled: boolean;
  /** What the refusal tells the client's operator to do to turn it back on (e.g. the setting's name). */
  readonly howToEnable?: string;
}

/** The legacy adapter on: the default of every dispatcher. */
export const PM_MCP_LEGACY_ON: PmMcpLegacyPolicy = Object.freeze({ enabled: true });

/**
 * The refusal of one legacy request while the adapter is off: the revision it asked for (the
 * initialize `protocolVersion`, a legacy `MCP-Protocol-Version` header, or `unversioned`), the
 * modern revision to use instead, and how the operator re-enables the adapter.
 */
export function legacyDisabledError(message: { readonly method: string; readonly params?: Readonly<Record<string, unknown>> }, headerVersion: string | undefined, policy: PmMcpLegacyPolicy): PmMcpLegacyDisabledError {
  const asked = message.method === 'initialize' ? message.params?.protocolVersion : headerVersion;
  const requested = typeof asked === 'string' && asked !== '' ? asked : 'unversioned';
  const how = policy.howToEnable ? `; the operator re-enables it with ${policy.howToEnable}` : '';
  return new PmMcpLegacyDisabledError(
    requested,
    [PM_MCP_PROTOCOL_VERSION],
    `The legacy (initialize-era) MCP adapter is turned off on this server: send MCP ${PM_MCP_PROTOCOL_VERSION} requests with per-request _meta (io.modelcontextprotocol/protocolVersion) instead of ${message.method === 'initialize' ? 'initialize' : `a ${requested} request`}${how}`,
  );
}

/** The level a successful legacy `logging/setLevel` leaves in effect on its connection, or undefined for any other request. */
export function legacyLogLevelAfter(ctx: McpRequestContext): McpLogLevel | undefined {
  return ctx.era === 'legacy' && ctx.method === 'logging/setLevel' ? ctx.logLevel : undefined;
}

/**
 * The connection state after a successful legacy `initialize` (identity and capabilities for
 * later legacy requests on the same stdio connection), or undefined for any other request.
 */
export function legacyStateAfter(ctx: McpRequestContext): McpLegacyConnectionState | undefined {
  if (ctx.era !== 'legacy' || ctx.method !== 'initialize' || !isPmMcpLegacyProtocolVersion(ctx.revision)) return undefined;
  return Object.freeze({ revision: ctx.revision, clientCapabilities: ctx.clientCapabilities, clientInfo: ctx.clientInfo });
}
