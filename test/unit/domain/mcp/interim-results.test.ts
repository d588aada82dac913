/**
 * Interim results (seed 004 "MRTR, tasks, and cache behavior"): typed outcomes checked in one
 * place — only the methods that declare them may produce them, never on the legacy path (a
 * clear -32021 naming what to send instead, never an internal error), and a modern request
 * must have declared what the interim result needs.
 */
import { z } from 'zod';
import { McpUndeclaredInterimResultError, type JsonObject, type PmMcpMethodRegistry } from '../../../../src/domain/mcp/index.js';
import { McpHarness } from '../../../support/mcp-fake-server.js';

const ELICIT = { confirm: { method: 'elicitation/create', params: { mode: 'form', message: 'Delete it?', requestedSchema: { type: 'object', properties: {} } } } };

/** Interceptors that answer interim results for chosen tool names (every request: variant 'all'). */
function interim(methods: PmMcpMethodRegistry): void {
  methods.addInterceptor({
    id: 'test/interim',
    method: 'tools/call',
    variant: () => 'all',
    intercept: async (params, _ctx, next) => {
      const name = (params as { name: string }).name;
      if (name === 'echo') return next(params);
      if (name === 'fail') return { resultType: 'input_required', body: { inputRequests: ELICIT, requestState: 'sealed' } };
      return { resultType: 'task', body: { task: { taskId: 't1', status: 'working' } } };
    },
  });
  methods.register({ method: 'widgets/list', eras: ['modern', 'legacy'], params: z.object({}), handle: () => ({ resultType: 'input_required', body: { requestState: 'x' } }) });
}

let h: McpHarness;
beforeEach(() => {
  h = new McpHarness({}, interim);
});

describe('interim results', () => {
  test('a modern request that declared the needed capability gets input_required with its input requests', async () => {
    const reply = await h.modern(1, 'tools/call', { name: 'fail', arguments: { kind: 'validation' } }, { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
    expect(reply.result).toEqual({ resultType: 'input_required', inputRequests: ELICIT, requestState: 'sealed', _meta: expect.any(Object) });
    expect(h.problems).toEqual([]);
  });

  test('a modern request that did not declare it gets -32021 naming exactly what is missing', async () => {
    const reply = await h.modern(2, 'tools/call', { name: 'fail', arguments: { kind: 'validation' } });
    expect(reply.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } }, message: expect.stringContaining('elicitation') });
    const task = await h.modern(3, 'tools/call', { name: 'boom', arguments: {} });
    expect(task.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
  });

  test('on the legacy path an interim result is refused with -32021 naming the revision and capabilities to use', async () => {
    const reply = await h.legacy(4, 'tools/call', { name: 'fail', arguments: { kind: 'validation' } });
    const error = reply.error as { code: number; message: string; data: JsonObject };
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: { form: {} } }, requiredProtocolVersion: '2026-07-28' });
    expect(error.message).toMatch(/initialize-era requests cannot receive.*2026-07-28/);
    expect(h.internalErrors).toEqual([]);
    const task = await h.legacy(5, 'tools/call', { name: 'boom', arguments: {} });
    expect(task.error).toMatchObject({ code: -32021, data: { requiredProtocolVersion: '2026-07-28' } });
    expect(h.problems).toEqual([]);
  });

  test('a method that does not declare an interim type cannot produce it: a server fault, reported, -32603', async () => {
    const reply = await h.modern(6, 'widgets/list');
    expect(reply.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(h.internalErrors).toHaveLength(1);
    expect(h.internalErrors[0]).toBeInstanceOf(McpUndeclaredInterimResultError);
  });

  test('complete results pass untouched', async () => {
    expect((await h.legacy(7, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })).result).toMatchObject({ structuredContent: { text: 'hi' } });
  });
});
