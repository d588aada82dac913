/**
 * Apps beside progressive tool discovery, registered in pm's own order (Apps, then discovery, as
 * the composition's extension list has them): a request that negotiated both sees the view
 * tools of the entry catalogue and of pm_discover's answers with the very `_meta.ui` of the
 * Apps-decorated tools/list, its canonical results still carry what each view draws (under
 * `structuredContent.result`), and its ui:// reads serve the documents. A request that
 * negotiated discovery alone sees no Apps decoration anywhere.
 */
import { MemoryAppViewAssets } from '../../../../src/adapters/memory/memory-app-view-assets.js';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { createPmMcpAppsExtension, PM_MCP_APP_CONTRACTS, PM_MCP_APP_MIME_TYPE, PM_MCP_APPS_EXTENSION_ID } from '../../../../src/domain/apps/index.js';
import { PM_CANONICAL_RESULT_POINTER, PM_DISCOVER_TOOL_NAME, PM_TOOL_DISCOVERY_EXTENSION_ID, pmMcpToolDiscoveryExtension } from '../../../../src/domain/discovery/index.js';
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { expectCleanHarness, TrackerMcpHarness } from '../../../support/mcp-tracker-harness.js';

const ASSETS = Object.fromEntries(PM_MCP_APP_CONTRACTS.map((c) => [c.view, { script: `document.title=${JSON.stringify(c.view)};`, style: 'body{margin:0}' }]));
const UI = { specVersion: '2026-01-26', mimeTypes: [PM_MCP_APP_MIME_TYPE] };
const declare = (extensions: Record<string, unknown>) => ({ 'io.modelcontextprotocol/clientCapabilities': { extensions } });
const APPS = declare({ [PM_MCP_APPS_EXTENSION_ID]: UI });
const DISCOVERY = declare({ [PM_TOOL_DISCOVERY_EXTENSION_ID]: {} });
const BOTH = declare({ [PM_MCP_APPS_EXTENSION_ID]: UI, [PM_TOOL_DISCOVERY_EXTENSION_ID]: {} });
const VIEW_TOOLS = PM_MCP_APP_CONTRACTS.map((c) => c.tool);

type Tool = { name: string; annotations?: { readOnlyHint?: boolean }; outputSchema?: unknown; _meta?: Record<string, unknown> };
type CallResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** A harness with the two extensions as pm registers them (server-extensions-module.ts). */
async function harness(profile = 'full') {
  const h = await TrackerMcpHarness.create({
    profile,
    serverExtensions: () => [createPmMcpAppsExtension({ assets: new MemoryAppViewAssets(ASSETS) }), pmMcpToolDiscoveryExtension({ hasher: new PureSha256Hasher(), profile })],
  });
  return { h, ids: await h.seed() };
}

