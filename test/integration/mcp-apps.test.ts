/**
 * MCP Apps over the real servers (seed 000 "MCP Apps"; seed 004 "Skills and Apps extensions"):
 * pm-mcp over stdio and pm-mcp-http over Streamable HTTP, each on a real tracker. A request that
 * declares the stable capability sees the five views on their tools and in resources/list and
 * can read each ui:// document; unnegotiated and incompatible requests get byte-identical
 * undecorated lists, in either order; a ui:// read without the capability is -32021.
 */
import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { PM_MCP_APP_CONTRACTS, PM_MCP_APP_MAX_HTML_BYTES, PM_MCP_APPS_CLIENT_CAPABILITY, renderPmMcpAppHtml } from '../../src/domain/apps/index.js';
import { httpPost, McpHttpProcesses, modernRequest, type LooseJson } from '../support/mcp-http.js';
import { makeTempTracker, McpProcesses, modernMeta, RawMcpClient, runPm } from '../support/mcp-stdio.js';

jest.setTimeout(60_000);

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const declare = (settings: unknown) => ({ 'io.modelcontextprotocol/clientCapabilities': { extensions: { [UI]: settings } } });
const NEGOTIATED = declare({ specVersion: '2026-01-26', mimeTypes: [MIME] });
const UNNEGOTIATED = {};
const INCOMPATIBLE = [declare({ specVersion: '2025-11-21', mimeTypes: [MIME] }), declare({ specVersion: '2026-01-26', mimeTypes: ['text/html'] }), declare({})];
const ENV = { PM_MCP_PROFILE: 'full' };

/** The built view assets as the package ships them. */
const asset = (view: string) => ({
  script: readFileSync(new URL(`../../dist/apps/${view}.js`, import.meta.url), 'utf8'),
  style: readFileSync(new URL(`../../dist/apps/${view}.css`, import.meta.url), 'utf8'),
});

/** One way of sending a request and getting the exact bytes of its result (id normalized). */
type Send = (method: string, params: Record<string, unknown>, meta: Record<string, unknown>) => Promise<{ bytes: string; message: LooseJson }>;

let tracker: Awaited<ReturnType<typeof makeTempTracker>>;
beforeAll(async () => {
  tracker = await makeTempTracker('pm-mcp-apps-');
  const parent = JSON.parse(await runPm(tracker.dir, ['create', 'Apps epic', '--type', 'Epic', '--json'])) as { item: { id: string } };
  await runPm(tracker.dir, ['create', 'Apps child', '--parent', parent.item.id]);
});
afterAll(() => tracker.remove());

