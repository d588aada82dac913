import { ContainerModule } from 'inversify';
import { PmMcpDispatcher } from '../domain/mcp/dispatcher.js';
import { createPmMcpMethodRegistry } from '../domain/mcp/methods/core-methods.js';
import type { PmMcpMethodRegistry } from '../domain/mcp/method-registry.js';
import type { PmMcpServerDescriptor } from '../domain/mcp/server-descriptor.js';
import { mcpExtensionOffers, mcpLegacyExtensionIds, mcpLegacySessionExtensionIds, prepareMcpExtensions, type PmMcpServerExtension } from '../domain/mcp/server-extension.js';
import { PM_MCP_SUBSCRIPTION_SERVER_OPTIONS } from '../domain/mcp/subscriptions/index.js';
import { mcpSubscriptionsExtension } from '../domain/mcp/subscriptions/listen-method.js';
import { PmMcpSubscriptionRegistry } from '../domain/mcp/subscriptions/subscription-registry.js';
import { PmMcpTrackerChangeSource } from '../domain/mcp-tracker/tracker-change-source.js';
import { PmMcpSharedChangeSource } from '../domain/mcp-tracker/shared-change-source.js';
import { PmMcpLeaseExpirySource } from '../domain/mcp-tracker/lease-expiry-source.js';
import type { ChangeBus } from '../ports/change-bus.js';
import { createPmTrackerMcpServer } from '../domain/mcp-tracker/tracker-server.js';
import type { Tracker } from '../domain/tracker/tracker.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { Hasher } from '../ports/hasher.js';
import type { IdSource } from '../ports/id-source.js';
import type { MacKeyStore } from '../ports/mac-key-store.js';
import type { ReplayLedger } from '../ports/replay-ledger.js';
import { PmMcpRequestStateSealer } from '../domain/mcp/interaction/request-state.js';
import type { McpRequestObserver } from '../domain/mcp/request-observer.js';
import { McpTracingObserver } from '../domain/telemetry/mcp-tracing-observer.js';
import { McpRequestSpans } from '../domain/telemetry/request-spans.js';
import { traceTracker } from '../domain/telemetry/traced-tracker.js';
import { McpUsageCounter, type McpUsageRow } from '../domain/telemetry/usage-counter.js';
import { formatMcpUsageLine } from '../domain/telemetry/usage-log.js';
import type { Telemetry } from '../ports/telemetry.js';
import { pmServerInfo } from './package-info.js';
import type { ProcessLog } from './process-log.js';
import { IDS } from './service-ids.js';
import type { Settings } from './settings.js';

/** This server process in its usage lines: pid and start time (several servers may write one log). */
export const PM_SERVER_RUN = `${process.pid}@${new Date().toISOString()}`;

/**
 * The MCP server over the tracker, shared by pm-mcp (stdio) and pm-mcp-http: the server
 * description (profile-selected tools, resources, prompts, subscription support, the offers of
 * the process's extensions), the method registry with subscriptions/listen and every extension
 * registered, and the one dispatcher for both transports.
 */
