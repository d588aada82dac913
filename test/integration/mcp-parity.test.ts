/**
 * Transport parity: the same request fixtures replayed through stdio and HTTP give the same
 * results and error codes (seed 004 "Decision": pm-mcp-http binds the *same* dispatcher to
 * HTTP). One real `pm-mcp` (stdio) and one real `pm-mcp-http` serve two identical,
 * freshly initialized temp trackers; the same fixtures — modern reads and writes, tool failures,
 * every protocol error, and the initialize-era legacy path — are replayed through both, in the
 * same order, and the answers must be identical once volatile values are normalized (item ids,
 * receipt ids, timestamps, hashes). Every answer is also validated against its era's schema.
 */
import { buildMcpHttpRequestHeaders, MCP_META } from '../../src/domain/mcp/index.js';
import { checkMcpMessage, type McpSchemaRevision } from '../support/mcp-schema.js';
import { httpPost, McpHttpProcesses, type HttpServerProcess, type LooseJson } from '../support/mcp-http.js';
import { makeTempTracker, McpProcesses, modernMeta, type McpProcess } from '../support/mcp-stdio.js';

type Json = LooseJson;

/** What a fixture may refer to: values the same transport answered earlier. */
interface FixtureContext {
  created?: string;
  schemas: Record<string, object>;
}

interface Fixture {
  readonly name: string;
  readonly revision: McpSchemaRevision;
  /** The JSON-RPC message (with request id `id`), or raw text for a malformed frame. */
  readonly message: (ctx: FixtureContext, id: number) => Json | string;
  /** HTTP headers for messages that are not conformant modern requests (legacy, malformed). */
  readonly httpHeaders?: Record<string, string>;
  readonly after?: (answer: Json, ctx: FixtureContext) => void;
  /** The JSON-RPC error code both transports must answer with (absent: a result). */
  readonly code?: number;
}

const CLIENT = 'parity-client';
type Build = (ctx: FixtureContext, id: number) => Json;
const modern = (method: string, params: Json = {}, meta: Json = {}): Build => (_ctx, id) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta(meta, CLIENT) } });
const legacy = (method: string, params?: Json): Build => (_ctx, id) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
const LEGACY_HEADERS = { 'MCP-Protocol-Version': '2025-11-25' };
const MODERN_HEADERS = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' };

