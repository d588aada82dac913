import { PmMcpInvalidParamsError, PmMcpUnsupportedProtocolVersionError } from '../../../../src/domain/errors/index.js';
import {
  decideMcpEra,
  hasMcpExtension,
  MCP_META,
  PM_MCP_LEGACY_PROTOCOL_VERSIONS,
  PM_MCP_PROTOCOL_VERSION,
  PM_MCP_SUPPORTED_PROTOCOL_VERSIONS,
  resolveMcpRequestContext,
  type McpInboundMessage,
} from '../../../../src/domain/mcp/index.js';
import type { TransportFacts } from '../../../../src/ports/transport.js';
import { MODERN_META } from '../../../support/mcp-fake-server.js';

const stdio: TransportFacts = { kind: 'stdio' };
const request = (method: string, meta?: Record<string, unknown>, params: Record<string, unknown> = {}): McpInboundMessage => ({
  id: 1,
  method,
  params: meta === undefined ? params : { ...params, _meta: meta },
});

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('protocol constants', () => {
  test('canonical and legacy revisions are declared once, newest first, frozen', () => {
    expect(PM_MCP_PROTOCOL_VERSION).toBe('2026-07-28');
    expect(PM_MCP_LEGACY_PROTOCOL_VERSIONS).toEqual(['2025-11-25', '2025-06-18']);
    expect(Object.isFrozen(PM_MCP_LEGACY_PROTOCOL_VERSIONS)).toBe(true);
    expect(PM_MCP_SUPPORTED_PROTOCOL_VERSIONS).toEqual(['2026-07-28']);
    expect(MCP_META.serverInfo).toBe('io.modelcontextprotocol/serverInfo');
  });
});

describe('decideMcpEra', () => {
  test('modern when any modern request _meta key is present', () => {
    expect(decideMcpEra(request('tools/list', MODERN_META), stdio)).toBe('modern');
    expect(decideMcpEra(request('tools/list', { [MCP_META.clientCapabilities]: {} }), stdio)).toBe('modern');
    expect(decideMcpEra(request('initialize', MODERN_META), stdio)).toBe('modern');
  });
  test('legacy for initialize, unversioned requests and legacy-only _meta keys', () => {
    expect(decideMcpEra(request('initialize'), stdio)).toBe('legacy');
    expect(decideMcpEra(request('tools/list'), stdio)).toBe('legacy');
    expect(decideMcpEra(request('tools/list', { progressToken: 1, 'io.modelcontextprotocol/related-task': {} }), stdio)).toBe('legacy');
  });
  test('modern-only methods are modern even without _meta', () => {
    expect(decideMcpEra(request('server/discover'), stdio)).toBe('modern');
    expect(decideMcpEra(request('subscriptions/listen'), stdio)).toBe('modern');
  });
  test('HTTP: a legacy version header keeps the legacy path, any other header selects modern', () => {
    expect(decideMcpEra(request('tools/list'), { kind: 'http', headers: { 'mcp-protocol-version': '2025-06-18' } })).toBe('legacy');
    expect(decideMcpEra(request('tools/list'), { kind: 'http', headers: { 'MCP-Protocol-Version': '2026-07-28' } })).toBe('modern');
    expect(decideMcpEra(request('initialize'), { kind: 'http', headers: { 'mcp-protocol-version': '2026-07-28' } })).toBe('legacy');
  });
});

