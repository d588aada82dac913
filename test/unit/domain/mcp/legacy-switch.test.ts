import { PM_MCP_LEGACY_PROTOCOL_VERSIONS } from '../../../../src/domain/mcp/index.js';
import { McpHarness, MODERN_META } from '../../../support/mcp-fake-server.js';

/**
 * The operator switch (seed 004 "Rollout, rollback, and proof"): the legacy adapter off refuses
 * every initialize-era request with a clear -32022; on again, it serves exactly what it did; the
 * modern path writes the same bytes either way.
 */

const OFF = { enabled: false, howToEnable: 'PM_MCP_LEGACY=on' } as const;

const harness = (enabled: boolean) => new McpHarness({ legacyLogging: true }, undefined, enabled ? {} : { legacy: OFF });

const modern = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } });

/** A modern conversation touching every core method family, errors and removed methods included. */
const MODERN_SCRIPT = [
  modern(1, 'server/discover'),
  modern(2, 'tools/list'),
  modern(3, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }),
  modern(4, 'tools/call', { name: 'fail', arguments: { kind: 'conflict' } }),
  modern(5, 'resources/list'),
  modern(6, 'resources/read', { uri: 'test://readme' }),
  modern(7, 'resources/read', { uri: 'test://nope' }),
  modern(8, 'resources/templates/list'),
  modern(9, 'prompts/list'),
  modern(10, 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } }),
  modern(11, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'x' } }),
  modern(12, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
  modern(13, 'ping'),
  modern(14, 'logging/setLevel', { level: 'debug' }),
  modern(15, 'resources/subscribe', { uri: 'test://readme' }),
  modern(16, 'no/such'),
  { jsonrpc: '2.0', id: 17, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01', 'io.modelcontextprotocol/clientCapabilities': {} } } },
];

async function transcript(h: McpHarness): Promise<string[]> {
  const out: string[] = [];
  for (const message of MODERN_SCRIPT) for (const written of await h.send(message)) out.push(written.text);
  return out;
}

describe('legacy adapter off', () => {
  test.each(PM_MCP_LEGACY_PROTOCOL_VERSIONS)('initialize %s is -32022 naming the modern revision and how to re-enable', async (version) => {
    const h = harness(false);
    const out = await h.legacy(1, 'initialize', { protocolVersion: version, capabilities: {} }, version);
    expect(out.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: version } });
    expect(out.error!.message).toContain('2026-07-28');
    expect(out.error!.message).toContain('PM_MCP_LEGACY=on');
    expect(h.problems).toEqual([]);
  });

  test('unversioned and legacy-header requests are refused too; notifications stay silent', async () => {
    const h = harness(false);
    for (const method of ['tools/list', 'ping', 'logging/setLevel', 'tools/call']) {
      const out = await h.legacy(method, method, method === 'tools/call' ? { name: 'echo', arguments: { text: 'x' } } : undefined);
      expect(out.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: 'unversioned' } });
    }
    const [headered] = await h.send({ jsonrpc: '2.0', id: 'h', method: 'tools/list' }, '2025-06-18', { kind: 'http', headers: { 'mcp-protocol-version': '2025-06-18' } });
    expect(headered!.value.error).toMatchObject({ code: -32022, data: { requested: '2025-06-18' } });
    expect(await h.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, '2025-11-25')).toEqual([]);
    expect(h.state.seenContexts).toEqual([]);
  });

  test('on again, the legacy path answers exactly as an adapter that was never turned off', async () => {
    const legacyScript = async (h: McpHarness) => [
      ...(await h.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }, '2025-06-18')),
      ...(await h.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }, '2025-06-18')),
      ...(await h.send({ jsonrpc: '2.0', id: 3, method: 'ping' }, '2025-06-18')),
    ].map((w) => w.text);
    expect(await legacyScript(new McpHarness({ legacyLogging: true }, undefined, { legacy: { enabled: true } }))).toEqual(await legacyScript(harness(true)));
  });

  test('modern behaviour is byte-identical with the adapter on and off', async () => {
    const on = harness(true);
    const off = harness(false);
    const [a, b] = [await transcript(on), await transcript(off)];
    expect(a).toHaveLength(MODERN_SCRIPT.length);
    expect(b).toEqual(a);
    expect(on.problems).toEqual([]);
    expect(off.problems).toEqual([]);
  });
});
