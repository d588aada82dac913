import { z } from 'zod';
import { hasMcpExtension, type JsonObject, type PmMcpMethodRegistry } from '../../../../src/domain/mcp/index.js';
import { McpHarness } from '../../../support/mcp-fake-server.js';

const EXT = 'com.example/widgets';
const withExt = (settings: JsonObject = {}) => ({ 'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXT]: settings } } });

function hooks(methods: PmMcpMethodRegistry): void {
  methods.registerExtensionMethod(EXT, {
    method: 'widgets/list',
    params: z.object({ cursor: z.string().optional() }),
    handle: (_params, ctx) => ({ body: { widgets: [], negotiated: ctx.extensions[EXT] ?? null } }),
  });
  methods.registerExtensionMethod(
    'com.example/strict',
    { method: 'strict/get', params: z.object({}), handle: () => ({ body: {} }) },
    () => {
      throw new RangeError('gate ran');
    },
  );
  methods.addListDecorator({
    id: EXT,
    method: 'tools/list',
    variant: (ctx) => (hasMcpExtension(ctx, EXT) ? 'on' : undefined),
    decorate: (items) => items.map((tool) => ({ ...tool, _meta: { 'com.example/widget': `ui://${String(tool.name)}` } })),
  });
  methods.addInterceptor({
    id: EXT,
    method: 'tools/call',
    variant: (ctx) => (hasMcpExtension(ctx, EXT) ? 'on' : undefined),
    intercept: async (params, _ctx, next) => {
      const call = params as { name: string; arguments?: JsonObject };
      if (call.name === 'echo') {
        if (call.arguments?.text === 'ask') return { resultType: 'input_required', body: { requestState: 'opaque' } };
        return next({ ...call, arguments: { text: `${String(call.arguments?.text)}!` } });
      }
      return next(params);
    },
  });
  methods.addResultShaper({
    id: EXT,
    method: 'tools/call',
    variant: (ctx) => (hasMcpExtension(ctx, EXT) ? 'on' : undefined),
    shape: (outcome) => (outcome.resultType === 'input_required' ? outcome : { ...outcome, body: { ...outcome.body, content: [{ type: 'text', text: 'see structuredContent' }] } }),
  });
}

let h: McpHarness;
beforeEach(() => {
  h = new McpHarness({ extensions: { [EXT]: {} } }, hooks);
});
afterEach(() => {
  expect(h.problems).toEqual([]);
});

describe('extension hooks', () => {
  test('an extension method needs the extension negotiated on this request (-32021 otherwise)', async () => {
    expect((await h.modern(1, 'widgets/list')).error).toEqual({
      code: -32021,
      message: `widgets/list needs the ${EXT} extension declared on the request`,
      data: { requiredCapabilities: { extensions: { [EXT]: {} } } },
    });
    expect((await h.modern(2, 'widgets/list', {}, withExt({ v: 1 }))).result).toMatchObject({ resultType: 'complete', widgets: [], negotiated: { v: 1 } });
    // A bare request for a modern-only method is a malformed modern request (it is told which _meta is missing) …
    expect((await h.legacy(3, 'widgets/list')).error).toMatchObject({ code: -32602, data: { field: 'io.modelcontextprotocol/protocolVersion' } });
    // … unless the transport says it is an initialize-era request: there the method does not exist.
    const legacyHttp = await h.send({ jsonrpc: '2.0', id: 4, method: 'widgets/list' }, '2025-11-25', { kind: 'http', headers: { 'mcp-protocol-version': '2025-11-25' } });
    expect(legacyHttp[0]!.value.error).toMatchObject({ code: -32601 });
  });
  test('a custom gate decides for its method', async () => {
    expect((await h.modern(1, 'strict/get')).error).toEqual({ code: -32603, message: 'Internal error' });
  });
  test('extensions the server does not offer are not negotiated', async () => {
    const plain = new McpHarness({}, hooks);
    expect((await plain.modern(1, 'widgets/list', {}, withExt())).error).toMatchObject({ code: -32021 });
    expect(plain.problems).toEqual([]);
  });
  test('discover advertises offered extensions', async () => {
    expect((await h.modern(1, 'server/discover')).result).toMatchObject({ capabilities: { extensions: { [EXT]: {} } } });
  });
  test('list decorators apply per request and bind cursors to their variant', async () => {
    const plain = await h.modern(1, 'tools/list');
    const decorated = await h.modern(2, 'tools/list', {}, withExt());
    const plainTools = (plain.result as { tools: JsonObject[] }).tools;
    const decoratedTools = (decorated.result as { tools: JsonObject[] }).tools;
    expect(plainTools[0]).not.toHaveProperty('_meta');
    expect(decoratedTools[0]).toMatchObject({ name: 'echo', _meta: { 'com.example/widget': 'ui://echo' } });
    const plainAgain = await h.modern(3, 'tools/list');
    expect(plainAgain.result).toEqual(plain.result);
    const crossed = await h.modern(4, 'tools/list', { cursor: (decorated.result as { nextCursor: string }).nextCursor });
    expect(crossed.error).toMatchObject({ code: -32602 });
    const next = await h.modern(5, 'tools/list', { cursor: (decorated.result as { nextCursor: string }).nextCursor }, withExt());
    expect((next.result as { tools: JsonObject[] }).tools[0]).toMatchObject({ name: 'boom', _meta: { 'com.example/widget': 'ui://boom' } });
  });
  test('interceptors can rewrite params or answer with an interim result; shapers rewrite outcomes', async () => {
    const shaped = await h.modern(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }, withExt());
    expect(shaped.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'see structuredContent' }], structuredContent: { text: 'hi!' } });
    const interim = await h.modern(2, 'tools/call', { name: 'echo', arguments: { text: 'ask' } }, withExt());
    expect(interim.result).toEqual({ resultType: 'input_required', requestState: 'opaque', _meta: expect.any(Object) });
    const untouched = await h.modern(3, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(untouched.result).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }], structuredContent: { text: 'hi' } });
  });
  test('registering a method twice is refused', () => {
    expect(() => h.methods.register({ method: 'tools/list', eras: ['modern'], params: z.object({}), handle: () => ({ body: {} }) })).toThrow(RangeError);
    expect(h.methods.methodNames).toEqual(expect.arrayContaining(['server/discover', 'initialize', 'ping', 'tools/call', 'widgets/list']));
  });
});