export const mcpModule = new ContainerModule(({ bind }) => {
  bind(IDS.McpServer)
    .toResolvedValue(
      (tracker: Tracker, fs: FileSystem, s: Settings, own: readonly PmMcpServerExtension[], extra: readonly PmMcpServerExtension[], telemetry: Telemetry | undefined, spans: McpRequestSpans | undefined) =>
        createPmTrackerMcpServer({
          tracker,
          // Tracing on: each traced request's tracker operations are child spans of its span.
          ...(telemetry && spans ? { trackerFor: traceTracker(tracker, telemetry, spans) } : {}),
          fs,
          ...(s.mcpProfile !== undefined ? { profile: s.mcpProfile } : {}),
          ...(s.mcpTools !== undefined ? { tools: s.mcpTools } : {}),
          defaultActor: s.actor,
          serverInfo: pmServerInfo(),
          extensions: mcpExtensionOffers([...own, ...extra]),
          legacyExtensions: mcpLegacyExtensionIds([...own, ...extra]),
          legacySessionExtensions: mcpLegacySessionExtensionIds([...own, ...extra]),
          legacyLogging: true,
          prepare: () => prepareMcpExtensions([...own, ...extra]),
          ...PM_MCP_SUBSCRIPTION_SERVER_OPTIONS,
        }),
      [IDS.Tracker, IDS.FileSystem, IDS.Settings, IDS.PmExtensions, IDS.McpExtensions, IDS.Telemetry, IDS.McpRequestSpans],
    )
    .inSingletonScope();
  bind(IDS.McpRequestSpans)
    .toResolvedValue((telemetry: Telemetry | undefined, s: Settings) => (telemetry && s.otel.traces ? new McpRequestSpans() : undefined), [IDS.Telemetry, IDS.Settings])
    .inSingletonScope();
  bind(IDS.McpSubscriptions)
    .toResolvedValue(
      (server: PmMcpServerDescriptor, clock: Clock, fs: FileSystem, tracker: Tracker, own: readonly PmMcpServerExtension[], extra: readonly PmMcpServerExtension[], bus: ChangeBus | undefined) => {
        const files = new PmMcpTrackerChangeSource(fs, clock, tracker.paths.items);
        // Several instances: what the others announce, merged with the file watch (CLI writes).
        const shared = bus ? new PmMcpSharedChangeSource(files, bus) : files;
        // Lease expiries write no file: this instance's own timer tells them (never announced on the bus).
        const items = new PmMcpLeaseExpirySource(shared, () => tracker.claimLeases(), clock);
        return new PmMcpSubscriptionRegistry(server, clock, [items, ...[...own, ...extra].flatMap((extension) => extension.changeSources ?? [])]);
      },
      [IDS.McpServer, IDS.Clock, IDS.FileSystem, IDS.Tracker, IDS.PmExtensions, IDS.McpExtensions, IDS.ChangeBus],
    )
    .inSingletonScope();
  bind(IDS.McpMethods)
    .toResolvedValue(
      (server: PmMcpServerDescriptor, subscriptions: PmMcpSubscriptionRegistry, own: readonly PmMcpServerExtension[], extra: readonly PmMcpServerExtension[]) =>
        createPmMcpMethodRegistry(server, [mcpSubscriptionsExtension(subscriptions), ...own, ...extra]),
      [IDS.McpServer, IDS.McpSubscriptions, IDS.PmExtensions, IDS.McpExtensions],
    )
    .inSingletonScope();
  bind(IDS.RequestStates)
    .toResolvedValue(
      (hasher: Hasher, clock: Clock, ids: IdSource, keys: MacKeyStore, replays: ReplayLedger) => new PmMcpRequestStateSealer({ hasher, clock, ids, keys, replays }),
      [IDS.Hasher, IDS.Clock, IDS.IdSource, IDS.MacKeyStore, IDS.ReplayLedger],
    )
    .inSingletonScope();
  bind(IDS.McpUsage)
    .toResolvedValue(
      (log: ProcessLog, telemetry: Telemetry | undefined, usageLog: boolean) =>
        new McpUsageCounter({ ...(usageLog ? { onFirstSeen: (row: McpUsageRow) => log.line(formatMcpUsageLine(PM_SERVER_RUN, row)) } : {}), ...(telemetry ? { telemetry } : {}) }),
      [IDS.Log, IDS.Telemetry, IDS.UsageLog],
    )
    .inSingletonScope();
  bind(IDS.McpObservers)
    .toResolvedValue(
      (usage: McpUsageCounter, telemetry: Telemetry | undefined, s: Settings, spans: McpRequestSpans | undefined) =>
        Object.freeze([...(telemetry && spans ? [new McpTracingObserver(telemetry, { captureContent: s.otel.captureContent, spans })] : []), usage]),
      [IDS.McpUsage, IDS.Telemetry, IDS.Settings, IDS.McpRequestSpans],
    )
    .inSingletonScope();
  bind(IDS.McpDispatcher)
    .toResolvedValue(
      (server: PmMcpServerDescriptor, methods: PmMcpMethodRegistry, log: ProcessLog, requestStates: PmMcpRequestStateSealer, s: Settings, observers: readonly McpRequestObserver[]) =>
        new PmMcpDispatcher(server, methods, {
          requestStates,
          onInternalError: (error, where) => log.error(`internal error in ${where.method}`, error),
          legacy: { enabled: s.legacyAdapter === 'on', howToEnable: 'PM_MCP_LEGACY=on' },
          observers,
        }),
      [IDS.McpServer, IDS.McpMethods, IDS.Log, IDS.RequestStates, IDS.Settings, IDS.McpObservers],
    )
    .inSingletonScope();
});
