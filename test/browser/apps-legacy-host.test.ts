/**
 * An initialize-era Apps host renders all five views in real Chromium
 * (docs/decisions/005-apps-in-initialize-era-sessions.md; docs/APPS.md "Hosts that speak the
 * initialize-era protocol"). The host is built from third-party libraries only on the server
 * side: the official v1 SDK `Client` over `StreamableHTTPClientTransport` declares MCP Apps in
 * its `initialize` (a legacy session, carried by the sealed `Mcp-Session-Id`), finds each view
 * through the decorated `tools/list`, reads its `ui://` document with `resources/read`, and
 * calls the tools; `@modelcontextprotocol/ext-apps`' AppBridge (test/browser/host/host.ts)
 * hands the document, tool input and result to the sandboxed view, and forwards the view's
 * drill-down calls back through the same v1 session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PM_MCP_APP_CONTRACTS, PM_MCP_APP_MIME_TYPE, PM_MCP_APPS_EXTENSION_ID, type PmMcpAppView } from '../../src/domain/apps/app-contracts.js';
import { BrowserHost } from './support/browser-host.js';
import { seedProject, serveProject, type CallResult, type ServedProject, type SmallProjectIds } from './support/pm-project.js';
import { textOf } from './support/apps-fixture.js';

let project: ServedProject<SmallProjectIds>;
let client: Client;
let transport: StreamableHTTPClientTransport;
let host: BrowserHost;
let tools: Awaited<ReturnType<Client['listTools']>>['tools'];

beforeAll(async () => {
  project = await serveProject('pm-apps-legacy-host-', seedProject);
  // The declaration an initialize-era Apps host sends: in initialize, once, with the MIME type only.
  client = new Client({ name: 'legacy-apps-host', version: '1.0.0' }, { capabilities: { extensions: { [PM_MCP_APPS_EXTENSION_ID]: { mimeTypes: [PM_MCP_APP_MIME_TYPE] } } } });
  transport = new StreamableHTTPClientTransport(new URL(project.client.url));
  await client.connect(transport);
  tools = (await client.listTools()).tools;
  host = await BrowserHost.open(async (name, args) => (await client.callTool({ name, arguments: args })) as unknown as CallResult);
}, 120_000);

afterAll(async () => {
  await host?.close();
  await client?.close();
  await project?.stop();
});

/** Renders `view` for a real call of its tool, everything through the v1 legacy session. */
async function show(view: PmMcpAppView, args: Record<string, unknown> = {}) {
  const contract = PM_MCP_APP_CONTRACTS.find((c) => c.view === view)!;
  const tool = tools.find((t) => t.name === contract.tool)!;
  const uri = (tool._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
  expect(uri).toBe(contract.resourceUri);
  const { contents } = await client.readResource({ uri: uri! });
  expect(contents[0]).toMatchObject({ uri, mimeType: PM_MCP_APP_MIME_TYPE });
  const frame = await host.mount((contents[0] as { text: string }).text, contract.title, tools);
  await host.input(args);
  await host.result((await client.callTool({ name: contract.tool, arguments: args })) as unknown as CallResult);
  await frame.waitForSelector('.pm-page:not([aria-busy])');
  await host.settled();
  return frame;
}

describe('a v1 SDK host in a legacy session, rendering through the ext-apps AppBridge', () => {
  test('the session is a legacy one: initialize answered 2025-11-25 and the transport holds the sealed session id', () => {
    expect(client.getServerCapabilities()?.extensions).toMatchObject({ [PM_MCP_APPS_EXTENSION_ID]: {} });
    expect(transport.sessionId).toMatch(/^pms1\./);
    expect(transport.protocolVersion).toBe('2025-11-25');
  });

  test.each([
    ['context', {}, ['Project dashboard', 'Next up', 'Active claims (2)']],
    ['board', {}, ['9 items', 'Saved-card API']],
    ['item', { id: 'api' }, ['Saved-card API', 'It must be idempotent: a retried request never charges twice.', '1 of 3 criteria done']],
    ['graph', { id: 'api' }, ['Saved-card API', 'One-step pay button']],
    ['history', { id: 'perf' }, ['25 changes in all, newest first.']],
  ] as const)('%s renders the real result', async (view, rawArgs, expected) => {
    const args = 'id' in rawArgs ? { id: project.ids[rawArgs.id as SmallProjectIds] } : {};
    const frame = await show(view, args);
    const text = await textOf(frame);
    for (const needle of expected) expect(text).toContain(needle);
    const events = await host.events();
    expect(events[0]).toMatchObject({ type: 'initialized', appVersion: { name: `pm-${view}-view` } });
    expect(host.pageErrors).toEqual([]);
    expect(host.cspViolations).toEqual([]);
  });

  test("a view's drill-down goes through the same legacy session: the board opens an item", async () => {
    const frame = await show('board');
    await frame.locator(`[data-focus="board:${project.ids.api}"]`).click();
    await frame.waitForFunction(() => document.body.innerText.includes('1 of 3 criteria done'));
    const calls = (await host.events()).filter((e) => e.type === 'tool-call');
    expect(calls).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'pm_get', args: expect.objectContaining({ id: project.ids.api }) })]));
    expect(host.pageErrors).toEqual([]);
  });
});
