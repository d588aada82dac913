/**
 * The real `pm-mcp` process (bin/pm-mcp.cjs → dist/composition/mcp-stdio-main.js), started with
 * its working directory set to a fresh temp tracker, driven by real MCP clients (seed 004 "Legacy boundary", "Rollout, rollback, and proof"):
 *
 * - the official v2 client `@modelcontextprotocol/client` pinned to 2026-07-28 (stateless
 *   per-request `_meta`, `server/discover` instead of `initialize`);
 * - the v1 client `@modelcontextprotocol/sdk`, whose connect is the 2025-11-25 initialize handshake;
 * - clients pinned to 2025-06-18: the v2 client in legacy mode with only 2025-06-18 supported,
 *   and the v1 client with its initialize revision forced to 2025-06-18.
 *
 * Each session lists tools, calls a read tool and a mutating tool (pm_create, then pm_get of the
 * new item), reads pm://context and pm://items/<id>, lists resources/templates/prompts and gets
 * a prompt. The sessions run twice: over the SDKs' own stdio transports (exactly what an MCP
 * host configured with `pm-mcp` does) and over a tap transport that records every line the
 * server writes, each of which must validate against the official schema of its era.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { getDefaultEnvironment as defaultEnvV2, StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment as defaultEnvV1, StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCP_META, PM_MCP_LEGACY_PROTOCOL_VERSIONS, PM_MCP_PROTOCOL_VERSION } from '../../src/domain/mcp/index.js';
import { testRunCacheEnv } from '../support/child-processes.js';
import type { McpSchemaRevision } from '../support/mcp-schema.js';
import { makeTempTracker, McpProcesses, PM_MCP_BIN, TapTransport, validateWireLines, type WireLine, type WireMessage } from '../support/mcp-stdio.js';

const CORE_TOOLS = ['pm_context', 'pm_next', 'pm_list', 'pm_get', 'pm_search', 'pm_create', 'pm_update', 'pm_claim', 'pm_close', 'pm_comment'];
const PROMPTS = ['orientation', 'claim-and-start', 'evidence-and-close'];

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
interface ResourceContents {
  contents: { uri: string; mimeType?: string; text?: string }[];
}

/** What the v1 and v2 clients have in common (the calls a host makes). */
interface ClientLike {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  listPrompts(): Promise<{ prompts: { name: string }[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: { role: string; content: unknown }[] }>;
  close(): Promise<void>;
}

type Era = 'modern' | 'legacy';

interface Session {
  readonly label: string;
  readonly era: Era;
  readonly clientName: string;
  readonly dir: string;
  /**
   * The code the client reports for a missing resource. On the wire it is -32602 (modern) or
   * -32002 (legacy); the v2 client decodes a legacy -32002 as -32602, the v1 client keeps it.
   */
  readonly notFoundCode: number;
}

/** The calls every client makes; returns the id of the item it created. */
async function exercise(client: ClientLike, s: Session): Promise<string> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(CORE_TOOLS);
  for (const tool of tools) {
    expect(tool.inputSchema).toMatchObject({ type: 'object' });
    expect(tool.outputSchema).toMatchObject({ type: 'object' });
  }

  // A read tool.
  const context = (await client.callTool({ name: 'pm_context', arguments: {} })) as ToolResult;
  expect(context.isError).toBeFalsy();
  expect(context.structuredContent).toMatchObject({ idPrefix: 'pm', total: 0 });

  // A mutating tool, then a read of what it wrote.
  const title = `made by ${s.label}`;
  const created = (await client.callTool({ name: 'pm_create', arguments: { title, tags: ['mcp-client'], priority: 1 } })) as ToolResult;
  expect(created.isError).toBeFalsy();
  const structured = created.structuredContent as { item: { id: string }; receipt: Record<string, unknown> };
  expect(structured).toMatchObject({ item: { title, status: 'open', priority: 1, revision: 1 }, receipt: { op: 'create', revisionAfter: 1 } });
  const id = structured.item.id;
  expect(id).toMatch(/^pm-[a-z0-9]+$/);
  // The client's declared identity (initialize on the legacy path, _meta on the modern one) is
  // recorded as the client software, beside the actor (PM_ACTOR or the OS user).
  expect(structured.receipt.client).toMatch(new RegExp(`^${s.clientName}/`));
  expect(structured.receipt.actor).not.toBe(s.clientName);
  const text = created.content.find((c) => c.type === 'text')?.text ?? '';
  if (s.era === 'legacy') expect(JSON.parse(text)).toEqual(structured); // legacy: duplicated JSON text beside structuredContent
  else expect(text).toContain(id); // modern: a readable rendering
  // The process served the tracker found from its working directory.
  expect(existsSync(join(s.dir, '.agents', 'pm', 'items', `${id}.md`))).toBe(true);

