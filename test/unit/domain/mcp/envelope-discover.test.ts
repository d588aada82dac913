import { PmMcpMissingClientCapabilityError } from '../../../../src/domain/errors/index.js';
import {
  assertMcpClientCapabilities,
  buildMcpCompleteResult,
  buildMcpDiscoverResult,
  buildMcpEnvelope,
  buildMcpLegacyResult,
  buildMcpResult,
  buildMcpServerCapabilities,
  findMissingMcpClientCapabilities,
  hasMcpClientCapabilities,
  PM_MCP_MAX_INSTRUCTIONS_LENGTH,
} from '../../../../src/domain/mcp/index.js';
import { expectValidMcpMessage, mcpDefinition } from '../../../support/mcp-schema.js';

const serverInfo = { name: 'pm', version: '1.0.0' };
const response = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result });

describe('client capability checks (-32021)', () => {
  test('names exactly what is missing, as a ClientCapabilities map', () => {
    expect(findMissingMcpClientCapabilities({}, { elicitation: { form: {} } })).toEqual({ elicitation: { form: {} } });
    expect(findMissingMcpClientCapabilities({ elicitation: { url: {} } }, { elicitation: { form: {} } })).toEqual({ elicitation: { form: {} } });
    expect(findMissingMcpClientCapabilities({ extensions: { 'a.b/c': {} } }, { extensions: { 'a.b/c': {}, 'io.modelcontextprotocol/tasks': {} } })).toEqual({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
  });
  test('declared capabilities satisfy; elicitation {} means form mode', () => {
    expect(findMissingMcpClientCapabilities({ elicitation: {} }, { elicitation: { form: {} } })).toBeUndefined();
    expect(findMissingMcpClientCapabilities({ elicitation: {} }, { elicitation: { url: {} } })).toEqual({ elicitation: { url: {} } });
    expect(hasMcpClientCapabilities({ clientCapabilities: { roots: {}, sampling: { tools: {} } } }, { sampling: { tools: {} } })).toBe(true);
    expect(findMissingMcpClientCapabilities({ extensions: { x: { mimeTypes: ['a', 'b'] } } }, { extensions: { x: { mimeTypes: ['b'] } } })).toBeUndefined();
    expect(findMissingMcpClientCapabilities({ extensions: { x: { mimeTypes: ['a'] } } }, { extensions: { x: { mimeTypes: ['b'] } } })).toEqual({ extensions: { x: { mimeTypes: ['b'] } } });
  });
  test('assert throws -32021 whose wire form matches the schema', () => {
    let error: unknown;
    try {
      assertMcpClientCapabilities({ clientCapabilities: {} }, { elicitation: { form: {} } }, 'needs confirmation');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PmMcpMissingClientCapabilityError);
    const wire = (error as PmMcpMissingClientCapabilityError).toJsonRpcError();
    expect(wire).toEqual({ code: -32021, message: 'needs confirmation', data: { requiredCapabilities: { elicitation: { form: {} } } } });
    expectValidMcpMessage({ jsonrpc: '2.0', id: 1, error: wire }, '2026-07-28');
    expect(() => assertMcpClientCapabilities({ clientCapabilities: { elicitation: { form: {} } } }, { elicitation: { form: {} } })).not.toThrow();
  });
});

describe('result envelopes', () => {
  test('buildMcpCompleteResult adds resultType and serverInfo, keeping body _meta', () => {
    const result = buildMcpCompleteResult({ content: [], _meta: { 'com.example/x': 1 } }, { serverInfo });
    expect(result).toEqual({ resultType: 'complete', content: [], _meta: { 'com.example/x': 1, 'io.modelcontextprotocol/serverInfo': serverInfo } });
    expectValidMcpMessage(response(result), '2026-07-28', { method: 'tools/call' });
  });
  test('list/read results carry ttlMs and cacheScope', () => {
    const result = buildMcpCompleteResult({ tools: [] }, { serverInfo, cache: { ttlMs: 1000, cacheScope: 'public' } });
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 1000, cacheScope: 'public' });
    expectValidMcpMessage(response(result), '2026-07-28', { method: 'tools/list' });
  });
  test('a list result without cache fields is rejected by the schema (negative control)', () => {
    expect(mcpDefinition('2026-07-28', 'ListToolsResult')(buildMcpCompleteResult({ tools: [] }, { serverInfo }))).toBe(false);
  });
  test('cache fields are validated and refused on interim results', () => {
    expect(() => buildMcpCompleteResult({}, { cache: { ttlMs: -1, cacheScope: 'public' } })).toThrow(RangeError);
    expect(() => buildMcpCompleteResult({}, { cache: { ttlMs: 1.5, cacheScope: 'public' } })).toThrow(RangeError);
    expect(() => buildMcpCompleteResult({}, { cache: { ttlMs: 1, cacheScope: 'shared' as 'public' } })).toThrow(RangeError);
    expect(() => buildMcpResult('input_required', { requestState: 's' }, { cache: { ttlMs: 1, cacheScope: 'private' } })).toThrow(RangeError);
    expect(buildMcpResult('input_required', { requestState: 's' }, { serverInfo })).toMatchObject({ resultType: 'input_required', requestState: 's' });
  });
  test('legacy results drop modern-only members', () => {
    const modern = buildMcpCompleteResult({ tools: [] }, { serverInfo, cache: { ttlMs: 1, cacheScope: 'public' } });
    expect(buildMcpLegacyResult(modern)).toEqual({ tools: [] });
    expect(buildMcpLegacyResult({ content: [], _meta: { 'com.example/x': 1, 'io.modelcontextprotocol/serverInfo': serverInfo } })).toEqual({ content: [], _meta: { 'com.example/x': 1 } });
    expect(buildMcpEnvelope('legacy', 'complete', { tools: [], resultType: 'complete' }, { serverInfo })).toEqual({ tools: [] });
    expect(() => buildMcpEnvelope('legacy', 'input_required', {}, {})).toThrow(RangeError);
    expectValidMcpMessage(response(buildMcpLegacyResult(modern)), '2025-11-25', { method: 'tools/list' });
  });
});

