/**
 * Progressive tool discovery through real processes (seed 004 "Decision"): the official v2
 * client in 2026-07-28 mode over stdio and Streamable HTTP. A host that declares
 * `dev.unbrained.pm/progressive-tool-discovery` starts with five tools, finds the rest with
 * pm_discover, calls a tool it never listed, and reads canonical results; a host that does not
 * declare it, and an initialize-era host, see the complete profile list and today's result
 * text. Requests of both kinds on one process never share bytes. A cursor issued before the
 * workspace contract (config.yaml) or the profile changed is refused with -32602 by the next
 * process.
 */
import { jest } from '@jest/globals';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PM_CANONICAL_RESULT_POINTER, PM_DISCOVER_TOOL_NAME, PM_TOOL_DISCOVERY_EXTENSION_ID, PM_TOOL_DISCOVERY_SERVER_CAPABILITY } from '../../src/domain/discovery/index.js';
import { PM_MCP_PROTOCOL_VERSION } from '../../src/domain/mcp/index.js';
import { PM_MCP_PROFILE_TOOLS } from '../../src/domain/mcp-tracker/index.js';
import { testRunCacheEnv } from '../support/child-processes.js';
import { httpPost, McpHttpProcesses, modernRequest } from '../support/mcp-http.js';
import { makeTempTracker, McpProcesses, modernMeta, PM_MCP_BIN, RawMcpClient, runPm } from '../support/mcp-stdio.js';

jest.setTimeout(90_000);

const DECLARED = { [PM_TOOL_DISCOVERY_EXTENSION_ID]: {} };
const NEGOTIATED = { 'io.modelcontextprotocol/clientCapabilities': { extensions: DECLARED } };
const ENTRY = [PM_DISCOVER_TOOL_NAME, 'pm_context', 'pm_next', 'pm_get', 'pm_search'];

type Json = Record<string, unknown>;
interface Discovered {
  tools: { name: string; inputSchema: Json }[];
  listed: { name: string }[];
  receipt: { profile: string; catalog: string; estimatedTokens: number; tokenBudget: number; omitted: Json[] };
  nextCursor?: string;
}

function v2(negotiated: boolean): ClientV2 {
  return new ClientV2({ name: negotiated ? 'discovering-host' : 'plain-host', version: '2.0.0' }, { versionNegotiation: { mode: { pin: PM_MCP_PROTOCOL_VERSION } }, ...(negotiated ? { capabilities: { extensions: DECLARED } as never } : {}) });
}

let tracker: Awaited<ReturnType<typeof makeTempTracker>>;
let ready: string;
const projects: (() => Promise<void>)[] = [];
beforeAll(async () => {
  ({ tracker, ready } = await project());
});
afterAll(async () => {
  for (const remove of projects) await remove();
});

/** A fresh tracker holding one ready item (the next one) and one of lower priority. */
async function project(): Promise<{ tracker: Awaited<ReturnType<typeof makeTempTracker>>; ready: string }> {
  const t = await makeTempTracker('pm-discovery-');
  projects.push(t.remove);
  const create = async (...args: string[]) => (JSON.parse(await runPm(t.dir, ['create', ...args, '--json'])) as { item: { id: string } }).item.id;
  const id = await create('Fix the flaky login test', '--priority', '1');
  await create('Write the release notes', '--priority', '3');
  return { tracker: t, ready: id };
}

/** What a discovering host does: list, discover by need, call a tool it never listed, read canonical results. */
async function discoveringHost(client: ClientV2, ready: string): Promise<void> {
  const discover = await client.discover();
  expect(discover.capabilities.extensions).toMatchObject({ [PM_TOOL_DISCOVERY_EXTENSION_ID]: PM_TOOL_DISCOVERY_SERVER_CAPABILITY });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(ENTRY);
  for (const tool of tools) expect(tool.outputSchema).toBeUndefined();

  const next = await client.callTool({ name: 'pm_next', arguments: {} });
  expect(next.content).toEqual([{ type: 'text', text: PM_CANONICAL_RESULT_POINTER }]);
  expect((next.structuredContent as { result: { item: { id: string } } }).result.item.id).toBe(ready);

  const found = await client.callTool({ name: PM_DISCOVER_TOOL_NAME, arguments: { need: 'claim the item before I start working on it' } });
  const answer = (found.structuredContent as { result: Discovered }).result;
  expect(answer.tools[0]!.name).toBe('pm_claim');
  expect(answer.receipt).toMatchObject({ profile: 'core' });
  expect(answer.receipt.estimatedTokens).toBeLessThanOrEqual(answer.receipt.tokenBudget);

  const claimed = await client.callTool({ name: 'pm_claim', arguments: { id: ready } });
  expect(claimed.isError).toBeFalsy();
  expect((claimed.structuredContent as { result: { item: { status: string } } }).result.item.status).toBe('in_progress');
  const noted = await client.callTool({ name: 'pm_comment', arguments: { id: ready, text: 'Reproduced: fails one run in five.' } });
  expect((noted.structuredContent as { result: { receipt: { op: string } } }).result.receipt.op).toBe('comment');
}

/** What an unnegotiated host sees: every profile tool with its output schema, readable text beside the data. */
async function plainHost(client: ClientV2, ready: string): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual([...PM_MCP_PROFILE_TOOLS.core]);
  for (const tool of tools) expect(tool.outputSchema).toBeDefined();
  const got = await client.callTool({ name: 'pm_get', arguments: { id: ready } });
  expect((got.content as { text: string }[])[0]!.text).toContain('Fix the flaky login test');
  expect((got.structuredContent as { item: { id: string } }).item.id).toBe(ready);
  await expect(client.callTool({ name: PM_DISCOVER_TOOL_NAME, arguments: {} })).rejects.toThrow(/Unknown tool: pm_discover/);
}

