/**
 * Every rule that depends on a method reads the method's own declaration: the era of a bare
 * request, the `Mcp-Name` header, the scope, the SSE requirement of a streaming answer,
 * readiness, and interim results. Registering one new method is the only edit needed.
 */
import { z } from 'zod';
import {
  admitMcpHttpMessage,
  MCP_MODERN_ONLY_METHODS,
  MCP_NAME_HEADER_SOURCE,
  PM_MCP_KNOWN_METHOD_SPECS,
  pmMcpRequiredScopes,
  PmMcpToolRegistry,
  type PmMcpMethodRegistry,
} from '../../../../src/domain/mcp/index.js';
import { McpHarness } from '../../../support/mcp-fake-server.js';

function widgets(methods: PmMcpMethodRegistry): void {
  methods.register({
    method: 'widgets/get',
    eras: ['modern'],
    nameSource: 'name',
    scope: 'write',
    beforeReady: true,
    interim: ['input_required'],
    params: z.object({ name: z.string() }),
    handle: (params) => (params.name === 'ask' ? { resultType: 'input_required', body: { requestState: 's' } } : { body: { widget: params.name } }),
  });
  methods.register({ method: 'widgets/watch', eras: ['modern'], streams: true, params: z.object({}), handle: () => ({ body: {} }) });
}

describe('method declarations', () => {
  test('the SDK tables are derived from the declarations it knows', () => {
    expect([...MCP_MODERN_ONLY_METHODS].sort()).toEqual(['server/discover', 'subscriptions/listen', 'tasks/update']);
    expect(MCP_NAME_HEADER_SOURCE).toEqual({ 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' });
    expect(PM_MCP_KNOWN_METHOD_SPECS.every((spec) => Object.isFrozen(spec))).toBe(true);
  });

  test('a registered method brings its rules with it: era, Mcp-Name, scope, streaming, readiness, interim results', async () => {
    let prepared = 0;
    const h = new McpHarness({ prepare: async () => void prepared++, tools: new PmMcpToolRegistry([]) }, widgets);
    const methods = h.methods;
    // Era: a bare request for a modern-only method is a malformed modern request, not an unknown legacy one.
    expect((await h.legacy(1, 'widgets/get', { name: 'w' })).error).toMatchObject({ code: -32602 });
    // Admission facts for a transport.
    const body = { id: 2, method: 'widgets/get', params: { name: 'w1' } };
    expect(methods.admission(body, 'modern')).toMatchObject({ kind: 'request', scope: 'write', nameSource: 'name', streams: false });
    expect(methods.admission({ id: 3, method: 'widgets/watch', params: {} }, 'modern')).toMatchObject({ scope: 'read', nameSource: undefined, streams: true });
    // Scope for authorization.
    expect(pmMcpRequiredScopes(body, methods)).toEqual(['pm:write']);
    // Streamable HTTP header rules and the SSE requirement.
    const headers = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'widgets/get' };
    expect(await admitMcpHttpMessage(methods.admission(body, 'modern'), headers)).toMatchObject({ rejection: { status: 400 } });
    expect(await admitMcpHttpMessage(methods.admission(body, 'modern'), { ...headers, 'Mcp-Name': 'w1' })).toMatchObject({ forms: { json: true } });
    const watch = methods.admission({ id: 4, method: 'widgets/watch', params: {} }, 'modern');
    expect(await admitMcpHttpMessage(watch, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'widgets/watch', accept: 'application/json' })).toMatchObject({ rejection: { status: 406 } });
    // Readiness: declared beforeReady, it runs without waiting for prepare.
    expect((await h.modern(5, 'widgets/get', { name: 'w1' })).result).toMatchObject({ widget: 'w1' });
    expect(prepared).toBe(0);
    // Interim results: declared, so allowed.
    expect((await h.modern(6, 'widgets/get', { name: 'ask' })).result).toMatchObject({ resultType: 'input_required', requestState: 's' });
    expect(h.problems).toEqual([]);
  });

  test('a registration without an era is refused', () => {
    const h = new McpHarness();
    expect(() => h.methods.register({ method: 'x/y', eras: [], params: z.object({}), handle: () => ({ body: {} }) })).toThrow(RangeError);
  });
});
