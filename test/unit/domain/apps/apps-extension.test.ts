/**
 * The Apps extension over the real dispatcher and the tracker server (seed 000 "MCP Apps"):
 * negotiated requests see the five views; unnegotiated, incompatible and legacy requests see
 * exactly the surface of a server without Apps; `ui://` reads are strict.
 */
import { MemoryAppViewAssets } from '../../../../src/adapters/memory/memory-app-view-assets.js';
import {
  createPmMcpAppsExtension,
  PM_MCP_APP_CONTRACTS,
  PM_MCP_APP_MIME_TYPE,
  PM_MCP_APPS_CLIENT_CAPABILITY,
  PM_MCP_APPS_EXTENSION_ID,
} from '../../../../src/domain/apps/index.js';
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { expectCleanHarness, TrackerMcpHarness, type Message } from '../../../support/mcp-tracker-harness.js';

const ASSETS = Object.fromEntries(PM_MCP_APP_CONTRACTS.map((c) => [c.view, { script: `document.title=${JSON.stringify(c.view)};`, style: 'body{margin:0}' }]));
const capabilities = (ui: unknown) => ({ 'io.modelcontextprotocol/clientCapabilities': { extensions: { [PM_MCP_APPS_EXTENSION_ID]: ui } } });
const NEGOTIATED = capabilities({ specVersion: '2026-01-26', mimeTypes: [PM_MCP_APP_MIME_TYPE] });
const INCOMPATIBLE = {
  'another spec version': capabilities({ specVersion: '2025-11-21', mimeTypes: [PM_MCP_APP_MIME_TYPE] }),
  'no mime types': capabilities({ specVersion: '2026-01-26' }),
  'another mime type': capabilities({ specVersion: '2026-01-26', mimeTypes: ['text/html'] }),
  'mime types not a list': capabilities({ specVersion: '2026-01-26', mimeTypes: PM_MCP_APP_MIME_TYPE }),
  'an empty declaration': capabilities({}),
};

async function harnesses(profile = 'full') {
  const assets = new MemoryAppViewAssets(ASSETS);
  const apps = await TrackerMcpHarness.create({ profile, serverExtensions: () => [createPmMcpAppsExtension({ assets })] });
  const plain = await TrackerMcpHarness.create({ profile });
  await apps.seed();
  await plain.seed();
  return { apps, plain, assets };
}

/** A response as bytes without its id (the two harnesses number their requests alike, but say so). */
const bytes = (message: Message) => JSON.stringify({ ...message, id: 0 });

type Tool = { name: string; annotations?: { readOnlyHint?: boolean }; _meta?: Record<string, unknown> };

