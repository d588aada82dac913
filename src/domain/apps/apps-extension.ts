import type { AppViewAssets } from '../../ports/app-view-assets.js';
import { PmMcpResourceNotFoundError } from '../errors/mcp-errors.js';
import type { McpInterceptor, McpListDecorator } from '../mcp/method-hooks.js';
import type { McpCompleteOutcome } from '../mcp/method-outcome.js';
import type { PmMcpMethodRegistry } from '../mcp/method-registry.js';
import type { McpRequestContext } from '../mcp/request-context.js';
import type { PmMcpServerDescriptor } from '../mcp/server-descriptor.js';
import type { PmMcpServerExtension } from '../mcp/server-extension.js';
import type { JsonObject, McpToolDescriptor } from '../mcp/wire-types.js';
import { lazy } from '../util/lazy.js';
import { PM_MCP_APP_CONTRACTS, PM_MCP_APPS_EXTENSION_ID, pmMcpAppContractForUri, type PmMcpAppContract } from './app-contracts.js';
import { PmMcpAppDocuments } from './app-documents.js';
import { pmMcpAppResourceContents, pmMcpAppResourceDescriptors } from './app-resources.js';
import { pmMcpAppsCapabilityError, requestNegotiatedPmMcpApps } from './apps-capability.js';
import { decoratePmMcpToolsWithApps } from './tool-decoration.js';

/**
 * The MCP Apps extension of the pm server (seed 000 "MCP Apps"; seed 004 "Skills and Apps
 * extensions"): a thin adapter over the SDK's contracts, registered like any extension.
 *
 * - `tools/list` and `resources/list` are decorated only for a request that negotiated the
 *   stable capability compatibly — a 2026-07-28 request that declared it, or a request of an
 *   initialize-era session whose `initialize` declared it (docs/decisions/005); every other
 *   request gets the undecorated lists, the very bytes a server without Apps sends (the
 *   decorators do not run for it at all).
 * - `resources/read` of a `ui://` URI is strict: a modern request without the capability gets
 *   -32021 naming what to declare; a negotiated one, the view's document. Other URIs pass
 *   through untouched. Legacy requests outside such a session are left alone entirely.
 * - Tool calls are not touched: results keep their text and structured data, and a view can
 *   only ask its host to call tools, where visibility keeps mutations model-only.
 */

/** What the extension is built from. */
export interface PmMcpAppsExtensionOptions {
  /** Where the views' built assets are read from. */
  readonly assets: AppViewAssets;
  /** The tool-to-view contracts (default: pm's five). */
  readonly contracts?: readonly PmMcpAppContract[];
}

/** The `ui://` scheme prefix every Apps resource uses. */
const UI_SCHEME = 'ui://';
/** The one variant of a negotiated request (every compatible declaration sees the same surface). */
const NEGOTIATED = 'apps';
const PLAIN = 'plain';

const negotiatedVariant = (ctx: McpRequestContext): string | undefined => (requestNegotiatedPmMcpApps(ctx) ? NEGOTIATED : undefined);

function toolsOf(server: PmMcpServerDescriptor): readonly McpToolDescriptor[] {
  return server.tools?.descriptors ?? [];
}

/**
 * Refuses contracts that would open a mutation path: a view's own tool and every drill-down
 * tool it names must be read-only wherever the server offers them.
 */
export function assertPmMcpAppContractsReadOnly(contracts: readonly PmMcpAppContract[], tools: readonly McpToolDescriptor[]): void {
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const contract of contracts) {
    for (const name of [contract.tool, ...contract.drillDown]) {
      const tool = byName.get(name);
      if (tool && tool.annotations?.readOnlyHint !== true) throw new RangeError(`the ${contract.view} view names ${name}, which is not read-only: a view may only render and drill down through read-only tools`);
    }
  }
}

/** The Apps extension over `options.assets`. */
export function createPmMcpAppsExtension(options: PmMcpAppsExtensionOptions): PmMcpServerExtension {
  const contracts = options.contracts ?? PM_MCP_APP_CONTRACTS;
  const documents = new PmMcpAppDocuments(options.assets);
  return {
    id: PM_MCP_APPS_EXTENSION_ID,
    offer: {},
    // Declared in initialize, and negotiated for an initialize-era session whose initialize declares it (docs/decisions/005).
    legacyOffer: true,
    legacySession: true,
    register(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor): void {
      // The tool catalogue is built on first use (it needs config.yaml): read it then, once.
      const offered = lazy(() => {
        const tools = toolsOf(server);
        assertPmMcpAppContractsReadOnly(contracts, tools);
        const names = tools.map((t) => t.name);
        return { names, views: contracts.filter((c) => names.includes(c.tool)) };
      });
      const toolsDecorator: McpListDecorator = {
        id: PM_MCP_APPS_EXTENSION_ID,
        method: 'tools/list',
        variant: negotiatedVariant,
        decorate: (items) => {
          offered();
          return decoratePmMcpToolsWithApps(items, contracts);
        },
      };
      const resourcesDecorator: McpListDecorator = {
        id: PM_MCP_APPS_EXTENSION_ID,
        method: 'resources/list',
        variant: negotiatedVariant,
        decorate: (items) => [...items, ...(pmMcpAppResourceDescriptors(offered().names, contracts) as unknown as readonly JsonObject[])],
      };
      const strictReads: McpInterceptor = {
        id: PM_MCP_APPS_EXTENSION_ID,
        method: 'resources/read',
        // Every modern read is looked at (an unnegotiated ui:// read must fail with -32021), and
        // every read of a legacy session that negotiated Apps; other legacy reads are left
        // alone (an unknown resource stays -32002). Non-ui:// reads are passed on unchanged.
        variant: (ctx) => (requestNegotiatedPmMcpApps(ctx) ? NEGOTIATED : ctx.era === 'modern' ? PLAIN : undefined),
        async intercept(params, ctx, next) {
          const uri = (params as { uri?: unknown }).uri;
          if (typeof uri !== 'string' || !uri.startsWith(UI_SCHEME)) return next(params);
          if (!requestNegotiatedPmMcpApps(ctx)) throw pmMcpAppsCapabilityError(uri);
          const contract = pmMcpAppContractForUri(uri, offered().views);
          if (!contract) throw new PmMcpResourceNotFoundError(uri);
          const html = await documents.document(contract);
          const outcome: McpCompleteOutcome = { body: { contents: [pmMcpAppResourceContents(contract, html)] }, cache: server.listCache, memoKey: contract.resourceUri };
          return outcome;
        },
      };
      methods.addListDecorator(toolsDecorator).addListDecorator(resourcesDecorator).addInterceptor(strictReads);
    },
  };
}
