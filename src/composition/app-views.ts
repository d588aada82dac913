import { NodeAppViewAssets } from '../adapters/node/node-app-view-assets.js';
import { createPmMcpAppsExtension } from '../domain/apps/apps-extension.js';
import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';

/**
 * Where the package keeps the built views: dist/apps/ at the package root (scripts/build.mjs
 * writes them there). Resolved from this module, two levels below the package root whether it
 * runs from src/composition, dist/composition or inside a dist/bundle script.
 */
export const PM_APP_VIEWS_DIRECTORY = new URL('../../dist/apps/', import.meta.url);

/** The package's built views (and the live board page's assets, `browser-host`). */
export function pmAppViewAssets(): NodeAppViewAssets {
  return new NodeAppViewAssets(PM_APP_VIEWS_DIRECTORY);
}

/** pm's MCP Apps extension over the package's built views (seed 000 "MCP Apps"). */
export function pmAppsExtension(): PmMcpServerExtension {
  return createPmMcpAppsExtension({ assets: pmAppViewAssets() });
}
