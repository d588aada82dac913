import type { Hasher } from '../../ports/hasher.js';
import { ValidationError } from '../errors/tracker-errors.js';
import type { McpInterceptor, McpListDecorator, McpResultShaper } from '../mcp/method-hooks.js';
import type { McpCompleteOutcome } from '../mcp/method-outcome.js';
import type { PmMcpMethodRegistry } from '../mcp/method-registry.js';
import { buildMcpToolErrorBody, buildMcpToolResultBody, type McpCallToolParams } from '../mcp/methods/tool-methods.js';
import type { McpRequestContext } from '../mcp/request-context.js';
import type { PmMcpServerDescriptor } from '../mcp/server-descriptor.js';
import type { PmMcpServerExtension } from '../mcp/server-extension.js';
import { assertDeclaredToolArguments } from '../mcp/tool-argument-guard.js';
import { assertMcpObjectSchema, type McpToolOutput } from '../mcp/tool-registry.js';
import type { JsonObject, McpToolDescriptor } from '../mcp/wire-types.js';
import { lazy } from '../util/lazy.js';
import { toPmCanonicalToolOutcome } from './canonical-result.js';
import { pmToolCatalogChangeSource, staticPmMcpToolCatalogSource, type PmMcpToolCatalogSource } from './catalog-source.js';
import { hasPmToolDiscovery, PM_DISCOVER_TOOL_NAME, PM_TOOL_DISCOVERY_EXTENSION_ID, PM_TOOL_DISCOVERY_SERVER_CAPABILITY } from './discovery-capability.js';
import { discoverPmTools } from './discover-tools.js';
import { createPmDiscoverTool, pmDiscoverToolDescriptor } from './pm-discover-tool.js';
import { PM_TOOL_DISCOVERY_ENTRY_NAMES, PM_TOOL_DISCOVERY_KEYWORDS } from './pm-discovery-catalog.js';
import type { PmMcpToolCatalog } from './tool-catalog.js';

/**
 * The progressive-tool-discovery extension (seed 004 "Decision"), plugged in by registration
 * alone. For a 2026-07-28 request that declared
 * `dev.unbrained.pm/progressive-tool-discovery`:
 * - `tools/list` is the entry catalogue: pm_discover and four everyday tools, without output
 *   schemas (a list decorator keyed by the catalogue id);
 * - `tools/call` of pm_discover answers from the catalogue (an interceptor); every other tool
 *   of the server stays callable whether or not it was listed or discovered — discovery is a
 *   view, not a permission, and the profile still bounds what exists;
 * - every tool result is canonical: its value once, as `structuredContent.result`, and a text
 *   pointer to it (a result shaper).
 * Every other request (unnegotiated 2026-07-28 requests, initialize-era requests) runs none of
 * these hooks: it gets the complete profile-selected list and the compatibility adapter's text,
 * the very bytes a server without the extension sends.
 */

/** What the extension is built from. */
export interface PmMcpToolDiscoveryExtensionOptions {
  readonly hasher: Hasher;
  /** The profile that selected the server's tools (PM_MCP_PROFILE). */
  readonly profile: string;
  /** The everyday tools of the entry catalogue, most wanted first (default pm's four). */
  readonly entry?: readonly string[];
  /** Words a need may use per tool (default pm's). */
  readonly keywords?: Readonly<Record<string, readonly string[]>>;
  /** The catalogue (default: a static one over the server's tools). A dynamic source also reports changes to listen streams. */
  readonly source?: PmMcpToolCatalogSource;
}

const ENTRY_VARIANT = 'entry';
const NEGOTIATED = 'negotiated';

/** The extension (see the module comment). */
export function pmMcpToolDiscoveryExtension(options: PmMcpToolDiscoveryExtensionOptions): PmMcpServerExtension {
  const changes = options.source ? pmToolCatalogChangeSource(options.source) : undefined;
  return {
    id: PM_TOOL_DISCOVERY_EXTENSION_ID,
    offer: PM_TOOL_DISCOVERY_SERVER_CAPABILITY,
    ...(changes ? { changeSources: [changes] } : {}),
    register: (methods, server) => registerPmToolDiscovery(methods, server, options),
  };
}

function toolsOf(server: PmMcpServerDescriptor): readonly McpToolDescriptor[] {
  return server.tools?.descriptors ?? [];
}

