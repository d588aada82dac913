/**
 * Cache invalidation (seed 004 "Decision": the SDK owns it): the catalogue digest follows the
 * profile, the tool contracts config.yaml shapes, and the entry choice; a host whose surface
 * changes while it runs replaces the catalogue, listen streams get
 * notifications/tools/list_changed, the negotiated list changes with it and cursors of the old
 * catalogue are refused.
 */
import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import {
  PM_DISCOVER_TOOL_NAME,
  PM_TOOL_DISCOVERY_ENTRY_NAMES,
  PM_TOOL_DISCOVERY_EXTENSION_ID,
  pmMcpToolDiscoveryExtension,
  PmMcpMutableToolCatalogSource,
  PmMcpToolCatalog,
  pmToolCatalogChangeSource,
  staticPmMcpToolCatalogSource,
  type PmMcpToolCatalogOptions,
} from '../../../../src/domain/discovery/index.js';
import { createPmMcpMethodRegistry, MCP_META, mcpExtensionOffers, mcpSubscriptionsExtension, PM_MCP_SUBSCRIPTION_SERVER_OPTIONS, PmMcpDispatcher, PmMcpSubscriptionRegistry, type McpToolDescriptor } from '../../../../src/domain/mcp/index.js';
import { createPmTrackerMcpServer } from '../../../../src/domain/mcp-tracker/index.js';
import type { OutboundMessage } from '../../../../src/ports/message-sink.js';
import { checkMcpMessage } from '../../../support/mcp-schema.js';
import { MODERN_META } from '../../../support/mcp-fake-server.js';
import { memoryTracker } from '../../../support/memory-tracker.js';
import { TrackerMcpHarness } from '../../../support/mcp-tracker-harness.js';

const hasher = new PureSha256Hasher();
const NEGOTIATED = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [PM_TOOL_DISCOVERY_EXTENSION_ID]: {} } } };

async function toolsOf(profile: string, configYaml?: string): Promise<readonly McpToolDescriptor[]> {
  return (await TrackerMcpHarness.create({ profile, ...(configYaml ? { configYaml } : {}) })).server.tools!.descriptors;
}
const options = (tools: readonly McpToolDescriptor[], profile = 'standard', entry = PM_TOOL_DISCOVERY_ENTRY_NAMES): PmMcpToolCatalogOptions => ({ profile, tools, entry, hasher });

