import { ContainerModule } from 'inversify';
import { PmMcpDispatcher } from '../domain/mcp/dispatcher.js';
import { createPmMcpMethodRegistry } from '../domain/mcp/methods/core-methods.js';
import type { PmMcpMethodRegistry } from '../domain/mcp/method-registry.js';
import type { PmMcpServerDescriptor } from '../domain/mcp/server-descriptor.js';
import { registerMcpSubscriptionsListenMethod } from '../domain/mcp/subscriptions/listen-method.js';
import { PmMcpSubscriptionRegistry } from '../domain/mcp/subscriptions/subscription-registry.js';
import { PM_MCP_SUBSCRIPTION_SERVER_OPTIONS } from '../domain/mcp/subscriptions/index.js';
import { PmMcpTrackerChangeSource } from '../domain/mcp-tracker/tracker-change-source.js';
import { createPmTrackerMcpServer } from '../domain/mcp-tracker/tracker-server.js';
import type { Tracker } from '../domain/tracker/tracker.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import { pmServerInfo } from './package-info.js';
import { IDS } from './service-ids.js';
import type { Settings } from './settings.js';

/**
 * The MCP server over the tracker, shared by pm-mcp (stdio) and pm-mcp-http: the server
 * description (profile-selected tools, resources, prompts, subscription support), the method
 * registry with subscriptions/listen installed, and the one dispatcher (DEVELOPERS.md rule 7).
 */
export const mcpModule = new ContainerModule(({ bind }) => {
  bind(IDS.McpServer)
    .toResolvedValue(
      (tracker: Tracker, fs: FileSystem, s: Settings) =>
        createPmTrackerMcpServer({
          tracker,
          fs,
          ...(s.mcpProfile !== undefined ? { profile: s.mcpProfile } : {}),
          ...(s.mcpTools !== undefined ? { tools: s.mcpTools } : {}),
          defaultActor: s.actor,
          serverInfo: pmServerInfo(),
          ...PM_MCP_SUBSCRIPTION_SERVER_OPTIONS,
        }),
      [IDS.Tracker, IDS.FileSystem, IDS.Settings],
    )
    .inSingletonScope();
  bind(IDS.McpSubscriptions)
    .toResolvedValue(
      (server: PmMcpServerDescriptor, clock: Clock, fs: FileSystem, tracker: Tracker) =>
        new PmMcpSubscriptionRegistry(server, clock, [new PmMcpTrackerChangeSource(fs, clock, tracker.paths.items)]),
      [IDS.McpServer, IDS.Clock, IDS.FileSystem, IDS.Tracker],
    )
    .inSingletonScope();
  bind(IDS.McpMethods)
    .toResolvedValue(
      (server: PmMcpServerDescriptor, subscriptions: PmMcpSubscriptionRegistry) => {
        const methods = createPmMcpMethodRegistry(server);
        registerMcpSubscriptionsListenMethod(methods, subscriptions);
        return methods;
      },
      [IDS.McpServer, IDS.McpSubscriptions],
    )
    .inSingletonScope();
  bind(IDS.McpDispatcher)
    .toResolvedValue(
      (server: PmMcpServerDescriptor, methods: PmMcpMethodRegistry) =>
        new PmMcpDispatcher(server, methods, {
          onInternalError: (error, where) => process.stderr.write(`pm-mcp: internal error in ${where.method}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
        }),
      [IDS.McpServer, IDS.McpMethods],
    )
    .inSingletonScope();
});