describe('the official v2 client', () => {
  const stdio = new McpProcesses();
  const http = new McpHttpProcesses();
  afterAll(async () => {
    await stdio.killAll();
    await http.killAll();
  });

  test.each([true, false])('over stdio (negotiated: %s)', async (negotiated) => {
    const own = await project();
    const client = v2(negotiated);
    const transport = new StdioClientTransport({ command: process.execPath, args: [PM_MCP_BIN], cwd: own.tracker.dir, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...testRunCacheEnv(), PM_ACTOR: 'host' } });
    await client.connect(transport);
    stdio.track(transport.pid);
    try {
      await (negotiated ? discoveringHost(client, own.ready) : plainHost(client, own.ready));
    } finally {
      await client.close();
    }
  });

  test.each([true, false])('over Streamable HTTP (negotiated: %s)', async (negotiated) => {
    const own = await project();
    const server = await http.start(own.tracker.dir, { PM_ACTOR: 'host' });
    const client = v2(negotiated);
    await client.connect(new HttpTransportV2(new URL(server.url)));
    try {
      await (negotiated ? discoveringHost(client, own.ready) : plainHost(client, own.ready));
    } finally {
      await client.close();
    }
  });
});

describe('raw processes', () => {
  const stdio = new McpProcesses();
  const http = new McpHttpProcesses();
  afterAll(async () => {
    await stdio.killAll();
    await http.killAll();
  });

  const content = (message: Json) => {
    const { id: _id, ...rest } = message;
    return rest;
  };

  test('over stdio, negotiated and plain requests on one process never share bytes; plain ones match a fresh process', async () => {
    const fresh = new RawMcpClient(stdio.spawn(tracker.dir));
    const host = new RawMcpClient(stdio.spawn(tracker.dir));
    const calls: [string, Json][] = [
      ['tools/list', {}],
      ['tools/call', { name: 'pm_get', arguments: { id: ready } }],
      ['tools/call', { name: 'pm_list', arguments: {} }],
    ];
    for (const order of [['plain', 'negotiated'], ['negotiated', 'plain']] as const) {
      for (const [method, params] of calls) {
        const expected = content(await fresh.request(method, { ...params, _meta: modernMeta() }));
        for (const kind of order) {
          const reply = content(await host.request(method, { ...params, _meta: modernMeta(kind === 'negotiated' ? NEGOTIATED : {}) }));
          if (kind === 'plain') expect({ method, reply }).toEqual({ method, reply: expected });
          else expect({ method, same: JSON.stringify(reply) === JSON.stringify(expected) }).toEqual({ method, same: false });
        }
      }
    }
    expect(host.problems()).toEqual([]);
    expect(fresh.problems()).toEqual([]);
  });

  test('an initialize-era client (the v1 SDK) sees the complete list and duplicated JSON text; pm_discover is unknown', async () => {
    const client = new ClientV1({ name: 'legacy-host', version: '1.0.0' });
    const transport = new StdioTransportV1({ command: process.execPath, args: [PM_MCP_BIN], cwd: tracker.dir, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...testRunCacheEnv() } });
    await client.connect(transport);
    stdio.track(transport.pid);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([...PM_MCP_PROFILE_TOOLS.core]);
      const got = await client.callTool({ name: 'pm_get', arguments: { id: ready } });
      expect(JSON.parse((got.content as { text: string }[])[0]!.text)).toEqual(got.structuredContent);
      await expect(client.callTool({ name: PM_DISCOVER_TOOL_NAME, arguments: {} })).rejects.toThrow(/Unknown tool: pm_discover/);
    } finally {
      await client.close();
    }
  });

  test('a cursor from before a contract or profile change is refused by the next process with -32602', async () => {
    const project = await makeTempTracker('pm-discovery-stale-');
    try {
      const discover = async (client: RawMcpClient, args: Json) => client.request('tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: args, _meta: modernMeta(NEGOTIATED) });
      const first = new RawMcpClient(stdio.spawn(project.dir));
      const page = ((await discover(first, { limit: 1 })).result!.structuredContent as { result: Discovered }).result;
      expect(page.nextCursor).toEqual(expect.any(String));
      // The same process and contract: the cursor continues.
      expect((await discover(first, { limit: 1, cursor: page.nextCursor })).result).toBeDefined();
      first.proc.endInput();
      await first.proc.exited;

      const config = join(project.root, 'config.yaml');
      const before = await readFile(config, 'utf8');
      expect(before).toContain('customFields: {}');
      await writeFile(config, before.replace('customFields: {}', 'customFields:\n  severity:\n    type: enum\n    values: [low, high]'));
      const changed = new RawMcpClient(stdio.spawn(project.dir));
      expect((await discover(changed, { limit: 1, cursor: page.nextCursor })).error).toMatchObject({ code: -32602, data: { problem: 'stale_catalog' } });
      const renewed = ((await discover(changed, { limit: 1 })).result!.structuredContent as { result: Discovered }).result;
      expect(renewed.receipt.catalog).not.toBe(page.receipt.catalog);

      const server = await http.start(project.dir, { PM_MCP_PROFILE: 'full' });
      const request = modernRequest(1, 'tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: { limit: 1, cursor: renewed.nextCursor } }, { meta: NEGOTIATED });
      const reply = await httpPost(server.url, request.body, request.headers);
      expect(reply.body?.error).toMatchObject({ code: -32602, data: { problem: 'foreign_profile' } });
      expect(changed.problems()).toEqual([]);
    } finally {
      await project.remove();
    }
  });
});
