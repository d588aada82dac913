import { ContainerModule } from 'inversify';
import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';
import { pmAppsExtension } from './app-views.js';
import { IDS } from './service-ids.js';

/**
 * The server extensions pm itself registers on both MCP servers (seed 000: Skills and Apps;
 * seed 004: tasks, progressive tool discovery), each built from the ports it needs. The
 * process's own extra extensions (a host embedding a main) come after them.
 */
export const serverExtensionsModule = new ContainerModule(({ bind }) => {
  bind(IDS.PmExtensions)
    .toResolvedValue((): readonly PmMcpServerExtension[] => Object.freeze([pmAppsExtension()]), [])
    .inSingletonScope();
});