/** The entry catalogue of a (possibly already decorated) tools/list. */
export function pmEntryCatalog(items: readonly JsonObject[], catalog: PmMcpToolCatalog, discover: McpToolDescriptor): JsonObject[] {
  const entry = items.filter((tool) => catalog.isEntry(String(tool.name))).map(({ outputSchema: _outputSchema, ...tool }) => tool);
  return [discover as unknown as JsonObject, ...entry];
}

function argumentError(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ValidationError {
  const list = issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
  return new ValidationError(`Invalid arguments for ${PM_DISCOVER_TOOL_NAME}: ${list.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { tool: PM_DISCOVER_TOOL_NAME, issues: list });
}

function registerPmToolDiscovery(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor, options: PmMcpToolDiscoveryExtensionOptions): void {
  const source =
    options.source ??
    staticPmMcpToolCatalogSource(() => ({
      profile: options.profile,
      tools: toolsOf(server),
      entry: options.entry ?? PM_TOOL_DISCOVERY_ENTRY_NAMES,
      keywords: options.keywords ?? PM_TOOL_DISCOVERY_KEYWORDS,
      hasher: options.hasher,
    }));
  const catalog = () => source.current();
  // What this request may see of each tool: the server's descriptors with other extensions'
  // decorations for it (e.g. Apps' _meta.ui), and the key of that decoration.
  const views = new WeakMap<readonly JsonObject[], ReadonlyMap<string, McpToolDescriptor>>();
  const viewOf = (ctx: McpRequestContext) => {
    const { items, variant } = methods.decorateList('tools/list', toolsOf(server) as unknown as readonly JsonObject[], ctx);
    let byName = views.get(items);
    if (!byName) views.set(items, (byName = new Map(items.map((t) => [String(t.name), t as unknown as McpToolDescriptor]))));
    return { byName, variant };
  };
  const tool = createPmDiscoverTool((request, ctx) => {
    const view = viewOf(ctx).byName;
    return discoverPmTools(catalog(), request, { hasher: options.hasher, view: (name) => view.get(name) });
  });
  assertMcpObjectSchema(tool.inputSchema, `tool ${PM_DISCOVER_TOOL_NAME} inputSchema`);
  const descriptor = lazy(() => pmDiscoverToolDescriptor(tool));

  const entryCatalog: McpListDecorator = {
    id: PM_TOOL_DISCOVERY_EXTENSION_ID,
    method: 'tools/list',
    // Only tools/list itself shows the entry catalogue; pm_discover reads the full decorated list.
    variant: (ctx) => (hasPmToolDiscovery(ctx) && ctx.method === 'tools/list' ? `${ENTRY_VARIANT}|${catalog().id}` : undefined),
    decorate: (items) => pmEntryCatalog(items, catalog(), descriptor()),
  };
  const discoverCalls: McpInterceptor = {
    id: PM_TOOL_DISCOVERY_EXTENSION_ID,
    method: 'tools/call',
    variant: (ctx) => (hasPmToolDiscovery(ctx) ? NEGOTIATED : undefined),
    intercept: async (params, ctx, next) => {
      const call = params as McpCallToolParams;
      if (call.name !== PM_DISCOVER_TOOL_NAME) return next(params);
      assertDeclaredToolArguments(tool, call.arguments); // strict arguments, as for every tool (docs/MCP.md)
      const parsed = tool.args.safeParse(call.arguments ?? {});
      if (!parsed.success) return { body: buildMcpToolErrorBody(argumentError(parsed.error.issues)) };
      const output = (await tool.handler(parsed.data, ctx)) as McpToolOutput;
      const decoration = viewOf(ctx).variant;
      const outcome: McpCompleteOutcome = {
        body: buildMcpToolResultBody(output, ctx.era),
        // The answer is a function of the catalogue, this request's decorations and the arguments.
        ...(decoration !== undefined ? { memoKey: `${PM_DISCOVER_TOOL_NAME}|${catalog().id}|${decoration}|${JSON.stringify(call.arguments ?? {})}` } : {}),
      };
      // Result shapers shape the method's own results; this answer is the interceptor's, so it is made canonical here.
      return toPmCanonicalToolOutcome(outcome);
    },
  };
  const canonicalResults: McpResultShaper = {
    id: PM_TOOL_DISCOVERY_EXTENSION_ID,
    method: 'tools/call',
    variant: (ctx) => (hasPmToolDiscovery(ctx) ? NEGOTIATED : undefined),
    shape: (outcome) => toPmCanonicalToolOutcome(outcome),
  };
  methods.addListDecorator(entryCatalog).addInterceptor(discoverCalls).addResultShaper(canonicalResults);
}
