/**
 * The SDK's Apps contracts and policy (seed 000 "MCP Apps", "Public SDK"): the capability
 * check, the tools/list decoration as a pure function, and the rule that a view only ever names
 * read-only tools.
 */
import {
  assertPmMcpAppContractsReadOnly,
  decoratePmMcpToolsWithApps,
  hasPmMcpAppsCapability,
  PM_MCP_APP_CONTRACTS,
  PM_MCP_APP_VIEWS,
  pmMcpAppContractForTool,
  pmMcpAppContractForUri,
  requestNegotiatedPmMcpApps,
} from '../../../../src/domain/apps/index.js';
import { TrackerMcpHarness } from '../../../support/mcp-tracker-harness.js';

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';

describe('hasPmMcpAppsCapability', () => {
  test.each([
    ['the seed declaration', { specVersion: '2026-01-26', mimeTypes: [MIME] }, true],
    ['mimeTypes only (what the stable spec defines)', { mimeTypes: [MIME] }, true],
    ['more MIME types besides', { mimeTypes: ['text/html', MIME] }, true],
    ['another spec version', { specVersion: '2026-06-01', mimeTypes: [MIME] }, false],
    ['a non-string spec version', { specVersion: 20260126, mimeTypes: [MIME] }, false],
    ['no mimeTypes', { specVersion: '2026-01-26' }, false],
    ['another MIME type', { mimeTypes: ['text/html'] }, false],
    ['a MIME type string instead of a list', { mimeTypes: MIME }, false],
    ['an empty object', {}, false],
    ['not an object', true, false],
    ['a list', [MIME], false],
  ])('%s', (_label, declared, expected) => {
    expect(hasPmMcpAppsCapability({ extensions: { [UI]: declared as never } })).toBe(expected);
  });

  test('no extensions, or none for Apps, is no capability', () => {
    expect(hasPmMcpAppsCapability(undefined)).toBe(false);
    expect(hasPmMcpAppsCapability({})).toBe(false);
    expect(hasPmMcpAppsCapability({ extensions: { 'io.modelcontextprotocol/skills': { mimeTypes: [MIME] } } })).toBe(false);
  });

  test('a modern request negotiates Apps by declaring it; a legacy one only when its session negotiated it in initialize', () => {
    const clientCapabilities = { extensions: { [UI]: { mimeTypes: [MIME] } } };
    expect(requestNegotiatedPmMcpApps({ era: 'modern', clientCapabilities, extensions: {} })).toBe(true);
    expect(requestNegotiatedPmMcpApps({ era: 'legacy', clientCapabilities, extensions: {} })).toBe(false);
    expect(requestNegotiatedPmMcpApps({ era: 'legacy', clientCapabilities, extensions: { [UI]: { mimeTypes: [MIME] } } })).toBe(true);
    // Negotiated, but incompatibly declared (another specVersion): treated as absent.
    const other = { extensions: { [UI]: { specVersion: '2099-01-01', mimeTypes: [MIME] } } };
    expect(requestNegotiatedPmMcpApps({ era: 'legacy', clientCapabilities: other, extensions: other.extensions })).toBe(false);
  });
});

describe('PM_MCP_APP_CONTRACTS', () => {
  test('five views, one per tool, with ui://pm/ resources and unique names', () => {
    expect(PM_MCP_APP_CONTRACTS.map((c) => [c.view, c.tool, c.resourceUri])).toEqual([
      ['context', 'pm_context', 'ui://pm/context.html'],
      ['board', 'pm_list', 'ui://pm/board.html'],
      ['item', 'pm_get', 'ui://pm/item.html'],
      ['graph', 'pm_graph', 'ui://pm/graph.html'],
      ['history', 'pm_history', 'ui://pm/history.html'],
    ]);
    expect(PM_MCP_APP_CONTRACTS.map((c) => c.view)).toEqual([...PM_MCP_APP_VIEWS]);
    expect(new Set(PM_MCP_APP_CONTRACTS.map((c) => c.name)).size).toBe(5);
    expect(pmMcpAppContractForTool('pm_get')?.view).toBe('item');
    expect(pmMcpAppContractForTool('pm_update')).toBeUndefined();
    expect(pmMcpAppContractForUri('ui://pm/graph.html')?.tool).toBe('pm_graph');
    expect(Object.isFrozen(PM_MCP_APP_CONTRACTS[0]) && Object.isFrozen(PM_MCP_APP_CONTRACTS[0]!.drillDown)).toBe(true);
  });

  test('every tool a view renders or drills down through is read-only in the real catalogue', async () => {
    const h = await TrackerMcpHarness.create({ profile: 'full' });
    const tools = h.server.tools!.descriptors;
    const named = new Set(PM_MCP_APP_CONTRACTS.flatMap((c) => [c.tool, ...c.drillDown]));
    for (const name of named) expect({ name, readOnly: tools.find((t) => t.name === name)?.annotations?.readOnlyHint }).toEqual({ name, readOnly: true });
    expect(() => assertPmMcpAppContractsReadOnly(PM_MCP_APP_CONTRACTS, tools)).not.toThrow();
  });

  test('a contract naming a mutating tool is refused', async () => {
    const h = await TrackerMcpHarness.create({ profile: 'full' });
    const bad = [{ ...PM_MCP_APP_CONTRACTS[2]!, drillDown: ['pm_get', 'pm_update'] as const }];
    expect(() => assertPmMcpAppContractsReadOnly(bad, h.server.tools!.descriptors)).toThrow(/pm_update, which is not read-only/);
  });
});

describe('decoratePmMcpToolsWithApps', () => {
  const tools = [
    { name: 'pm_get', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, _meta: { 'com.example/x': 1, ui: { prefersBorder: false } } },
    { name: 'pm_update', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } },
    { name: 'pm_claim', inputSchema: { type: 'object' } },
    { name: 'pm_search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  ];

  test('keeps other _meta members, marks tools without readOnlyHint model-only, leaves read-only tools without a view as they are', () => {
    const out = decoratePmMcpToolsWithApps(tools);
    expect(out[0]).toEqual({ ...tools[0], _meta: { 'com.example/x': 1, 'ui/resourceUri': 'ui://pm/item.html', ui: { prefersBorder: false, resourceUri: 'ui://pm/item.html', visibility: ['model', 'app'] } } });
    expect(out[1]).toEqual({ ...tools[1], _meta: { ui: { visibility: ['model'] } } });
    expect(out[2]).toEqual({ ...tools[2], _meta: { ui: { visibility: ['model'] } } });
    expect(out[3]).toBe(tools[3]);
    expect(tools[0]!._meta).toEqual({ 'com.example/x': 1, ui: { prefersBorder: false } });
  });

  test('is deterministic and honours custom contracts', () => {
    expect(JSON.stringify(decoratePmMcpToolsWithApps(tools))).toBe(JSON.stringify(decoratePmMcpToolsWithApps(tools)));
    const custom = [{ ...PM_MCP_APP_CONTRACTS[0]!, tool: 'pm_search' as const, resourceUri: 'ui://custom/search.html' }];
    expect(decoratePmMcpToolsWithApps(tools, custom)[3]).toMatchObject({ _meta: { ui: { resourceUri: 'ui://custom/search.html' } } });
    expect(decoratePmMcpToolsWithApps(tools, custom)[0]).toBe(tools[0]);
  });
});
