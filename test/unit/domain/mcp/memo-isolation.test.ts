/**
 * The dispatcher's memo is keyed by the identity and variant of every hook that ran, so two
 * requests that differ only in what they negotiated never share serialized bytes; a hook that
 * cannot name its variant turns memoizing off for what it touched. Each case runs both orders.
 */
import { hasMcpExtension, type JsonObject, type McpRequestContext, type PmMcpMethodRegistry } from '../../../../src/domain/mcp/index.js';
import { McpHarness } from '../../../support/mcp-fake-server.js';

const EXT = 'com.example/shaped';
const NEGOTIATED = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXT]: { level: 1 } } } };
const LEVEL_TWO = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXT]: { level: 2 } } } };
const level = (ctx: McpRequestContext) => (hasMcpExtension(ctx, EXT) ? String(ctx.extensions[EXT]!.level) : undefined);

function shaper(methods: PmMcpMethodRegistry): void {
  methods.addResultShaper({ id: EXT, method: 'tools/list', variant: level, shape: (outcome, ctx) => ({ ...outcome, body: { ...outcome.body, _meta: { shaped: level(ctx)! } } }) });
}

function interceptor(methods: PmMcpMethodRegistry): void {
  methods.addInterceptor({
    id: EXT,
    method: 'prompts/list',
    variant: level,
    intercept: async (params, ctx, next) => {
      const outcome = await next(params);
      return { ...outcome, body: { ...outcome.body, prompts: [{ name: `intercepted-${level(ctx)}` }] } } as typeof outcome;
    },
  });
}

async function listOf(h: McpHarness, id: number, method: string, meta: JsonObject = {}): Promise<unknown> {
  const { id: _id, ...rest } = await h.modern(id, method, {}, meta);
  return rest;
}

describe('memoized results and hooks', () => {
  test.each([
    ['shaper', 'tools/list', shaper],
    ['interceptor', 'prompts/list', interceptor],
  ] as const)('a %s: plain requests never get shaped bytes, whatever the order', async (_kind, method, configure) => {
    const pristine = await listOf(new McpHarness(), 1, method);
    for (const first of ['plain', 'negotiated'] as const) {
      const h = new McpHarness({ extensions: { [EXT]: {} } }, configure);
      const results: { plain: unknown[]; one: unknown[]; two: unknown[] } = { plain: [], one: [], two: [] };
      const order = first === 'plain' ? ['plain', 'one', 'two'] : ['two', 'one', 'plain'];
      for (let round = 0; round < 3; round++) {
        for (const kind of order as ('plain' | 'one' | 'two')[]) results[kind].push(await listOf(h, round * 10 + order.indexOf(kind), method, kind === 'plain' ? {} : kind === 'one' ? NEGOTIATED : LEVEL_TWO));
      }
      expect(results.plain).toEqual([pristine, pristine, pristine]);
      expect(JSON.stringify(results.one)).toContain('1');
      expect(results.one[0]).not.toEqual(pristine);
      expect(results.two[0]).not.toEqual(results.one[0]); // two variants of one hook are kept apart too
      expect(new Set(results.one.map((r) => JSON.stringify(r))).size).toBe(1);
      expect(h.problems).toEqual([]);
    }
  });

  test('a hook that forbids memoizing: every request it touched is computed afresh', async () => {
    let calls = 0;
    const h = new McpHarness({ extensions: { [EXT]: {} } }, (methods) =>
      methods.addResultShaper({
        id: EXT,
        method: 'tools/list',
        variant: level,
        memoizable: false,
        shape: (outcome) => ({ ...outcome, body: { ...outcome.body, _meta: { call: ++calls } } }),
      }),
    );
    const first = await listOf(h, 1, 'tools/list', NEGOTIATED);
    const second = await listOf(h, 2, 'tools/list', NEGOTIATED);
    expect(first).not.toEqual(second);
    expect(calls).toBe(2);
    expect(await listOf(h, 3, 'tools/list')).toEqual(await listOf(new McpHarness(), 1, 'tools/list'));
  });
});