const toolsOf = async (h: TrackerMcpHarness, meta: Record<string, unknown>) => (await h.modern('tools/list', {}, meta)).result!.tools as Tool[];
const discover = async (h: TrackerMcpHarness, args: Record<string, unknown>, meta: Record<string, unknown>) => {
  const reply = (await h.modern('tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: args }, meta)).result as CallResult;
  expect(reply.isError).toBeUndefined();
  return (reply.structuredContent!.result as { tools: Tool[] }).tools;
};
const call = async (h: TrackerMcpHarness, name: string, args: Record<string, unknown>, meta: Record<string, unknown>) => (await h.modern('tools/call', { name, arguments: args }, meta)).result as CallResult;

afterEach(() => BoundedCache.bypass(false));

describe.each([false, true])('Apps and discovery negotiated together (caches bypassed: %s)', (bypass) => {
  beforeEach(() => BoundedCache.bypass(bypass));

  test('the entry catalogue carries the _meta.ui of the Apps-decorated tools/list', async () => {
    const { h } = await harness();
    const decorated = new Map((await toolsOf(h, APPS)).map((t) => [t.name, t]));
    const entry = await toolsOf(h, BOTH);
    expect(entry.map((t) => t.name)).toEqual([PM_DISCOVER_TOOL_NAME, 'pm_context', 'pm_next', 'pm_get', 'pm_search']);
    for (const tool of entry.slice(1)) {
      const { outputSchema: _schema, ...full } = decorated.get(tool.name)!;
      expect(tool).toEqual(full);
    }
    expect(entry.filter((t) => t._meta?.['ui/resourceUri']).map((t) => t.name)).toEqual(['pm_context', 'pm_get']);
    // pm_discover is read-only and not a view tool: it carries no Apps decoration, so a view may call it.
    expect(entry[0]!._meta).toBeUndefined();
    expect(entry[0]!.annotations?.readOnlyHint).toBe(true);
    // Discovery alone: the same five tools, none decorated.
    expect((await toolsOf(h, DISCOVERY)).map((t) => t._meta)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expectCleanHarness(h);
  });

  test('pm_discover answers with the Apps decoration of every tool it returns, views and model-only tools alike', async () => {
    const { h } = await harness();
    const decorated = new Map((await toolsOf(h, APPS)).map((t) => [t.name, t]));
    const names = ['pm_list', 'pm_graph', 'pm_history', 'pm_update', 'pm_claim', 'pm_close', 'pm_validate'];
    const found = await discover(h, { names, limit: 20, tokenBudget: 16000 }, BOTH);
    expect(found.map((t) => t.name)).toEqual(names);
    for (const tool of found) expect({ name: tool.name, meta: tool._meta }).toEqual({ name: tool.name, meta: decorated.get(tool.name)!._meta });
    expect(found.filter((t) => t._meta?.['ui/resourceUri']).map((t) => t.name)).toEqual(['pm_list', 'pm_graph', 'pm_history']);
    expect(found.filter((t) => (t._meta?.ui as { visibility?: string[] } | undefined)?.visibility?.join() === 'model').map((t) => t.name)).toEqual(['pm_update', 'pm_claim', 'pm_close']);
    // The whole rest of the catalogue, by need-less listing: the same decoration for every tool.
    const rest = await discover(h, { limit: 20, tokenBudget: 16000 }, BOTH);
    expect(rest.length).toBeGreaterThan(5);
    for (const tool of rest) expect({ name: tool.name, meta: tool._meta }).toEqual({ name: tool.name, meta: decorated.get(tool.name)!._meta });
    // A need that names what a view shows finds its tool, decorated.
    const board = await discover(h, { need: 'list items as a board by status', limit: 3 }, BOTH);
    expect(board.find((t) => t.name === 'pm_list')?._meta).toEqual(decorated.get('pm_list')!._meta);
    // Discovery alone: the same answers, with no Apps decoration.
    for (const tool of await discover(h, { names, limit: 20, tokenBudget: 16000 }, DISCOVERY)) expect({ name: tool.name, meta: tool._meta }).toEqual({ name: tool.name, meta: undefined });
    // Apps first, then discovery alone, then both again: no answer leaks into another request's variant.
    expect((await discover(h, { names }, BOTH)).map((t) => t._meta)).toEqual((await discover(h, { names }, BOTH)).map((t) => t._meta));
    expect((await discover(h, { names }, DISCOVERY)).every((t) => t._meta === undefined)).toBe(true);
    expectCleanHarness(h);
  });

  test('canonical results carry under structuredContent.result exactly what each view draws', async () => {
    const { h, ids } = await harness();
    const args: Record<string, Record<string, unknown>> = { pm_context: {}, pm_list: { limit: 50 }, pm_get: { id: ids.a }, pm_graph: { id: ids.epic }, pm_history: { id: ids.a } };
    for (const tool of VIEW_TOOLS) {
      const apps = await call(h, tool, args[tool]!, APPS);
      const both = await call(h, tool, args[tool]!, BOTH);
      expect(apps.structuredContent).toBeDefined();
      expect({ tool, content: both.content, structuredContent: both.structuredContent }).toEqual({ tool, content: [{ type: 'text', text: PM_CANONICAL_RESULT_POINTER }], structuredContent: { result: apps.structuredContent } });
      // The Apps-only result keeps pm's readable text, which the view offers as its text version.
      expect(apps.content[0]!.text).not.toBe(PM_CANONICAL_RESULT_POINTER);
    }
    expectCleanHarness(h);
  });

  test('resources: the views are listed and read the same way with or without discovery', async () => {
    const { h } = await harness();
    for (const method of ['resources/list', 'resources/templates/list']) {
      const apps = await h.modern(method, {}, APPS);
      const both = await h.modern(method, {}, BOTH);
      expect(both.result).toEqual(apps.result);
    }
    for (const contract of PM_MCP_APP_CONTRACTS) {
      const apps = await h.modern('resources/read', { uri: contract.resourceUri }, APPS);
      const both = await h.modern('resources/read', { uri: contract.resourceUri }, BOTH);
      expect(both.result).toEqual(apps.result);
      expect((both.result!.contents as { mimeType: string }[])[0]!.mimeType).toBe(PM_MCP_APP_MIME_TYPE);
    }
    // Discovery alone does not open ui:// reads.
    expect((await h.modern('resources/read', { uri: PM_MCP_APP_CONTRACTS[0]!.resourceUri }, DISCOVERY)).error).toMatchObject({ code: -32021 });
    expectCleanHarness(h);
  });
});

test('the core profile: the entry catalogue and pm_discover offer the views the profile serves, decorated', async () => {
  const { h } = await harness('core');
  const decorated = new Map((await toolsOf(h, APPS)).map((t) => [t.name, t]));
  const entry = await toolsOf(h, BOTH);
  for (const tool of entry.slice(1)) expect({ name: tool.name, meta: tool._meta }).toEqual({ name: tool.name, meta: decorated.get(tool.name)!._meta });
  const found = await discover(h, { names: ['pm_list'] }, BOTH);
  expect(found.map((t) => [t.name, t._meta?.['ui/resourceUri']])).toEqual([['pm_list', 'ui://pm/board.html']]);
  expectCleanHarness(h);
});
