/**
 * The SDK's Apps surface for a custom host (seed 000 "Public SDK"): the names the seed makes
 * public, and docs/examples/apps-host.ts projecting the same decoration, resources and strict
 * reads as pm's server, over pm's real tool descriptors.
 */
import { projectPmApps } from '../../../docs/examples/apps-host.js';
import * as sdk from '../../../src/sdk/index.js';
import { TrackerMcpHarness } from '../../support/mcp-tracker-harness.js';

const ASSETS = Object.fromEntries(sdk.PM_MCP_APP_CONTRACTS.map((c) => [c.view, { script: `/* ${c.view} */`, style: '' }]));
const UI = { extensions: { 'io.modelcontextprotocol/ui': { specVersion: '2026-01-26', mimeTypes: ['text/html;profile=mcp-app'] } } };

test('the SDK exports the Apps contracts and policy', () => {
  for (const name of ['PM_MCP_APP_CONTRACTS', 'hasPmMcpAppsCapability', 'decoratePmMcpToolsWithApps', 'renderPmMcpAppHtml', 'createPmMcpAppsExtension', 'PmMcpAppDocuments', 'MemoryAppViewAssets', 'PM_MCP_APP_MIME_TYPE', 'PM_MCP_APPS_EXTENSION_ID']) {
    expect(sdk).toHaveProperty(name);
  }
});

test('a custom host projects the same Apps surface as pm’s server, with the SDK alone', async () => {
  const h = await TrackerMcpHarness.create({ profile: 'full', serverExtensions: () => [sdk.createPmMcpAppsExtension({ assets: new sdk.MemoryAppViewAssets(ASSETS) })] });
  const descriptors = h.server.tools!.descriptors as unknown as sdk.JsonObject[];
  const meta = { 'io.modelcontextprotocol/clientCapabilities': UI };

  const negotiated = await projectPmApps(descriptors, UI, ASSETS);
  expect(negotiated.tools).toEqual((await h.modern('tools/list', {}, meta)).result!.tools);
  const listed = (await h.modern('resources/list', {}, meta)).result!.resources as { uri: string }[];
  expect(negotiated.resources).toEqual(listed.filter((r) => r.uri.startsWith('ui://')));
  const read = await negotiated.read('ui://pm/graph.html');
  expect(read).toEqual({ contents: (await h.modern('resources/read', { uri: 'ui://pm/graph.html' }, meta)).result!.contents });

  const plain = await projectPmApps(descriptors, {}, ASSETS);
  expect(plain.tools).toBe(descriptors);
  expect(plain.resources).toEqual([]);
  expect(await plain.read('ui://pm/graph.html')).toMatchObject({ error: { code: -32021 } });
});