describe('negotiated tools/list', () => {
  test('the five view tools carry their ui:// resource, mutating tools are model-only, the rest is untouched', async () => {
    const { apps, plain } = await harnesses();
    const decorated = (await apps.modern('tools/list', {}, NEGOTIATED)).result!.tools as Tool[];
    const original = (await plain.modern('tools/list')).result!.tools as Tool[];
    expect(decorated.map((t) => t.name)).toEqual(original.map((t) => t.name));
    for (const [index, tool] of decorated.entries()) {
      const view = PM_MCP_APP_CONTRACTS.find((c) => c.tool === tool.name);
      const { _meta, ...rest } = tool;
      const { _meta: originalMeta, ...originalRest } = original[index]!;
      expect(rest).toEqual(originalRest);
      expect(originalMeta).toBeUndefined();
      if (view) expect(_meta).toEqual({ ui: { resourceUri: view.resourceUri, visibility: ['model', 'app'] }, 'ui/resourceUri': view.resourceUri });
      else if (tool.annotations?.readOnlyHint !== true) expect(_meta).toEqual({ ui: { visibility: ['model'] } });
      else expect(_meta).toBeUndefined();
    }
    expect(decorated.filter((t) => (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri).map((t) => t.name)).toEqual(['pm_context', 'pm_list', 'pm_get', 'pm_graph', 'pm_history']);
    // Every tool a view may reach through its host is read-only.
    const reachable = decorated.filter((t) => ((t._meta?.ui as { visibility?: string[] } | undefined)?.visibility ?? ['model', 'app']).includes('app'));
    expect(reachable.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(reachable.length).toBeGreaterThanOrEqual(5);
    expectCleanHarness(apps);
  });

  test('a profile without pm_graph and pm_history decorates and lists only the views it can serve', async () => {
    const { apps } = await harnesses('core');
    const tools = (await apps.modern('tools/list', {}, NEGOTIATED)).result!.tools as Tool[];
    expect(tools.filter((t) => t._meta?.['ui/resourceUri']).map((t) => t.name)).toEqual(['pm_context', 'pm_list', 'pm_get']);
    const resources = (await apps.modern('resources/list', {}, NEGOTIATED)).result!.resources as { uri: string }[];
    expect(resources.map((r) => r.uri).filter((u) => u.startsWith('ui://'))).toEqual(['ui://pm/context.html', 'ui://pm/board.html', 'ui://pm/item.html']);
    const graph = await apps.modern('resources/read', { uri: 'ui://pm/graph.html' }, NEGOTIATED);
    expect(graph.error).toMatchObject({ code: -32602, data: { uri: 'ui://pm/graph.html' } });
    expectCleanHarness(apps);
  });
});

describe('requests without a compatible declaration', () => {
  test.each(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'])('%s: unnegotiated and every incompatible declaration get the bytes of a server without Apps', async (method) => {
    const { apps, plain } = await harnesses();
    const expected = bytes(await plain.modern(method));
    expect(bytes(await apps.modern(method))).toBe(expected);
    for (const [label, meta] of Object.entries(INCOMPATIBLE)) expect({ label, bytes: bytes(await apps.modern(method, {}, meta)) }).toEqual({ label, bytes: expected });
    expectCleanHarness(apps);
  });

  test('memoized lists never cross between negotiated and plain requests, in either order, with caches on or off', async () => {
    for (const bypass of [false, true]) {
      BoundedCache.bypass(bypass);
      try {
        for (const first of ['plain', 'negotiated'] as const) {
          const { apps, plain } = await harnesses();
          const expected = bytes(await plain.modern('tools/list'));
          const order = first === 'plain' ? [{}, NEGOTIATED, {}, NEGOTIATED] : [NEGOTIATED, {}, NEGOTIATED, {}];
          for (const meta of order) {
            const reply = bytes(await apps.modern('tools/list', {}, meta));
            if (meta === NEGOTIATED) expect(reply).toContain('ui://pm/board.html');
            else expect(reply).toBe(expected);
          }
        }
      } finally {
        BoundedCache.bypass(false);
      }
    }
  });

  test('legacy requests keep their surface: undecorated lists, and a ui:// read is simply not found', async () => {
    const { apps, plain } = await harnesses();
    await apps.initialize();
    await plain.initialize();
    for (const method of ['tools/list', 'resources/list']) expect(bytes(await apps.legacy(method))).toBe(bytes(await plain.legacy(method)));
    const read = await apps.legacy('resources/read', { uri: 'ui://pm/board.html' });
    expect(read.error).toMatchObject({ code: -32002 });
    expectCleanHarness(apps);
  });

  test('a legacy session whose initialize declares Apps has negotiated it for the session (docs/decisions/005)', async () => {
    const { apps } = await harnesses();
    const declaration = { mimeTypes: [PM_MCP_APP_MIME_TYPE] };
    const init = await apps.legacy('initialize', { protocolVersion: '2025-11-25', capabilities: { extensions: { [PM_MCP_APPS_EXTENSION_ID]: declaration } }, clientInfo: { name: 'apps-host', version: '1' } });
    // The server declares the extension in initialize too.
    expect((init.result!.capabilities as { extensions?: object }).extensions).toEqual({ [PM_MCP_APPS_EXTENSION_ID]: {} });
    const legacyTools = (await apps.legacy('tools/list')).result!.tools as Tool[];
    const modernTools = (await apps.modern('tools/list', {}, NEGOTIATED)).result!.tools as Tool[];
    expect(legacyTools).toEqual(modernTools);
    const listed = (await apps.legacy('resources/list')).result!.resources as { uri: string; mimeType?: string }[];
    expect(listed.filter((r) => r.uri.startsWith('ui://')).map((r) => r.mimeType)).toEqual(PM_MCP_APP_CONTRACTS.map(() => PM_MCP_APP_MIME_TYPE));
    for (const contract of PM_MCP_APP_CONTRACTS) {
      const read = await apps.legacy('resources/read', { uri: contract.resourceUri });
      const content = (read.result!.contents as { uri: string; mimeType: string; text: string }[])[0]!;
      expect(content).toMatchObject({ uri: contract.resourceUri, mimeType: PM_MCP_APP_MIME_TYPE });
      expect(content.text).toContain(`document.title=${JSON.stringify(contract.view)}`);
      // Legacy shapes: no modern envelope members.
      expect(read.result).not.toHaveProperty('resultType');
    }
    // An unknown view is the legacy resource-not-found.
    expect((await apps.legacy('resources/read', { uri: 'ui://pm/nope.html' })).error).toMatchObject({ code: -32002, data: { uri: 'ui://pm/nope.html' } });
    // Modern requests on the same connection stay request-local: no declaration, no views.
    expect((await apps.modern('resources/read', { uri: 'ui://pm/board.html' })).error).toMatchObject({ code: -32021 });
    expectCleanHarness(apps);
  });

  test.each(Object.entries(INCOMPATIBLE))('a legacy session whose initialize declares Apps incompatibly (%s) keeps the legacy surface', async (_name, meta) => {
    const { apps, plain } = await harnesses();
    const declared = meta['io.modelcontextprotocol/clientCapabilities'];
    await apps.legacy('initialize', { protocolVersion: '2025-11-25', capabilities: declared, clientInfo: { name: 'legacy-client', version: '1.0.0' } });
    await plain.initialize();
    for (const method of ['tools/list', 'resources/list']) expect(bytes(await apps.legacy(method))).toBe(bytes(await plain.legacy(method)));
    expect((await apps.legacy('resources/read', { uri: 'ui://pm/board.html' })).error).toMatchObject({ code: -32002 });
  });

  test('tool results are the same with and without the declaration: text and structured data', async () => {
    const { apps } = await harnesses();
    for (const name of ['pm_context', 'pm_list']) {
      const negotiated = await apps.modern('tools/call', { name, arguments: {} }, NEGOTIATED);
      const unnegotiated = await apps.modern('tools/call', { name, arguments: {} });
      expect(bytes(negotiated)).toBe(bytes(unnegotiated));
      const result = negotiated.result as { content: { type: string; text: string }[]; structuredContent: object };
      expect(result.content[0]!.text.length).toBeGreaterThan(10);
      expect(result.structuredContent).toEqual(expect.any(Object));
    }
    expectCleanHarness(apps);
  });
});

describe('ui:// resources', () => {
  test('negotiated resources/list appends the views with their MIME type and _meta.ui', async () => {
    const { apps, plain } = await harnesses();
    const listed = (await apps.modern('resources/list', {}, NEGOTIATED)).result!.resources as Record<string, unknown>[];
    const original = (await plain.modern('resources/list')).result!.resources as Record<string, unknown>[];
    const views = listed.filter((r) => String(r.uri).startsWith('ui://'));
    expect(listed.filter((r) => !String(r.uri).startsWith('ui://'))).toEqual(original);
    expect(views).toEqual(
      PM_MCP_APP_CONTRACTS.map((c) => ({
        uri: c.resourceUri,
        name: c.name,
        title: c.title,
        description: c.description,
        mimeType: 'text/html;profile=mcp-app',
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
      })),
    );
    expectCleanHarness(apps);
  });

  test('a negotiated read returns the view document with the MIME type and _meta.ui on the content item', async () => {
    const { apps, assets } = await harnesses();
    for (const contract of PM_MCP_APP_CONTRACTS) {
      const reply = await apps.modern('resources/read', { uri: contract.resourceUri }, NEGOTIATED);
      const contents = (reply.result as { contents: { uri: string; mimeType: string; text: string; _meta: unknown }[] }).contents;
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri: contract.resourceUri, mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } });
      expect(contents[0]!.text).toMatch(/^<!DOCTYPE html>/);
      expect(contents[0]!.text).toContain(`document.title=${JSON.stringify(contract.view)};`);
      expect(reply.result).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
      // A second read is served from the rendered document: the assets are read once per view.
      await apps.modern('resources/read', { uri: contract.resourceUri }, NEGOTIATED);
      expect(assets.reads.get(contract.view)).toBe(1);
    }
    expectCleanHarness(apps);
  });

  test('without the capability a ui:// read fails closed with -32021 naming the declaration', async () => {
    const { apps, assets } = await harnesses();
    for (const meta of [{}, ...Object.values(INCOMPATIBLE)]) {
      const reply = await apps.modern('resources/read', { uri: 'ui://pm/board.html' }, meta);
      expect(reply.error).toMatchObject({ code: -32021, data: { requiredCapabilities: PM_MCP_APPS_CLIENT_CAPABILITY } });
      expect(reply.error!.message).toContain('io.modelcontextprotocol/ui');
      // Any ui:// URI, known or not, is refused the same way.
      expect((await apps.modern('resources/read', { uri: 'ui://elsewhere/x.html' }, meta)).error).toMatchObject({ code: -32021 });
    }
    expect(assets.reads.size).toBe(0);
    expectCleanHarness(apps);
  });

  test('an unknown ui:// URI is not found; other URIs read as before', async () => {
    const { apps, plain } = await harnesses();
    expect((await apps.modern('resources/read', { uri: 'ui://pm/nothing.html' }, NEGOTIATED)).error).toMatchObject({ code: -32602, data: { uri: 'ui://pm/nothing.html' } });
    for (const meta of [{}, NEGOTIATED]) expect(bytes(await apps.modern('resources/read', { uri: 'pm://context' }, meta))).toBe(bytes(await plain.modern('resources/read', { uri: 'pm://context' })));
    expectCleanHarness(apps);
  });

  test('an installation without built views answers a view read with -32603 and tries again next time', async () => {
    const assets = new MemoryAppViewAssets({});
    const apps = await TrackerMcpHarness.create({ serverExtensions: () => [createPmMcpAppsExtension({ assets })] });
    for (let round = 0; round < 2; round++) {
      const reply = await apps.modern('resources/read', { uri: 'ui://pm/item.html' }, NEGOTIATED);
      expect(reply.error).toMatchObject({ code: -32603 });
      expect(reply.error!.message).toContain('not built');
    }
    expect(assets.reads.get('item')).toBe(2);
  });
});

test('server/discover advertises the extension', async () => {
  const { apps } = await harnesses();
  const discover = await apps.modern('server/discover');
  expect((discover.result as { capabilities: { extensions: Record<string, unknown> } }).capabilities.extensions).toMatchObject({ [PM_MCP_APPS_EXTENSION_ID]: {} });
});