describe('the catalogue digest', () => {
  test('is stable for the same inputs and changes with the profile, a contract, the entry choice', async () => {
    const standard = await toolsOf('standard');
    const base = new PmMcpToolCatalog(options(standard));
    expect(new PmMcpToolCatalog(options(standard)).digest).toBe(base.digest);
    expect(base.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(base.id).toBe(base.digest.slice(7, 23));
    const variants = [
      new PmMcpToolCatalog(options(await toolsOf('full'), 'full')),
      new PmMcpToolCatalog(options(standard, 'custom')),
      new PmMcpToolCatalog(options(await toolsOf('standard', 'version: 1\nstatuses: [draft, open, in_progress, blocked, review, closed, canceled]\n'))),
      new PmMcpToolCatalog(options(await toolsOf('standard', 'version: 1\ncustomFields:\n  severity: { type: enum, values: [low, high] }\n'))),
      new PmMcpToolCatalog(options(standard, 'standard', ['pm_list', 'pm_get', 'pm_next', 'pm_context'])),
    ];
    const digests = new Set([base.digest, ...variants.map((c) => c.digest)]);
    expect(digests.size).toBe(variants.length + 1);
  });

  test('the entry choice: the wanted tools the profile has, topped up in advertisement order, listed in advertisement order', async () => {
    const standard = await toolsOf('standard');
    expect(new PmMcpToolCatalog(options(standard)).entryNames).toEqual(['pm_context', 'pm_next', 'pm_get', 'pm_search']);
    const few = standard.filter((t) => ['pm_get', 'pm_claim', 'pm_close', 'pm_comment', 'pm_deps'].includes(t.name));
    expect(new PmMcpToolCatalog(options(few, 'custom')).entryNames).toEqual(['pm_get', 'pm_claim', 'pm_close', 'pm_comment']);
    expect(() => new PmMcpToolCatalog(options([...few, { ...few[0]!, name: PM_DISCOVER_TOOL_NAME }], 'custom'))).toThrow(/must not define it/);
  });

  test('a static source builds once, on first use, and reports no changes', () => {
    let builds = 0;
    const source = staticPmMcpToolCatalogSource(() => {
      builds++;
      return options([]);
    });
    expect(builds).toBe(0);
    expect(source.current()).toBe(source.current());
    expect(builds).toBe(1);
    expect(pmToolCatalogChangeSource(source)).toBeUndefined();
  });
});

describe('a host whose surface changes', () => {
  async function setup() {
    const t = await memoryTracker();
    const base = createPmTrackerMcpServer({ tracker: t.tracker, fs: t.fs, serverInfo: { name: 'pm', version: '0.1.0' }, profile: 'full' });
    const all = base.tools!.descriptors;
    const source = new PmMcpMutableToolCatalogSource(() => options(all.filter((tool) => tool.name !== 'pm_delete'), 'full'));
    const extension = pmMcpToolDiscoveryExtension({ hasher, profile: 'full', source });
    const server = createPmTrackerMcpServer({
      tracker: t.tracker,
      fs: t.fs,
      serverInfo: { name: 'pm', version: '0.1.0' },
      profile: 'full',
      extensions: mcpExtensionOffers([extension]),
      ...PM_MCP_SUBSCRIPTION_SERVER_OPTIONS,
      toolsListChanged: true,
    });
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const registry = new PmMcpSubscriptionRegistry(server, clock, extension.changeSources ?? []);
    const methods = createPmMcpMethodRegistry(server, [mcpSubscriptionsExtension(registry), extension]);
    const connection = new PmMcpDispatcher(server, methods).connect();
    const written: Record<string, unknown>[] = [];
    const problems: string[] = [];
    const sink = {
      send: (out: OutboundMessage) => {
        problems.push(...checkMcpMessage(out.text, '2026-07-28'));
        written.push(JSON.parse(out.text) as Record<string, unknown>);
      },
    };
    let id = 1;
    const request = async (method: string, params: Record<string, unknown>, meta: Record<string, unknown> = NEGOTIATED) => {
      const at = id++;
      await connection.dispatch(JSON.stringify({ jsonrpc: '2.0', id: at, method, params: { ...params, _meta: { ...MODERN_META, ...meta } } }), { facts: { kind: 'stdio' }, sink });
      return written.filter((m) => m.id === at).at(-1) as { result?: Record<string, unknown>; error?: { code: number; data?: Record<string, unknown> } };
    };
    const listen = (listenId: number) =>
      connection.dispatch(JSON.stringify({ jsonrpc: '2.0', id: listenId, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: MODERN_META } }), { facts: { kind: 'stdio' }, sink });
    const settle = async () => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    return { all, source, registry, clock, written, problems, request, listen, settle };
  }

  test('tools/list_changed reaches the listen stream; the negotiated list and cursors follow the new catalogue', async () => {
    const s = await setup();
    const discoverCapabilities = (await s.request('server/discover', {})).result!.capabilities as { tools: unknown };
    expect(discoverCapabilities.tools).toEqual({ listChanged: true });
    void s.listen(900);
    await s.settle();
    expect(s.written.find((m) => m.method === 'notifications/subscriptions/acknowledged')).toMatchObject({ params: { notifications: { toolsListChanged: true } } });

    const before = (await s.request('tools/list', {})).result!.tools as { name: string }[];
    expect(before.map((t) => t.name)).toEqual([PM_DISCOVER_TOOL_NAME, 'pm_context', 'pm_next', 'pm_get', 'pm_search']);
    const page = (await s.request('tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: { limit: 1 } })).result!.structuredContent as { result: { nextCursor: string; receipt: { omitted: { names?: string[] }[] } } };
    expect(page.result.receipt.omitted.flatMap((o) => o.names ?? [])).not.toContain('pm_delete');

    // The same catalogue again: no change, nobody told.
    expect(s.source.update(options(s.all.filter((tool) => tool.name !== 'pm_delete'), 'full'))).toBe(false);
    // The host now prefers pm_list in the entry catalogue and offers pm_delete.
    expect(s.source.update(options(s.all, 'full', ['pm_context', 'pm_next', 'pm_get', 'pm_list']))).toBe(true);
    await s.settle();
    s.clock.advance(60);
    await s.settle();
    const changed = s.written.filter((m) => m.method === 'notifications/tools/list_changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ params: { _meta: { [MCP_META.subscriptionId]: 900 } } });

    const after = (await s.request('tools/list', {})).result!.tools as { name: string }[];
    expect(after.map((t) => t.name)).toEqual([PM_DISCOVER_TOOL_NAME, 'pm_context', 'pm_next', 'pm_list', 'pm_get']);
    expect((await s.request('tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: { limit: 1, cursor: page.result.nextCursor } })).error).toMatchObject({ code: -32602, data: { problem: 'stale_catalog' } });
    const fresh = (await s.request('tools/call', { name: PM_DISCOVER_TOOL_NAME, arguments: { names: ['pm_delete'] } })).result!.structuredContent as { result: { tools: { name: string }[] } };
    expect(fresh.result.tools.map((t) => t.name)).toEqual(['pm_delete']);
    s.registry.shutdown();
    await s.settle();
    expect(s.problems).toEqual([]);
  });
});
