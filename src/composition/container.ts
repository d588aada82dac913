import { Container, ContainerModule } from 'inversify';
import { ConfiguredMacKeyStore } from '../adapters/memory/configured-mac-key-store.js';
import { BoundedCache } from '../domain/util/bounded-cache.js';
import type { Clock } from '../ports/clock.js';
import type { Hasher } from '../ports/hasher.js';
import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';
import type { Telemetry } from '../ports/telemetry.js';
import { mcpModule } from './mcp-module.js';
import { memoryAdaptersModule } from './memory-adapters-module.js';
import { fileTaskStoresModule, localAuthorizationModule, nodeAdaptersModule } from './node-adapters-module.js';
import { postgresTaskStoresModule } from './postgres-module.js';
import { stderrLog, type ProcessLog } from './process-log.js';
import { serverExtensionsModule } from './server-extensions-module.js';
import { pmPackageSkillsDir } from './skills-composition.js';
import { IDS, type TrackerIndexMode } from './service-ids.js';
import type { Settings } from './settings.js';
import { trackerModule } from './tracker-module.js';

export type AdapterFamily = 'node' | 'memory';

/** What one process adds to the common graph. */
export interface ContainerOptions {
  /** Where diagnostics go (default: stderr, as `pm`). */
  readonly log?: ProcessLog;
  /** The server extensions to register (Skills, Apps, …). */
  readonly extensions?: readonly PmMcpServerExtension[];
  /** The module binding IDS.Authorizer for the node family (default: the local authorizer). */
  readonly authorization?: ContainerModule;
  /** The process's own modules (its transport, its constants). */
  readonly modules?: readonly ContainerModule[];
  /**
   * How the tracker follows its files (default: check every file before each query, as a
   * one-shot process must; long-lived servers watch).
   */
  readonly index?: TrackerIndexMode;
  /** OpenTelemetry (createOtelTelemetry), when the settings turned it on. */
  readonly telemetry?: Telemetry;
  /** Write `mcp-usage` lines to the log (pm-mcp-http; pm-mcp keeps stderr quiet for its host). */
  readonly usageLog?: boolean;
}

/**
 * Builds the whole graph of one process in one step: settings, one adapter family, the
 * tracker, the MCP server, and what the process adds. Nothing is bound after this returns.
 * `PM_CACHES=off` turns every bounded cache of the process off here, before anything is served
 * (each process composes one graph; docs/ARCHITECTURE.md "Speed-ups and what they buy").
 */
export async function buildContainer(settings: Settings, family: AdapterFamily = 'node', options: ContainerOptions = {}): Promise<Container> {
  if (settings.caches === 'off') BoundedCache.bypass(true);
  const container = new Container();
  const base = new ContainerModule(({ bind }) => {
    bind(IDS.Settings).toConstantValue(settings);
    bind(IDS.Log).toConstantValue(options.log ?? stderrLog('pm'));
    bind(IDS.McpExtensions).toConstantValue(Object.freeze([...(options.extensions ?? [])]));
    bind(IDS.PackageSkillsDir).toConstantValue(family === 'node' ? pmPackageSkillsDir() : undefined);
    bind(IDS.TrackerIndexMode).toConstantValue(options.index ?? { follow: 'check' });
    bind(IDS.Telemetry).toConstantValue(options.telemetry);
    bind(IDS.UsageLog).toConstantValue(options.usageLog ?? false);
  });
  // The task stores follow PM_MCP_TASK_STORE: the runtime area's files, or a shared PostgreSQL.
  const stores = settings.taskStore === 'file' ? fileTaskStoresModule : postgresTaskStoresModule;
  const adapters = family === 'node' ? [nodeAdaptersModule, stores, options.authorization ?? localAuthorizationModule] : [memoryAdaptersModule];
  await container.load(base, ...adapters, trackerModule, serverExtensionsModule, mcpModule, ...(options.modules ?? []));
  const macKeys = settings.macKeys;
  if (macKeys) {
    // PM_MCP_MAC_KEYS: every instance seals and verifies with the configured keys, whatever its task store.
    await container.unbind(IDS.MacKeyStore);
    container
      .bind(IDS.MacKeyStore)
      .toResolvedValue((hasher: Hasher, clock: Clock) => new ConfiguredMacKeyStore(hasher, macKeys, clock.now()), [IDS.Hasher, IDS.Clock])
      .inSingletonScope();
  }
  return container;
}

/** The root services a composition resolves (the smoke test resolves all of them). */
export const ROOT_SERVICES = [
  IDS.FileSystem,
  IDS.Clock,
  IDS.IdSource,
  IDS.Hasher,
  IDS.Locker,
  IDS.Authorizer,
  IDS.TrackerRoot,
  IDS.ItemIndex,
  IDS.Tracker,
  IDS.ReadyTracker,
  IDS.TaskStore,
  IDS.TaskWorkers,
  IDS.TaskService,
  IDS.McpServer,
  IDS.McpSubscriptions,
  IDS.McpMethods,
  IDS.McpDispatcher,
] as const;