  const got = (await client.callTool({ name: 'pm_get', arguments: { id } })) as ToolResult;
  expect(got.isError).toBeFalsy();
  expect(got.structuredContent).toMatchObject({ item: { id, title, tags: ['mcp-client'], revision: 1 } });

  // A tool failure is a result, not a protocol error.
  const missing = (await client.callTool({ name: 'pm_get', arguments: { id: 'pm-zzzzzz' } })) as ToolResult;
  expect(missing.isError).toBe(true);

  // Resources.
  const snapshot = (await client.readResource({ uri: 'pm://context' })) as ResourceContents;
  expect(snapshot.contents).toHaveLength(1);
  expect(snapshot.contents[0]).toMatchObject({ uri: 'pm://context', mimeType: 'application/json' });
  expect(JSON.parse(snapshot.contents[0]!.text!)).toMatchObject({ idPrefix: 'pm', total: 1 });
  const item = (await client.readResource({ uri: `pm://items/${id}` })) as ResourceContents;
  expect(item.contents[0]).toMatchObject({ uri: `pm://items/${id}`, mimeType: 'application/json' });
  expect(JSON.parse(item.contents[0]!.text!)).toMatchObject({ id, title, status: 'open' });
  await expect(client.readResource({ uri: 'pm://items/pm-zzzzzz' })).rejects.toMatchObject({ code: s.notFoundCode });

  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['pm://context', 'pm://claims', 'pm://guidance']));
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('pm://items/{id}');

  // Prompts.
  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name)).toEqual(PROMPTS);
  const prompt = await client.getPrompt({ name: 'claim-and-start', arguments: { id } });
  expect(prompt.messages.length).toBeGreaterThan(0);
  expect(JSON.stringify(prompt.messages)).toContain(id);
  const orientation = await client.getPrompt({ name: 'orientation' });
  expect(JSON.stringify(orientation.messages)).toContain(id); // the one ready item is named
  return id;
}

function v2Modern(name: string): ClientV2 {
  return new ClientV2({ name, version: '2.0.0' }, { versionNegotiation: { mode: { pin: PM_MCP_PROTOCOL_VERSION } } });
}
function v2Legacy0618(name: string): ClientV2 {
  return new ClientV2({ name, version: '2.0.0' }, { supportedProtocolVersions: ['2025-06-18'] });
}
function v1(name: string): ClientV1 {
  return new ClientV1({ name, version: '1.0.0' });
}

/** The v2-only checks of a modern session: discovery and a listen stream through the client. */
async function exerciseModernV2(client: ClientV2, id: string): Promise<void> {
  expect(client.getProtocolEra()).toBe('modern');
  expect(client.getNegotiatedProtocolVersion()).toBe(PM_MCP_PROTOCOL_VERSION);
  expect(client.getServerVersion()).toMatchObject({ name: 'pm' });
  const discover = await client.discover();
  expect(discover.supportedVersions).toEqual([PM_MCP_PROTOCOL_VERSION]);
  for (const legacy of PM_MCP_LEGACY_PROTOCOL_VERSIONS) expect(discover.supportedVersions).not.toContain(legacy);

  const updated: string[] = [];
  let sawItem!: () => void;
  const itemUpdated = new Promise<void>((resolve) => (sawItem = resolve));
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updated.push(n.params.uri);
    if (n.params.uri === `pm://items/${id}`) sawItem();
  });
  const subscription = await client.listen({ resourceSubscriptions: [`pm://items/${id}`, 'pm://guidance'] });
  expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [`pm://items/${id}`] }); // guidance is not watched
  const update = (await client.callTool({ name: 'pm_update', arguments: { id, title: 'renamed through MCP', expectedRevision: 1 } })) as ToolResult;
  expect(update.structuredContent).toMatchObject({ item: { id, revision: 2 }, receipt: { op: 'update' } });
  await itemUpdated; // the notification itself (bounded by the test timeout)
  expect(updated).toContain(`pm://items/${id}`);
  await subscription.close();
  await expect(subscription.closed).resolves.toBe('local');
}