describe('server/discover', () => {
  const capabilities = buildMcpServerCapabilities({
    tools: true,
    resources: true,
    prompts: true,
    completions: true,
    toolsListChanged: true,
    extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] }, 'io.modelcontextprotocol/tasks': {} },
  });

  test('lists only modern versions, deterministic capabilities, public cache, identity in _meta', () => {
    const result = buildMcpDiscoverResult({ serverInfo, capabilities, instructions: 'Use pm_list first.' });
    expect(result).toEqual({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: {
        completions: {},
        extensions: { 'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
        prompts: {},
        resources: {},
        tools: { listChanged: true },
      },
      instructions: 'Use pm_list first.',
      ttlMs: 3_600_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
    });
    expect(Object.keys((result.capabilities as Record<string, unknown>).extensions as object)).toEqual(['io.modelcontextprotocol/tasks', 'io.modelcontextprotocol/ui']);
    expect(JSON.stringify(buildMcpDiscoverResult({ serverInfo, capabilities, instructions: 'Use pm_list first.' }))).toBe(JSON.stringify(result));
    expectValidMcpMessage(response(result), '2026-07-28', { method: 'server/discover' });
  });

  test('legacy capabilities have no extensions; instructions are bounded', () => {
    expect(buildMcpServerCapabilities({ tools: true, extensions: { 'a.b/c': {} } }, false)).toEqual({ tools: {} });
    expect(() => buildMcpDiscoverResult({ serverInfo, capabilities, instructions: 'x'.repeat(PM_MCP_MAX_INSTRUCTIONS_LENGTH + 1) })).toThrow(RangeError);
    expect(buildMcpDiscoverResult({ serverInfo, capabilities, ttlMs: 5 })).not.toHaveProperty('instructions');
  });
});