describe('decideMcpEra — inside an initialized legacy session (seed 004 "Legacy boundary")', () => {
  // Mastra's legacy mode: initialize with 2025-11-25, then tools/list with logLevel and no protocolVersion.
  const mastra = request('tools/list', { [MCP_META.logLevel]: 'info' });
  test('outside a session, a modern key without protocolVersion stays modern (the client is told what is missing)', () => {
    expect(decideMcpEra(mastra, stdio)).toBe('modern');
  });
  test('after initialize on stdio, a request without protocolVersion is legacy whatever other modern keys it holds', () => {
    expect(decideMcpEra(mastra, stdio, undefined, true)).toBe('legacy');
    expect(decideMcpEra(request('tools/list', { [MCP_META.clientCapabilities]: {}, [MCP_META.clientInfo]: { name: 'x', version: '1' } }), stdio, undefined, true)).toBe('legacy');
    expect(decideMcpEra(request('server/discover'), stdio, undefined, true)).toBe('legacy');
  });
  test('over HTTP a legacy version header, or a session id without any version header, is the session', () => {
    expect(decideMcpEra(mastra, { kind: 'http', headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 'pms1.k.p.m' } })).toBe('legacy');
    expect(decideMcpEra(mastra, { kind: 'http', headers: { 'mcp-protocol-version': '2025-06-18' } })).toBe('legacy');
    expect(decideMcpEra(mastra, { kind: 'http', headers: { 'mcp-session-id': 'pms1.k.p.m' } })).toBe('legacy');
    expect(decideMcpEra(mastra, { kind: 'http', headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-session-id': 'pms1.k.p.m' } })).toBe('modern');
  });
  test('a request that carries protocolVersion is modern even inside a legacy session: modern requests are unchanged', () => {
    expect(decideMcpEra(request('tools/list', MODERN_META), stdio, undefined, true)).toBe('modern');
    expect(decideMcpEra(request('tools/list', MODERN_META), { kind: 'http', headers: { 'mcp-protocol-version': '2025-11-25' } })).toBe('modern');
  });
});

describe('resolveMcpRequestContext — modern', () => {
  test('builds one immutable context from this message alone', () => {
    const ctx = resolveMcpRequestContext(
      request('tools/call', {
        ...MODERN_META,
        [MCP_META.clientCapabilities]: { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {}, 'com.example/other': { a: 1 } } },
        [MCP_META.logLevel]: 'info',
        progressToken: 'p-1',
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        tracestate: 'vendor=1',
        baggage: 'user=alice',
      }),
      { kind: 'http', principal: { id: 'alice', scopes: ['pm:read'] } },
      { serverExtensions: { 'io.modelcontextprotocol/tasks': {} } },
    );
    expect(ctx).toMatchObject({
      era: 'modern',
      revision: '2026-07-28',
      method: 'tools/call',
      requestId: 1,
      clientInfo: { name: 'test-client', version: '1.0.0' },
      logLevel: 'info',
      progressToken: 'p-1',
      trace: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'vendor=1', baggage: 'user=alice' },
      principal: { id: 'alice' },
      transport: 'http',
    });
    expect(ctx.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(hasMcpExtension(ctx, 'io.modelcontextprotocol/tasks')).toBe(true);
    expect(hasMcpExtension(ctx, 'com.example/other')).toBe(false);
    expect(Object.isFrozen(ctx)).toBe(true);
    expect(Object.isFrozen(ctx.clientCapabilities)).toBe(true);
    expect(ctx.signal.aborted).toBe(false);
  });

  test('two requests never share identity, capabilities or trace', () => {
    const meta = { ...MODERN_META, [MCP_META.clientCapabilities]: { roots: {} }, traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };
    const first = resolveMcpRequestContext(request('tools/list', meta), stdio);
    const second = resolveMcpRequestContext(request('tools/list', { [MCP_META.protocolVersion]: '2026-07-28', [MCP_META.clientCapabilities]: {} }), stdio);
    expect(first.clientCapabilities).toEqual({ roots: {} });
    expect(second.clientCapabilities).toEqual({});
    expect(second.clientInfo).toBeUndefined();
    expect(second.trace).toEqual({});
  });

  test('a legacy initialize state never reaches a modern request', () => {
    const ctx = resolveMcpRequestContext(request('tools/list', MODERN_META), stdio, {
      legacy: { revision: '2025-06-18', clientCapabilities: { roots: {} }, clientInfo: { name: 'old', version: '0' } },
    });
    expect(ctx.revision).toBe('2026-07-28');
    expect(ctx.clientCapabilities).toEqual({});
    expect(ctx.clientInfo).toEqual({ name: 'test-client', version: '1.0.0' });
  });

  test('invalid trace values are dropped (W3C), tracestate without a valid traceparent too', () => {
    const ctx = resolveMcpRequestContext(request('tools/list', { ...MODERN_META, traceparent: 'garbage', tracestate: 'a=b', baggage: 'k=v' }), stdio);
    expect(ctx.trace).toEqual({ baggage: 'k=v' });
  });

  test.each([
    ['no _meta at all (server/discover is modern-only)', undefined, MCP_META.protocolVersion],
    ['missing protocolVersion', { [MCP_META.clientCapabilities]: {} }, MCP_META.protocolVersion],
    ['missing clientCapabilities', { [MCP_META.protocolVersion]: '2026-07-28' }, MCP_META.clientCapabilities],
    ['non-string protocolVersion', { [MCP_META.protocolVersion]: 20260728, [MCP_META.clientCapabilities]: {} }, MCP_META.protocolVersion],
    ['capabilities not an object', { ...MODERN_META, [MCP_META.clientCapabilities]: [] }, MCP_META.clientCapabilities],
    ['capability member not an object', { ...MODERN_META, [MCP_META.clientCapabilities]: { elicitation: true } }, MCP_META.clientCapabilities],
    ['clientInfo without version', { ...MODERN_META, [MCP_META.clientInfo]: { name: 'x' } }, MCP_META.clientInfo],
    ['unknown logLevel', { ...MODERN_META, [MCP_META.logLevel]: 'verbose' }, MCP_META.logLevel],
    ['fractional progressToken', { ...MODERN_META, progressToken: 1.5 }, 'progressToken'],
    ['non-string traceparent', { ...MODERN_META, traceparent: 7 }, 'traceparent'],
  ])('malformed metadata (%s) is -32602 naming the field', (_name, meta, field) => {
    const error = thrown(() => resolveMcpRequestContext(request('server/discover', meta as Record<string, unknown> | undefined), stdio));
    expect(error).toBeInstanceOf(PmMcpInvalidParamsError);
    expect((error as PmMcpInvalidParamsError).jsonRpcCode).toBe(-32602);
    expect((error as PmMcpInvalidParamsError).data).toEqual({ field });
  });

  test.each(['2027-01-01', '2025-11-25'])('unsupported modern version %s is -32022 with the supported modern list', (requested) => {
    const error = thrown(() => resolveMcpRequestContext(request('tools/list', { ...MODERN_META, [MCP_META.protocolVersion]: requested }), stdio));
    expect(error).toBeInstanceOf(PmMcpUnsupportedProtocolVersionError);
    expect((error as PmMcpUnsupportedProtocolVersionError).toJsonRpcError()).toEqual({
      code: -32022,
      message: expect.stringContaining(requested),
      data: { supported: ['2026-07-28'], requested },
    });
  });

  test('an unsupported version wins over other malformed keys (the client learns what to retry with)', () => {
    const error = thrown(() => resolveMcpRequestContext(request('tools/list', { [MCP_META.protocolVersion]: '2030-01-01' }), stdio));
    expect(error).toBeInstanceOf(PmMcpUnsupportedProtocolVersionError);
  });
});

describe('resolveMcpRequestContext — legacy', () => {
  test.each(PM_MCP_LEGACY_PROTOCOL_VERSIONS)('initialize with %s keeps that revision and the declared identity', (version) => {
    const ctx = resolveMcpRequestContext(request('initialize', undefined, { protocolVersion: version, capabilities: { roots: {} }, clientInfo: { name: 'old', version: '1' } }), stdio);
    expect(ctx).toMatchObject({ era: 'legacy', revision: version, clientCapabilities: { roots: {} }, clientInfo: { name: 'old', version: '1' }, extensions: {} });
  });

  test('initialize without protocolVersion is offered 2025-11-25', () => {
    expect(resolveMcpRequestContext(request('initialize', undefined, { capabilities: {} }), stdio).revision).toBe('2025-11-25');
  });

  test('initialize outside the set is -32022 naming every accepted revision in message and data', () => {
    const error = thrown(() => resolveMcpRequestContext(request('initialize', undefined, { protocolVersion: '2024-11-05' }), stdio)) as PmMcpUnsupportedProtocolVersionError;
    expect(error).toBeInstanceOf(PmMcpUnsupportedProtocolVersionError);
    for (const version of PM_MCP_LEGACY_PROTOCOL_VERSIONS) expect(error.message).toContain(version);
    expect(error.toJsonRpcError().data).toEqual({ supported: ['2025-11-25', '2025-06-18'], requested: '2024-11-05' });
  });

  test('initialize with malformed members is -32602', () => {
    expect(thrown(() => resolveMcpRequestContext(request('initialize', undefined, { protocolVersion: 7 }), stdio))).toBeInstanceOf(PmMcpInvalidParamsError);
    expect(thrown(() => resolveMcpRequestContext(request('initialize', undefined, { clientInfo: { name: 1 } }), stdio))).toBeInstanceOf(PmMcpInvalidParamsError);
    expect(thrown(() => resolveMcpRequestContext(request('tools/list', undefined, { _meta: 'x' }), stdio))).toBeInstanceOf(PmMcpInvalidParamsError);
  });

  test('later legacy requests use the header, then the connection state, then 2025-11-25', () => {
    const state = { revision: '2025-06-18' as const, clientCapabilities: { sampling: {} }, clientInfo: { name: 'old', version: '1' } };
    expect(resolveMcpRequestContext(request('tools/list'), stdio).revision).toBe('2025-11-25');
    expect(resolveMcpRequestContext(request('tools/list'), stdio, { legacy: state })).toMatchObject({ revision: '2025-06-18', clientCapabilities: { sampling: {} }, clientInfo: { name: 'old' } });
    expect(resolveMcpRequestContext(request('tools/list'), { kind: 'http', headers: { 'mcp-protocol-version': '2025-06-18' } }).revision).toBe('2025-06-18');
  });

  test('legacy progress tokens are honoured; logLevel never applies', () => {
    const ctx = resolveMcpRequestContext(request('tools/call', { progressToken: 9 }), stdio);
    expect(ctx.progressToken).toBe(9);
    expect(ctx.logLevel).toBeUndefined();
  });
});