const FIXTURES: Fixture[] = [
  { name: 'server/discover', revision: '2026-07-28', message: modern('server/discover') },
  {
    name: 'tools/list',
    revision: '2026-07-28',
    message: modern('tools/list'),
    after: (answer, ctx) => {
      for (const tool of answer.result.tools as { name: string; inputSchema: object }[]) ctx.schemas[tool.name] = tool.inputSchema;
    },
  },
  { name: 'resources/list', revision: '2026-07-28', message: modern('resources/list') },
  { name: 'resources/templates/list', revision: '2026-07-28', message: modern('resources/templates/list') },
  { name: 'prompts/list', revision: '2026-07-28', message: modern('prompts/list') },
  { name: 'pm_context (read tool)', revision: '2026-07-28', message: modern('tools/call', { name: 'pm_context', arguments: {} }) },
  {
    name: 'pm_create (write tool)',
    revision: '2026-07-28',
    message: modern('tools/call', { name: 'pm_create', arguments: { title: 'parity item', priority: 2, tags: ['parity'], body: 'same on both transports' } }),
    after: (answer, ctx) => {
      ctx.created = answer.result.structuredContent.item.id as string;
    },
  },
  { name: 'pm_get (x-mcp-header argument)', revision: '2026-07-28', message: (ctx, id) => modern('tools/call', { name: 'pm_get', arguments: { id: ctx.created } })(ctx, id) },
  { name: 'pm_list', revision: '2026-07-28', message: modern('tools/call', { name: 'pm_list', arguments: {} }) },
  { name: 'pm_update', revision: '2026-07-28', message: (ctx, id) => modern('tools/call', { name: 'pm_update', arguments: { id: ctx.created, title: 'renamed', expectedRevision: 1 } })(ctx, id) },
  { name: 'pm_update with a stale revision (tool failure)', revision: '2026-07-28', message: (ctx, id) => modern('tools/call', { name: 'pm_update', arguments: { id: ctx.created, title: 'again', expectedRevision: 1 } })(ctx, id) },
  { name: 'pm_get of a missing item (tool failure)', revision: '2026-07-28', message: modern('tools/call', { name: 'pm_get', arguments: { id: 'pm-zzzzzz' } }) },
  { name: 'pm_create with invalid arguments (tool failure)', revision: '2026-07-28', message: modern('tools/call', { name: 'pm_create', arguments: { priority: 'high' } }) },
  { name: 'unknown tool (-32602)', code: -32602, revision: '2026-07-28', message: modern('tools/call', { name: 'pm_nope', arguments: {} }) },
  { name: 'resources/read pm://context', revision: '2026-07-28', message: modern('resources/read', { uri: 'pm://context' }) },
  { name: 'resources/read an item', revision: '2026-07-28', message: (ctx, id) => modern('resources/read', { uri: `pm://items/${ctx.created}` })(ctx, id) },
  { name: 'resources/read a missing item (-32602)', code: -32602, revision: '2026-07-28', message: modern('resources/read', { uri: 'pm://items/pm-zzzzzz' }) },
  { name: 'prompts/get', revision: '2026-07-28', message: (ctx, id) => modern('prompts/get', { name: 'claim-and-start', arguments: { id: ctx.created } })(ctx, id) },
  { name: 'prompts/get unknown (-32602)', code: -32602, revision: '2026-07-28', message: modern('prompts/get', { name: 'nope' }) },
  { name: 'completion/complete', revision: '2026-07-28', message: modern('completion/complete', { ref: { type: 'ref/resource', uri: 'pm://items/{id}' }, argument: { name: 'id', value: 'pm-' } }) },
  { name: 'invalid cursor (-32602)', code: -32602, revision: '2026-07-28', message: modern('tools/list', { cursor: 'bogus' }) },
  { name: 'unknown method (-32601)', code: -32601, revision: '2026-07-28', message: modern('tools/frobnicate') },
  { name: 'removed method ping (-32601)', code: -32601, revision: '2026-07-28', message: modern('ping') },
  { name: 'unsupported version (-32022)', code: -32022, revision: '2026-07-28', message: modern('tools/list', {}, { [MCP_META.protocolVersion]: '2027-01-01' }) },
  { name: 'malformed _meta (-32602)', code: -32602, revision: '2026-07-28', message: (_ctx, id) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: { [MCP_META.protocolVersion]: '2026-07-28' } } }), httpHeaders: MODERN_HEADERS },
  { name: 'missing client capability (-32021)', code: -32021, revision: '2026-07-28', message: modern('subscriptions/listen', { notifications: { taskIds: ['t'] } }) },
  { name: 'invalid request (-32600)', code: -32600, revision: '2026-07-28', message: () => ({ jsonrpc: '2.0', id: null, method: 'tools/list' }), httpHeaders: MODERN_HEADERS },
  { name: 'parse error (-32700)', code: -32700, revision: '2026-07-28', message: () => '{"jsonrpc":"2.0","id":', httpHeaders: MODERN_HEADERS },
  { name: 'legacy initialize 2025-11-25', revision: '2025-11-25', message: legacy('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: CLIENT, version: '1.0.0' } }) },
  { name: 'legacy tools/list', revision: '2025-11-25', message: legacy('tools/list'), httpHeaders: LEGACY_HEADERS },
  { name: 'legacy pm_context', revision: '2025-11-25', message: legacy('tools/call', { name: 'pm_context', arguments: {} }), httpHeaders: LEGACY_HEADERS },
  { name: 'legacy missing resource (-32002)', code: -32002, revision: '2025-11-25', message: legacy('resources/read', { uri: 'pm://items/pm-zzzzzz' }), httpHeaders: LEGACY_HEADERS },
  { name: 'legacy ping', revision: '2025-11-25', message: legacy('ping'), httpHeaders: LEGACY_HEADERS },
  { name: 'legacy initialize with an unknown revision (-32022)', code: -32022, revision: '2025-11-25', message: legacy('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: CLIENT, version: '1.0.0' } }) },
];

/** Replaces values that legitimately differ between two trackers: ids, timestamps, digests. */
function normalize(answer: Json): Json {
  const ids = new Map<string, string>();
  const text = (value: string): string =>
    value
      .replace(/(?<![A-Za-z0-9])pm-(?!zzzzzz(?![a-z0-9]))[a-z0-9]{4,}(?![a-z0-9])/g, (id) => {
        if (!ids.has(id)) ids.set(id, `<item-${ids.size + 1}>`);
        return ids.get(id)!;
      })
      .replace(/(?<![A-Za-z0-9])rcpt-[a-z0-9]+/g, '<receipt>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<time>')
      .replace(/\b[0-9a-f]{16,}\b/g, '<hex>');
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(answer) as Json;
}

async function stdioAnswer(proc: McpProcess, frame: string): Promise<Json> {
  const before = proc.lines.length;
  proc.writeLine(frame);
  const line = await proc.waitForLine((l) => proc.lines.indexOf(l, before) >= before && !('method' in (JSON.parse(l) as Json)), 20_000, 'an answer');
  return JSON.parse(line) as Json;
}

describe('the same fixtures through pm-mcp (stdio) and pm-mcp-http (HTTP)', () => {
  const stdioProcesses = new McpProcesses();
  const httpProcesses = new McpHttpProcesses();
  const cleanups: (() => Promise<void>)[] = [];
  let stdio: McpProcess;
  let http: HttpServerProcess;

  beforeAll(async () => {
    const a = await makeTempTracker('pm-parity-stdio-');
    const b = await makeTempTracker('pm-parity-http-');
    cleanups.push(a.remove, b.remove);
    stdio = stdioProcesses.spawn(a.dir, { PM_ACTOR: 'parity' });
    http = await httpProcesses.start(b.dir, { PM_ACTOR: 'parity' });
  });
  afterAll(async () => {
    await stdioProcesses.killAll();
    await httpProcesses.killAll();
    await Promise.all(cleanups.map((c) => c()));
  });

  test('results and error codes are identical after normalization, and valid for their era', async () => {
    const stdioCtx: FixtureContext = { schemas: {} };
    const httpCtx: FixtureContext = { schemas: {} };
    const differences: string[] = [];
    const problems: string[] = [];
    for (const [index, fixture] of FIXTURES.entries()) {
      const stdioMessage = fixture.message(stdioCtx, index + 1);
      const httpMessage = fixture.message(httpCtx, index + 1);
      const stdioFrame = typeof stdioMessage === 'string' ? stdioMessage : JSON.stringify(stdioMessage);
      const stdioReply = await stdioAnswer(stdio, stdioFrame);
      let headers: Record<string, string>;
      if (fixture.httpHeaders) headers = fixture.httpHeaders;
      else if (typeof httpMessage === 'string' || fixture.revision !== '2026-07-28') headers = {};
      else {
        const name = (httpMessage.params as Json | undefined)?.name;
        const schema = httpMessage.method === 'tools/call' && typeof name === 'string' ? httpCtx.schemas[name] : undefined;
        headers = buildMcpHttpRequestHeaders(httpMessage as { method: string }, schema ? { toolInputSchema: schema } : {});
      }
      const reply = await httpPost(http.url, httpMessage, headers);
      const httpReply = reply.body ?? reply.events[reply.events.length - 1]!;
      const method = typeof stdioMessage === 'string' ? undefined : (stdioMessage.method as string);
      for (const [where, answer] of [['stdio', stdioReply], ['http', httpReply]] as const) {
        const found = checkMcpMessage(answer, fixture.revision, method && 'result' in answer ? { method } : {});
        if (found.length) problems.push(`${fixture.name} (${where}): ${found.join('; ')}`);
      }
      if ('result' in stdioReply) fixture.after?.(stdioReply, stdioCtx);
      if ('result' in httpReply) fixture.after?.(httpReply, httpCtx);
      // ids are assigned per transport in the same order, so they match too.
      const left = normalize(stdioReply);
      const right = normalize(httpReply);
      if (JSON.stringify(left) !== JSON.stringify(right)) differences.push(`${fixture.name}:\n  stdio ${JSON.stringify(left).slice(0, 600)}\n  http  ${JSON.stringify(right).slice(0, 600)}`);
      expect({ fixture: fixture.name, stdio: stdioReply.error?.code, http: httpReply.error?.code }).toEqual({ fixture: fixture.name, stdio: fixture.code, http: fixture.code });
    }
    expect(differences).toEqual([]);
    expect(problems).toEqual([]);
    expect(stdioCtx.created).toMatch(/^pm-/);
    expect(httpCtx.created).toMatch(/^pm-/);
  });
});
