/**
 * The discovery extension over the real dispatcher and pm's tracker tools (every written
 * message is checked against the official 2026-07-28 or 2025-11-25 schema): negotiated
 * requests get the entry catalogue, pm_discover and canonical results; unnegotiated and
 * initialize-era requests get exactly the bytes of a server without the extension, in
 * whatever order the two kinds of request come and however often they repeat (memoized lists,
 * pm_get and pm_discover answers included).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import {
  estimatePmMcpJsonTokens,
  PM_CANONICAL_RESULT_POINTER,
  PM_DISCOVER_TOOL_NAME,
  PM_TOOL_DISCOVERY_EXTENSION_ID,
  PM_TOOL_DISCOVERY_SERVER_CAPABILITY,
  pmCanonicalOutputSchema,
  pmMcpToolDiscoveryExtension,
} from '../../../../src/domain/discovery/index.js';
import { PM_MCP_PROFILE_TOOLS } from '../../../../src/domain/mcp-tracker/index.js';
import { cachedAndPlain } from '../../../support/cache-comparison.js';
import { expectCleanHarness, TrackerMcpHarness, type Message } from '../../../support/mcp-tracker-harness.js';

const NEGOTIATED = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [PM_TOOL_DISCOVERY_EXTENSION_ID]: {} } } };
const ENTRY = [PM_DISCOVER_TOOL_NAME, 'pm_context', 'pm_next', 'pm_get', 'pm_search'];

async function pair(profile = 'standard') {
  const plain = await TrackerMcpHarness.create({ profile });
  const h = await TrackerMcpHarness.create({ profile, serverExtensions: () => [pmMcpToolDiscoveryExtension({ hasher: new PureSha256Hasher(), profile })] });
  return { plain, h, ids: await h.seed(), plainIds: await plain.seed() };
}

/** A response without its id, as text (two servers' answers compare byte for byte). */
const bytes = (m: Message) => JSON.stringify({ ...m, id: null });
const result = (m: Message) => m.result as Record<string, unknown> & { tools?: Record<string, unknown>[]; content?: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

let env: Awaited<ReturnType<typeof pair>>;
beforeEach(async () => {
  env = await pair();
});
afterEach(() => {
  expectCleanHarness(env.h);
  expectCleanHarness(env.plain);
});

describe('negotiation', () => {
  test('server/discover advertises the extension and its settings', async () => {
    const discover = await env.h.modern('server/discover');
    expect(result(discover).capabilities).toMatchObject({ extensions: { [PM_TOOL_DISCOVERY_EXTENSION_ID]: PM_TOOL_DISCOVERY_SERVER_CAPABILITY } });
  });

  test('negotiated tools/list: the five-tool entry catalogue, without output schemas', async () => {
    const tools = result(await env.h.modern('tools/list', {}, NEGOTIATED)).tools!;
    expect(tools.map((t) => t.name)).toEqual(ENTRY);
    for (const tool of tools) expect(tool).not.toHaveProperty('outputSchema');
    const plainTools = result(await env.plain.modern('tools/list')).tools!;
    for (const tool of tools.slice(1)) {
      const { outputSchema: _o, ...full } = plainTools.find((t) => t.name === tool.name)!;
      expect(tool).toEqual(full);
    }
  });

  test('the entry catalogue costs at most 15% of the core profile tools/list (estimated)', async () => {
    const core = await pair('core');
    const entry = estimatePmMcpJsonTokens(result(await core.h.modern('tools/list', {}, NEGOTIATED)).tools);
    const full = estimatePmMcpJsonTokens(result(await core.plain.modern('tools/list')).tools);
    expect(result(await core.plain.modern('tools/list')).tools).toHaveLength(PM_MCP_PROFILE_TOOLS.core.length);
    expect(entry / full).toBeLessThanOrEqual(0.15);
  });

  test('unnegotiated and initialize-era tools/list are byte-identical to a server without the extension', async () => {
    expect(bytes(await env.h.modern('tools/list'))).toBe(bytes(await env.plain.modern('tools/list')));
    expect(bytes(await env.h.legacy('tools/list'))).toBe(bytes(await env.plain.legacy('tools/list')));
    expect(result(await env.h.modern('tools/list')).tools!.map((t) => t.name)).toEqual([...PM_MCP_PROFILE_TOOLS.standard]);
  });

  test('pm_discover does not exist for unnegotiated requests: -32602 unknown tool, like a tool outside the profile', async () => {
    for (const reply of [await env.h.modern('tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: {} }), await env.h.legacy('tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: {} })]) {
      expect(reply.error).toMatchObject({ code: -32602, message: `Unknown tool: ${PM_DISCOVER_TOOL_NAME}` });
    }
  });
});