function suite(label: string, connect: () => Promise<Send>, stop: () => Promise<void>): void {
  describe(label, () => {
    let send: Send;
    beforeAll(async () => {
      send = await connect();
    });
    afterAll(stop);

    test('negotiated tools/list: the five view tools carry _meta.ui.resourceUri, mutating tools are model-only', async () => {
      const { message } = await send('tools/list', {}, NEGOTIATED);
      const tools = message.result.tools as LooseJson[];
      for (const contract of PM_MCP_APP_CONTRACTS) {
        const tool = tools.find((t) => t.name === contract.tool)!;
        expect(tool._meta).toEqual({ ui: { resourceUri: contract.resourceUri, visibility: ['model', 'app'] }, 'ui/resourceUri': contract.resourceUri });
      }
      for (const tool of tools.filter((t) => t.annotations?.readOnlyHint !== true)) expect({ name: tool.name, meta: tool._meta }).toEqual({ name: tool.name, meta: { ui: { visibility: ['model'] } } });
    });

    test.each(['tools/list', 'resources/list'])('%s: unnegotiated and incompatible requests get the same bytes, without any Apps member, in either order', async (method) => {
      for (const order of [[UNNEGOTIATED, NEGOTIATED, ...INCOMPATIBLE], [NEGOTIATED, ...INCOMPATIBLE, UNNEGOTIATED]]) {
        const replies: string[] = [];
        for (const meta of order) {
          const { bytes } = await send(method, {}, meta);
          if (meta === NEGOTIATED) expect(bytes).toContain('ui://pm/');
          else replies.push(bytes);
        }
        expect(new Set(replies).size).toBe(1);
        expect(replies[0]).not.toContain('ui://');
        expect(replies[0]).not.toContain('"_meta":{"ui');
        expect(replies[0]).not.toContain('ui/resourceUri');
      }
    });

    test('negotiated resources/list lists the five ui:// documents with their MIME type and _meta.ui', async () => {
      const { message } = await send('resources/list', {}, NEGOTIATED);
      const views = (message.result.resources as LooseJson[]).filter((r) => String(r.uri).startsWith('ui://'));
      expect(views.map((r) => [r.uri, r.mimeType, r._meta])).toEqual(PM_MCP_APP_CONTRACTS.map((c) => [c.resourceUri, MIME, { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } }]));
    });

    test('a negotiated read returns each self-contained document, under the size bound', async () => {
      for (const contract of PM_MCP_APP_CONTRACTS) {
        const { message } = await send('resources/read', { uri: contract.resourceUri }, NEGOTIATED);
        const [content] = message.result.contents as LooseJson[];
        expect(content).toMatchObject({ uri: contract.resourceUri, mimeType: MIME, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } });
        expect(content!.text).toBe(renderPmMcpAppHtml(contract, asset(contract.view)));
        expect(Buffer.byteLength(content!.text as string)).toBeLessThan(PM_MCP_APP_MAX_HTML_BYTES);
        expect(content!.text).toContain("connect-src 'none'");
        // Nothing to fetch: no external script, style sheet, frame or image.
        expect({ view: contract.view, external: /<(script|link|iframe|img)\b[^>]*\b(src|href)=/i.test(content!.text as string) }).toEqual({ view: contract.view, external: false });
      }
    });

    test('a ui:// read without a compatible declaration fails closed with -32021', async () => {
      for (const meta of [UNNEGOTIATED, ...INCOMPATIBLE]) {
        const { message } = await send('resources/read', { uri: 'ui://pm/board.html' }, meta);
        expect(message.error).toMatchObject({ code: -32021, data: { requiredCapabilities: PM_MCP_APPS_CLIENT_CAPABILITY } });
      }
      const unknown = await send('resources/read', { uri: 'ui://pm/unknown.html' }, NEGOTIATED);
      expect(unknown.message.error).toMatchObject({ code: -32602, data: { uri: 'ui://pm/unknown.html' } });
    });

    test('tool results keep their text and structured data, with or without the declaration', async () => {
      const plain = await send('tools/call', { name: 'pm_list', arguments: {} }, UNNEGOTIATED);
      const negotiated = await send('tools/call', { name: 'pm_list', arguments: {} }, NEGOTIATED);
      expect(negotiated.bytes).toBe(plain.bytes);
      expect(plain.message.result.content[0].text).toContain('Apps child');
      expect(plain.message.result.structuredContent.total).toBe(2);
    });

    test('server/discover offers the extension', async () => {
      const { message } = await send('server/discover', {}, UNNEGOTIATED);
      expect(message.result.capabilities.extensions).toMatchObject({ [UI]: {} });
    });
  });
}

const stdio = new McpProcesses();
suite(
  'over stdio',
  async () => {
    const client = new RawMcpClient(stdio.spawn(tracker.dir, ENV));
    let id = 1;
    return async (method, params, meta) => {
      const requestId = id++;
      const message = (await client.request(method, { ...params, _meta: modernMeta(meta) }, { id: requestId })) as LooseJson;
      const line = client.proc.lines.find((l) => l.includes(`"id":${requestId},`) || l.includes(`"id":${requestId}}`))!;
      expect(client.problems()).toEqual([]);
      return { bytes: line.replace(`"id":${requestId}`, '"id":0'), message };
    };
  },
  () => stdio.killAll(),
);

const http = new McpHttpProcesses();
suite(
  'over Streamable HTTP',
  async () => {
    const server = await http.start(tracker.dir, ENV);
    const schemas = new Map<string, object>();
    const list = await httpPost(server.url, modernRequest(1, 'tools/list').body, modernRequest(1, 'tools/list').headers);
    for (const tool of list.body!.result.tools as { name: string; inputSchema: object }[]) schemas.set(tool.name, tool.inputSchema);
    return async (method, params, meta) => {
      const toolInputSchema = method === 'tools/call' ? schemas.get(params.name as string) : undefined;
      const request = modernRequest(7, method, params, { meta, ...(toolInputSchema ? { toolInputSchema } : {}) });
      const reply = await httpPost(server.url, request.body, request.headers);
      // A JSON-RPC error is answered 400 (docs/HTTP.md "Statuses"), a result 200.
      expect(reply.status).toBe(reply.body?.error ? 400 : 200);
      return { bytes: reply.text, message: reply.body! };
    };
  },
  () => http.killAll(),
);
