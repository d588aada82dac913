/**
 * Memoized results never cross between differently negotiated requests (seed 004 "Decision":
 * no modern request reads anything from another one). A host registers one extension the way
 * every extension plugs in (test/support/workers/shaped-host.mjs: a list decorator, two result
 * shapers, all for requests that negotiated `com.example/shaped`). Over real pm-mcp and
 * pm-mcp-http processes, requests that negotiated it get shaped bytes and requests that did not
 * get exactly what a server without the extension answers — in either order, repeated, so every
 * memoized path (tools/list pages, pm_get results) is exercised both ways.
 */
import { jest } from '@jest/globals';
import { workerPath } from '../support/child-processes.js';
import { httpPost, McpHttpProcesses, modernRequest, type LooseJson } from '../support/mcp-http.js';
import { makeTempTracker, McpProcesses, modernMeta, RawMcpClient, runPm, type WireMessage } from '../support/mcp-stdio.js';

jest.setTimeout(60_000);

const EXT = 'com.example/shaped';
const NEGOTIATED = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXT]: {} } } };
const SHAPED_HOST = workerPath('shaped-host.mjs');

/** The calls of one round: [label, method, params], each sent plain and negotiated. */
function calls(itemId: string): [string, string, Record<string, unknown>][] {
  return [
    ['tools/list', 'tools/list', {}],
    ['pm_get', 'tools/call', { name: 'pm_get', arguments: { id: itemId } }],
    ['pm_list', 'tools/call', { name: 'pm_list', arguments: {} }],
  ];
}

/** The response without its id (responses of different requests compare by content). */
function content(message: WireMessage | LooseJson): unknown {
  const { id: _id, ...rest } = message as Record<string, unknown>;
  return rest;
}

const isShaped = (message: unknown) => JSON.stringify(message).includes('SHAPED');

let tracker: Awaited<ReturnType<typeof makeTempTracker>>;
let itemId: string;

beforeAll(async () => {
  tracker = await makeTempTracker('pm-memo-isolation-');
  const created = JSON.parse(await runPm(tracker.dir, ['create', 'Shared item', '--json'])) as { item: { id: string } };
  itemId = created.item.id;
});
afterAll(() => tracker.remove());

describe('over stdio', () => {
  const processes = new McpProcesses();
  afterAll(() => processes.killAll());

  test('negotiated requests get shaped bytes; plain ones get exactly what a server without the extension sends', async () => {
    const plainServer = new RawMcpClient(processes.spawn(tracker.dir));
    const host = new RawMcpClient(processes.spawn(tracker.dir, {}, SHAPED_HOST, ['stdio']));
    const discover = await host.request('server/discover', { _meta: modernMeta() });
    expect(discover.result?.capabilities).toMatchObject({ extensions: { [EXT]: { marker: 'SHAPED' } } });
    for (const order of [['plain', 'negotiated'], ['negotiated', 'plain']] as const) {
      for (let round = 0; round < 2; round++) {
        for (const [label, method, params] of calls(itemId)) {
          const expected = content(await plainServer.request(method, { ...params, _meta: modernMeta() }));
          for (const kind of order) {
            const reply = await host.request(method, { ...params, _meta: modernMeta(kind === 'negotiated' ? NEGOTIATED : {}) });
            if (kind === 'plain') expect({ label, reply: content(reply) }).toEqual({ label, reply: expected });
            else expect({ label, shaped: isShaped(reply) }).toEqual({ label, shaped: true });
          }
        }
      }
    }
    expect(host.problems()).toEqual([]);
  });
});

describe('over Streamable HTTP', () => {
  const processes = new McpHttpProcesses();
  afterAll(() => processes.killAll());

  test('negotiated requests get shaped bytes; plain ones get exactly what a server without the extension sends', async () => {
    const plainServer = await processes.start(tracker.dir);
    const host = await processes.start(tracker.dir, {}, SHAPED_HOST, ['http']);
    let id = 1;
    const schemas = new Map<string, object>();
    const post = async (url: string, method: string, params: Record<string, unknown>, meta: Record<string, unknown> = {}) => {
      const toolInputSchema = method === 'tools/call' ? schemas.get(params.name as string) : undefined;
      const request = modernRequest(id++, method, params, { meta, ...(toolInputSchema ? { toolInputSchema } : {}) });
      const reply = await httpPost(url, request.body, request.headers);
      expect(reply.status).toBe(200);
      return reply.body!;
    };
    for (const tool of (await post(plainServer.url, 'tools/list', {})).result.tools as { name: string; inputSchema: object }[]) schemas.set(tool.name, tool.inputSchema);
    for (const order of [['plain', 'negotiated'], ['negotiated', 'plain']] as const) {
      for (let round = 0; round < 2; round++) {
        for (const [label, method, params] of calls(itemId)) {
          const expected = content(await post(plainServer.url, method, params));
          for (const kind of order) {
            const reply = await post(host.url, method, params, kind === 'negotiated' ? NEGOTIATED : {});
            if (kind === 'plain') expect({ label, reply: content(reply) }).toEqual({ label, reply: expected });
            else expect({ label, shaped: isShaped(reply) }).toEqual({ label, shaped: true });
          }
        }
      }
    }
  });
});