describe('tool results', () => {
  test('negotiated: the value once, as structuredContent.result, and a pointer as text; it matches the wrapped output schema', async () => {
    const ajv = new Ajv2020({ strict: false });
    const plainTools = result(await env.plain.modern('tools/list')).tools!;
    const calls: [string, Record<string, unknown>][] = [['pm_get', { id: env.ids.a }], ['pm_list', {}], ['pm_claim', { id: env.ids.c }], ['pm_history', { id: env.ids.a }]];
    for (const [name, args] of calls) {
      const negotiated = result(await env.h.modern('tools/call', { name, arguments: args }, NEGOTIATED));
      const plain = result(await env.plain.modern('tools/call', { name, arguments: args }));
      expect({ name, content: negotiated.content }).toEqual({ name, content: [{ type: 'text', text: PM_CANONICAL_RESULT_POINTER }] });
      expect({ name, value: negotiated.structuredContent }).toEqual({ name, value: { result: plain.structuredContent } });
      const schema = plainTools.find((t) => t.name === name)!.outputSchema as Record<string, unknown>;
      expect({ name, valid: ajv.validate(pmCanonicalOutputSchema(schema), negotiated.structuredContent) }).toEqual({ name, valid: true });
    }
  });

  test('a tool outside the entry catalogue is callable without discovering it first: discovery is a view', async () => {
    const reply = result(await env.h.modern('tools/call', { name: 'pm_close', arguments: { id: env.ids.c, evidence: 'commit abc123' } }, NEGOTIATED));
    expect(reply.isError).toBeUndefined();
    expect((reply.structuredContent!.result as { item: { status: string } }).item.status).toBe('closed');
  });

  test('the profile still bounds what exists: a tool outside it is -32602 for negotiated requests too', async () => {
    expect((await env.h.modern('tools/call', { name: 'pm_delete', arguments: { id: env.ids.c } }, NEGOTIATED)).error).toMatchObject({ code: -32602 });
  });

  test('unnegotiated modern and initialize-era results are byte-identical to a server without the extension', async () => {
    for (const [name, args] of [['pm_get', { id: env.ids.a }], ['pm_list', { all: true }], ['pm_search', { query: 'tools' }], ['pm_claim', { id: env.ids.c }]] as const) {
      expect(bytes(await env.h.modern('tools/call', { name, arguments: args }))).toBe(bytes(await env.plain.modern('tools/call', { name, arguments: args })));
      expect(bytes(await env.h.legacy('tools/call', { name, arguments: args }))).toBe(bytes(await env.plain.legacy('tools/call', { name, arguments: args })));
    }
  });

  test('a tool failure keeps its message text (it copies nothing) and carries no structured content', async () => {
    const reply = result(await env.h.modern('tools/call', { name: 'pm_get', arguments: { id: 'pm-zzzzzzzz' } }, NEGOTIATED));
    expect(reply.isError).toBe(true);
    expect(reply.content![0]!.text).toContain('no item pm-zzzzzzzz');
    expect(reply).not.toHaveProperty('structuredContent');
  });
});

describe('pm_discover over the dispatcher', () => {
  const call = (args: Record<string, unknown>) => env.h.modern('tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: args }, NEGOTIATED);

  test('answers canonically, with the ranked tools and a receipt', async () => {
    const reply = result(await call({ need: 'close an item with evidence' }));
    expect(reply.content).toEqual([{ type: 'text', text: PM_CANONICAL_RESULT_POINTER }]);
    const answer = reply.structuredContent!.result as { tools: { name: string }[]; receipt: { estimatedTokens: number; profile: string } };
    expect(answer.tools[0]!.name).toBe('pm_close');
    expect(answer.receipt).toMatchObject({ profile: 'standard' });
    expect(answer.receipt.estimatedTokens).toBe(estimatePmMcpJsonTokens(answer));
  });

  test('invalid argument values are a tool error the model can read; unknown arguments are -32602', async () => {
    const bad = result(await call({ limit: 'many' }));
    expect(bad.isError).toBe(true);
    expect(bad.content![0]!.text).toContain('Invalid arguments for pm_discover');
    const unknown = await call({ need: 'close', colour: 'blue' });
    expect(unknown.error).toMatchObject({ code: -32602, message: "Invalid arguments for pm_discover: unknown argument 'colour'; declared arguments: need, names, limit, tokenBudget, outputSchema, cursor", data: { unknown: ['colour'] } });
  });

  test('a foreign or malformed cursor is a protocol error, -32602', async () => {
    const reply = await call({ cursor: 'bogus!' });
    expect(reply.error).toMatchObject({ code: -32602, data: { problem: 'malformed' } });
    const first = result(await call({ limit: 1 })).structuredContent!.result as { nextCursor: string };
    expect((await call({ need: 'other', cursor: first.nextCursor })).error).toMatchObject({ code: -32602, data: { problem: 'other_query' } });
  });
});

describe('no bytes shared between negotiated and plain requests', () => {
  test('lists, memoized pm_get and pm_discover answers, in both orders, repeated', async () => {
    const round: [string, Record<string, unknown>][] = [
      ['tools/list', {}],
      ['tools/call', { name: 'pm_get', arguments: { id: env.ids.a } }],
      ['tools/call', { name: 'pm_list', arguments: {} }],
      ['tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: { need: 'close' } }],
    ];
    for (const order of [['plain', 'negotiated'], ['negotiated', 'plain']] as const) {
      for (let repeat = 0; repeat < 2; repeat++) {
        for (const [method, params] of round) {
          const pristine = bytes(await env.plain.modern(method, params));
          for (const kind of order) {
            const reply = await env.h.modern(method, params, kind === 'negotiated' ? NEGOTIATED : {});
            if (kind === 'plain') expect({ method, params, reply: bytes(reply) }).toEqual({ method, params, reply: pristine });
            else expect({ method, params, changed: bytes(reply) !== pristine }).toEqual({ method, params, changed: true });
          }
        }
      }
    }
  });

  test('the same answers with every cache bypassed', async () => {
    const scenario = async () => {
      const { h, ids } = await pair();
      const out: string[] = [];
      for (const meta of [NEGOTIATED, {}, NEGOTIATED]) {
        out.push(bytes(await h.modern('tools/list', {}, meta)));
        out.push(bytes(await h.modern('tools/call', { name: 'pm_get', arguments: { id: ids.a } }, meta)));
        out.push(bytes(await h.modern('tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: { need: 'claim' } }, NEGOTIATED)));
      }
      return out;
    };
    const { cached, plain } = await cachedAndPlain(scenario);
    expect(plain).toEqual(cached);
  });
});
