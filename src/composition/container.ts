import { Container } from 'inversify';
import { mcpModule } from './mcp-module.js';
import { memoryAdaptersModule } from './memory-adapters-module.js';
import { nodeAdaptersModule } from './node-adapters-module.js';
import { IDS } from './service-ids.js';
import type { Settings } from './settings.js';
import { trackerModule } from './tracker-module.js';

export type AdapterFamily = 'node' | 'memory';

/** Builds the container for one process: settings, one adapter family, the tracker. */
export async function buildContainer(settings: Settings, family: AdapterFamily = 'node'): Promise<Container> {
  const container = new Container();
  container.bind(IDS.Settings).toConstantValue(settings);
  await container.load(family === 'node' ? nodeAdaptersModule : memoryAdaptersModule, trackerModule, mcpModule);
  return container;
}

/** The root services a composition resolves (the smoke test resolves all of them). */
export const ROOT_SERVICES = [IDS.FileSystem, IDS.Clock, IDS.IdSource, IDS.Hasher, IDS.Locker, IDS.Authorizer, IDS.TrackerRoot, IDS.Tracker, IDS.TaskStore, IDS.McpServer, IDS.McpSubscriptions, IDS.McpMethods, IDS.McpDispatcher] as const;
