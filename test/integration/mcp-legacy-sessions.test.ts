/**
 * Initialize-era sessions over the real servers (seed 004 "Legacy boundary";
 * docs/decisions/005-apps-in-initialize-era-sessions.md), driven by the official v1 SDK client
 * over pm-mcp (stdio) and pm-mcp-http (Streamable HTTP, the sealed `Mcp-Session-Id`):
 * - a session whose `initialize` declares MCP Apps 2026-01-26 sees the five views: decorated
 *   tools, the `ui://` resources, and each view's document; one that does not keeps the legacy
 *   surface (a `ui://` read is -32002);
 * - inside an initialized session a request without `io.modelcontextprotocol/protocolVersion`
 *   is legacy whatever else its `_meta` holds — Mastra's exact `tools/list` with only
 *   `io.modelcontextprotocol/logLevel` — and over HTTP its errors keep HTTP 200 (docs/HTTP.md).
 */
import { jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { PM_MCP_APP_CONTRACTS, PM_MCP_APP_MIME_TYPE, PM_MCP_APPS_EXTENSION_ID } from '../../src/domain/apps/index.js';
import { testRunCacheEnv } from '../support/child-processes.js';
import { httpPost, McpHttpProcesses, type LooseJson } from '../support/mcp-http.js';
import { makeTempTracker, McpProcesses, PM_MCP_BIN, RawMcpClient, runPm } from '../support/mcp-stdio.js';

jest.setTimeout(60_000);

const ENV = { PM_MCP_PROFILE: 'full' };
const APPS = { extensions: { [PM_MCP_APPS_EXTENSION_ID]: { mimeTypes: [PM_MCP_APP_MIME_TYPE] } } };
/** Mastra's legacy mode: after initialize, list requests carry only the log level. */
const MASTRA_META = { 'io.modelcontextprotocol/logLevel': 'info' };

const stdio = new McpProcesses();
const http = new McpHttpProcesses();
let tracker: Awaited<ReturnType<typeof makeTempTracker>>;
let url: string;
beforeAll(async () => {
  tracker = await makeTempTracker('pm-mcp-legacy-sessions-');
  await runPm(tracker.dir, ['create', 'Legacy host item']);
  url = (await http.start(tracker.dir, ENV)).url;
});
afterAll(async () => {
  await stdio.killAll();
  await http.killAll();
  await tracker.remove();
});

type Connect = (capabilities: object) => Promise<{ client: Client; transport: Transport }>;

const transports: Record<string, Connect> = {
  stdio: async (capabilities) => {
    const client = new Client({ name: 'legacy-apps-host', version: '1.0.0' }, { capabilities });
    const transport = new StdioClientTransport({ command: process.execPath, args: [PM_MCP_BIN], cwd: tracker.dir, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...testRunCacheEnv(), ...ENV } });
    await client.connect(transport);
    stdio.track(transport.pid);
    return { client, transport };
  },
  http: async (capabilities) => {
    const client = new Client({ name: 'legacy-apps-host', version: '1.0.0' }, { capabilities });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^pms1\./);
    return { client, transport };
  },
};

describe.each(Object.keys(transports))('the v1 SDK client over %s', (name) => {
  const connect = transports[name]!;

  test('a session whose initialize declares MCP Apps sees the five views: decorated tools, ui:// resources, their documents', async () => {
    const { client } = await connect(APPS);
    try {
      expect(client.getServerCapabilities()?.extensions).toMatchObject({ [PM_MCP_APPS_EXTENSION_ID]: {} });
      const { tools } = await client.listTools();
      for (const contract of PM_MCP_APP_CONTRACTS) {
        expect(tools.find((t) => t.name === contract.tool)!._meta).toEqual({ ui: { resourceUri: contract.resourceUri, visibility: ['model', 'app'] }, 'ui/resourceUri': contract.resourceUri });
      }
      expect(tools.find((t) => t.name === 'pm_create')!._meta).toEqual({ ui: { visibility: ['model'] } });
      const { resources } = await client.listResources();
      expect(resources.filter((r) => r.uri.startsWith('ui://')).map((r) => r.uri)).toEqual(PM_MCP_APP_CONTRACTS.map((c) => c.resourceUri));
      for (const contract of PM_MCP_APP_CONTRACTS) {
        const { contents } = await client.readResource({ uri: contract.resourceUri });
        expect(contents[0]).toMatchObject({ uri: contract.resourceUri, mimeType: PM_MCP_APP_MIME_TYPE });
        expect((contents[0] as { text: string }).text).toMatch(/^<!doctype html>/i);
      }
    } finally {
      await client.close();
    }
  });

  test('a session that does not declare it keeps the legacy surface: no _meta.ui, and a ui:// read is -32002', async () => {
    const { client } = await connect({});
    try {
      expect(client.getServerCapabilities()?.extensions).toMatchObject({ [PM_MCP_APPS_EXTENSION_ID]: {} });
      const { tools } = await client.listTools();
      expect(tools.filter((t) => t._meta !== undefined)).toEqual([]);
      const { resources } = await client.listResources();
      expect(resources.filter((r) => r.uri.startsWith('ui://'))).toEqual([]);
      await expect(client.readResource({ uri: 'ui://pm/board.html' })).rejects.toMatchObject({ code: -32002 });
    } finally {
      await client.close();
    }
  });
});

describe("Mastra's legacy mode: initialize 2025-11-25, then tools/list with only io.modelcontextprotocol/logLevel", () => {
  test('stdio: the request is legacy (the tools, no -32602 about a missing protocolVersion)', async () => {
    const client = new RawMcpClient(stdio.spawn(tracker.dir, { ...testRunCacheEnv(), ...ENV }));
    const init = await client.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'srv', version: '1.0.0' } });
    expect(init.result!.protocolVersion).toBe('2025-11-25');
    client.notify('notifications/initialized');
    const listed = await client.request('tools/list', { _meta: MASTRA_META });
    expect(listed.error).toBeUndefined();
    expect((listed.result!.tools as LooseJson[]).map((t) => t.name)).toContain('pm_context');
    // Legacy shapes: no modern envelope members.
    expect(listed.result).not.toHaveProperty('resultType');
    const missing = await client.request('resources/read', { uri: 'pm://items/pm-nothere', _meta: MASTRA_META });
    expect(missing.error).toMatchObject({ code: -32002 });
    // Outside the session's rule: a request that names the modern revision is still modern.
    const modern = await client.request('tools/list', { _meta: { ...MASTRA_META, 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } });
    expect(modern.error).toMatchObject({ code: -32602, message: expect.stringContaining('clientCapabilities') });
  });

  test('HTTP: the request is legacy (HTTP 200, no Mcp-Method needed) and a legacy error keeps HTTP 200', async () => {
    const init = await httpPost(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'srv', version: '1.0.0' } } });
    expect(init.status).toBe(200);
    const headers = { 'MCP-Protocol-Version': '2025-11-25', 'Mcp-Session-Id': init.headers['mcp-session-id'] as string };
    expect((await httpPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    const listed = await httpPost(url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: MASTRA_META } }, headers);
    expect(listed.status).toBe(200);
    expect(listed.body!.error).toBeUndefined();
    expect((listed.body!.result.tools as LooseJson[]).map((t) => t.name)).toContain('pm_context');
    expect(listed.body!.result).not.toHaveProperty('resultType');
    const missing = await httpPost(url, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'pm://items/pm-nothere', _meta: MASTRA_META } }, headers);
    expect(missing.status).toBe(200);
    expect(missing.body!.error).toMatchObject({ code: -32002 });
  });
});