describe('pm-mcp over stdio with real MCP clients', () => {
  const processes = new McpProcesses();
  const cleanups: (() => Promise<void>)[] = [];
  const timings: string[] = [];

  afterAll(async () => {
    await processes.killAll();
    await Promise.all(cleanups.map((c) => c()));
    if (process.env.PM_TEST_TIMINGS) console.log(timings.join('\n'));
  });

  async function tracker(): Promise<string> {
    const t = await makeTempTracker('pm-mcp-clients-');
    cleanups.push(t.remove);
    return t.dir;
  }

  async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
    const start = Date.now();
    try {
      return await run();
    } finally {
      timings.push(`${label}: ${Date.now() - start} ms`);
    }
  }

  describe('through the SDKs\' own stdio transports (what a configured host runs)', () => {
    it('the official v2 client in 2026-07-28 mode: discover, tools, resources, prompts, listen', async () => {
      const dir = await tracker();
      const client = v2Modern('v2-host');
      const transport = new StdioTransportV2({ command: process.execPath, args: [PM_MCP_BIN], cwd: dir, stderr: 'pipe', env: { ...defaultEnvV2(), ...testRunCacheEnv() } });
      await timed('v2 stdio 2026-07-28', async () => {
        await client.connect(transport);
        processes.track(transport.pid);
        try {
          const id = await exercise(client, { label: 'v2 modern', era: 'modern', clientName: 'v2-host', dir, notFoundCode: -32602 });
          await exerciseModernV2(client, id);
        } finally {
          await client.close();
        }
      });
    });

    it('the v1 client (initialize with 2025-11-25): tools, resources, prompts, ping', async () => {
      const dir = await tracker();
      const client = v1('v1-host');
      const transport = new StdioTransportV1({ command: process.execPath, args: [PM_MCP_BIN], cwd: dir, stderr: 'pipe', env: { ...defaultEnvV1(), ...testRunCacheEnv() } });
      await timed('v1 stdio 2025-11-25', async () => {
        await client.connect(transport);
        processes.track(transport.pid);
        try {
          expect(client.getServerVersion()).toMatchObject({ name: 'pm' });
          expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
          await exercise(client, { label: 'v1 legacy', era: 'legacy', clientName: 'v1-host', dir, notFoundCode: -32002 });
          await expect(client.ping()).resolves.toEqual({});
        } finally {
          await client.close();
        }
      });
    });

    it('the v2 client pinned to 2025-06-18 (legacy mode): tools, resources, prompts', async () => {
      const dir = await tracker();
      const client = v2Legacy0618('v2-legacy-host');
      const transport = new StdioTransportV2({ command: process.execPath, args: [PM_MCP_BIN], cwd: dir, stderr: 'pipe', env: { ...defaultEnvV2(), ...testRunCacheEnv() } });
      await timed('v2 stdio 2025-06-18', async () => {
        await client.connect(transport);
        processes.track(transport.pid);
        try {
          expect(client.getProtocolEra()).toBe('legacy');
          expect(client.getNegotiatedProtocolVersion()).toBe('2025-06-18');
          await exercise(client, { label: 'v2 legacy 2025-06-18', era: 'legacy', clientName: 'v2-legacy-host', dir, notFoundCode: -32602 });
        } finally {
          await client.close();
        }
      });
    });
  });

  describe('through a tap: every line the server writes validates against its era\'s schema', () => {
    interface TapCase {
      readonly label: string;
      readonly revision: McpSchemaRevision;
      readonly clientName: string;
      readonly notFoundCode: number;
      connect(transport: TapTransport): Promise<ClientLike & { extra?: (id: string) => Promise<void> }>;
      readonly rewrite?: (message: WireMessage) => WireMessage;
    }

    const forceInitialize = (revision: string) => (message: WireMessage) =>
      message.method === 'initialize' ? { ...message, params: { ...message.params, protocolVersion: revision } } : message;

    const cases: TapCase[] = [
      {
        label: 'v2 client, 2026-07-28',
        revision: '2026-07-28',
        clientName: 'v2-tap',
        notFoundCode: -32602,
        connect: async (transport) => {
          const client = v2Modern('v2-tap');
          await client.connect(transport as unknown as Parameters<ClientV2['connect']>[0]);
          return Object.assign(client, { extra: (id: string) => exerciseModernV2(client, id) });
        },
      },
      {
        label: 'v1 client, 2025-11-25',
        revision: '2025-11-25',
        clientName: 'v1-tap',
        notFoundCode: -32002,
        connect: async (transport) => {
          const client = v1('v1-tap');
          await client.connect(transport as unknown as Parameters<ClientV1['connect']>[0]);
          return Object.assign(client, { extra: async () => void (await expect(client.ping()).resolves.toEqual({})) });
        },
      },
      {
        label: 'v2 client pinned to 2025-06-18',
        revision: '2025-06-18',
        clientName: 'v2-tap-0618',
        notFoundCode: -32602,
        connect: async (transport) => {
          const client = v2Legacy0618('v2-tap-0618');
          await client.connect(transport as unknown as Parameters<ClientV2['connect']>[0]);
          return client;
        },
      },
      {
        label: 'v1 client with initialize forced to 2025-06-18',
        revision: '2025-06-18',
        clientName: 'v1-tap-0618',
        notFoundCode: -32002,
        rewrite: forceInitialize('2025-06-18'),
        connect: async (transport) => {
          const client = v1('v1-tap-0618');
          await client.connect(transport as unknown as Parameters<ClientV1['connect']>[0]);
          return client;
        },
      },
    ];

    it.each(cases)('$label', async (c) => {
      const dir = await tracker();
      const transport = new TapTransport(processes.spawn(dir), c.rewrite);
      const modern = c.revision === '2026-07-28';
      await timed(`tap ${c.label}`, async () => {
        const client = await c.connect(transport);
        try {
          const id = await exercise(client, { label: c.label, era: modern ? 'modern' : 'legacy', clientName: c.clientName, dir, notFoundCode: c.notFoundCode });
          await client.extra?.(id);
        } finally {
          await client.close();
        }
      });
      expect(await transport.proc.exited).toEqual({ code: 0, signal: null }); // stdin EOF: a clean exit
      expect(transport.proc.stderr()).toBe('');

      // The client really spoke the era under test.
      const requests = transport.sent.filter((m) => typeof m.method === 'string' && m.id !== undefined);
      const methods = requests.map((m) => m.method!);
      if (modern) {
        expect(methods[0]).toBe('server/discover');
        expect(methods).not.toContain('initialize');
        for (const request of requests) expect(request.params?._meta).toMatchObject({ [MCP_META.protocolVersion]: PM_MCP_PROTOCOL_VERSION, [MCP_META.clientCapabilities]: expect.any(Object) });
      } else {
        expect(methods[0]).toBe('initialize');
        expect(requests[0]!.params?.protocolVersion).toBe(c.revision);
        for (const request of requests) expect(request.params?._meta?.[MCP_META.protocolVersion]).toBeUndefined();
      }

      const lines: WireLine[] = transport.wireLines(() => c.revision, c.revision);
      const parsed = lines.map((l) => JSON.parse(l.line) as WireMessage);
      if (!modern) {
        const init = parsed.find((m) => m.id === requests[0]!.id)!;
        expect(init.result).toMatchObject({ protocolVersion: c.revision, serverInfo: { name: 'pm' } });
      }
      // Every kind of result the session produced was checked against its definition.
      const checked = new Set(lines.filter((l) => l.method && l.line.includes('"result"')).map((l) => l.method));
      expect([...checked]).toEqual(expect.arrayContaining(['tools/list', 'tools/call', 'resources/read', 'resources/list', 'resources/templates/list', 'prompts/list', 'prompts/get', modern ? 'server/discover' : 'initialize']));
      expect(lines.every((l) => l.revision === c.revision)).toBe(true);
      for (const m of parsed.filter((p) => p.result)) {
        if (modern) expect(m.result).toMatchObject({ resultType: 'complete', _meta: { [MCP_META.serverInfo]: { name: 'pm' } } });
        else expect(m.result).not.toHaveProperty('resultType');
      }
      // A missing resource on the wire: -32602 with the uri (modern), -32002 (legacy).
      const notFound = parsed.find((m) => m.error && m.error.data?.uri === 'pm://items/pm-zzzzzz');
      expect(notFound?.error).toMatchObject({ code: modern ? -32602 : -32002, data: { uri: 'pm://items/pm-zzzzzz' } });
      expect(validateWireLines(lines)).toEqual([]);
    });
  });
});
