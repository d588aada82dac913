import {
  createPmTrackerMcpServer,
  PM_MCP_PROFILE_TOOLS,
  PM_MCP_TOOL_NAMES,
  pmMcpToolEnvSchema,
  PmMcpToolSelectionError,
  resolvePmMcpToolSelection,
  selectPmMcpTools,
} from '../../../../src/domain/mcp-tracker/index.js';
import { memoryTracker } from '../../../support/memory-tracker.js';
import { TRACKER_SERVER_INFO, TrackerMcpHarness } from '../../../support/mcp-tracker-harness.js';

/**
 * Profiles (docs/MCP.md "Running pm-mcp"): PM_MCP_PROFILE = core (default, a token-bounded
 * everyday set) | standard | full | custom with PM_MCP_TOOLS, whose unknown or empty names fail
 * at startup with a clear message; tools/list order is deterministic.
 */

/**
 * Upper bound of the serialized modern tools/list response of the core profile, in bytes, over
 * the default config. Measured at about 24,300 bytes (23,815 after nullable members moved from `type` arrays
 * to the portable `anyOf` form and the unreadable-files and active-blocker fields of list, next and search) (≈ 6k tokens at ~4 bytes a token; the full profile's tools grew
 * by 997 bytes, 364 tokens, with that change). Claim-next (pm_next's claim, leaseMinutes and
 * idempotencyKey, its claim and receiptId outputs), pm_claim's renew, the receipt's takeover and
 * the summaries' claimExpired brought it to 26,095. pm_update's explicit `clear` list, which
 * replaced the `anyOf` nullable parent and assignee so that every field keeps a type through
 * lossy schema converters, brought it to 26,171 (+76); the receipt's `client` (the client
 * software, recorded beside the actor) to 26,306; leases in seconds (leaseSeconds on pm_next
 * and pm_claim, +199) to about 26,505. The bound leaves a little room and catches any tool that
 * grows its schemas or description carelessly.
 */
const CORE_TOOLS_LIST_BOUND = 25 * 1024 + 1024;

const CORE = ['pm_context', 'pm_next', 'pm_list', 'pm_get', 'pm_search', 'pm_create', 'pm_update', 'pm_claim', 'pm_close', 'pm_comment'];
const STANDARD = ['pm_context', 'pm_next', 'pm_list', 'pm_get', 'pm_search', 'pm_create', 'pm_update', 'pm_claim', 'pm_release', 'pm_close', 'pm_reopen', 'pm_comment', 'pm_deps', 'pm_graph', 'pm_history'];

describe('selectPmMcpTools', () => {
  test('the fixed profiles, in catalogue order', () => {
    expect(selectPmMcpTools('core')).toEqual(CORE);
    expect(selectPmMcpTools('standard')).toEqual(STANDARD);
    expect(selectPmMcpTools('full')).toEqual([...PM_MCP_TOOL_NAMES]);
    expect(PM_MCP_PROFILE_TOOLS.core).toEqual(CORE);
  });
  test('custom takes names (array or comma text) and advertises them in catalogue order', () => {
    expect(selectPmMcpTools('custom', ['pm_validate', 'pm_get'])).toEqual(['pm_get', 'pm_validate']);
    expect(selectPmMcpTools('custom', ' pm_delete , pm_context')).toEqual(['pm_context', 'pm_delete']);
    expect(selectPmMcpTools('custom', 'pm_get,pm_get')).toEqual(['pm_get']);
  });
  test.each([
    ['custom', undefined, /PM_MCP_PROFILE=custom needs PM_MCP_TOOLS, a comma-separated list of tool names; valid tools: pm_context, pm_next, .*pm_export$/],
    ['custom', '', /PM_MCP_PROFILE=custom needs PM_MCP_TOOLS/],
    ['custom', [], /PM_MCP_PROFILE=custom needs PM_MCP_TOOLS/],
    ['custom', 'pm_get,,pm_list', /PM_MCP_TOOLS has an empty name \(check for doubled or trailing commas\): 'pm_get,,pm_list'; valid tools: /],
    ['custom', 'pm_get,', /PM_MCP_TOOLS has an empty name/],
    ['custom', 'pm_gte,pm_frobnicate', /PM_MCP_TOOLS names unknown tools: 'pm_gte' \(did you mean 'pm_get'\?\), 'pm_frobnicate'; valid tools: pm_context, .*pm_export$/],
    ['everything', undefined, /PM_MCP_PROFILE 'everything' is not a profile; use one of: core, standard, full, custom/],
    ['core', 'pm_get', /PM_MCP_TOOLS applies only with PM_MCP_PROFILE=custom \(got PM_MCP_PROFILE=core\)/],
  ] as const)('%s with %j fails with a clear message', (profile, names, message) => {
    expect(() => selectPmMcpTools(profile, names as string | string[] | undefined)).toThrow(PmMcpToolSelectionError);
    expect(() => selectPmMcpTools(profile, names as string | string[] | undefined)).toThrow(message);
  });
});

describe('resolvePmMcpToolSelection', () => {
  test('unset profile: custom when tools are named, else core; blank tools are unset for fixed profiles', () => {
    expect(resolvePmMcpToolSelection(undefined, undefined)).toEqual({ profile: 'core', tools: CORE });
    expect(resolvePmMcpToolSelection(' ', ['pm_get'])).toEqual({ profile: 'custom', tools: ['pm_get'] });
    expect(resolvePmMcpToolSelection('full', [])).toEqual({ profile: 'full', tools: [...PM_MCP_TOOL_NAMES] });
    expect(() => resolvePmMcpToolSelection('custom', ' ')).toThrow(/needs PM_MCP_TOOLS/);
  });
});

describe('pmMcpToolEnvSchema', () => {
  test('defaults to core; PM_MCP_TOOLS alone means custom; empty values count as unset', () => {
    expect(pmMcpToolEnvSchema.parse({})).toEqual({ profile: 'core', tools: CORE });
    expect(pmMcpToolEnvSchema.parse({ PM_MCP_PROFILE: '', PM_MCP_TOOLS: '' })).toEqual({ profile: 'core', tools: CORE });
    expect(pmMcpToolEnvSchema.parse({ PM_MCP_PROFILE: 'full', PM_MCP_TOOLS: ' ' })).toEqual({ profile: 'full', tools: [...PM_MCP_TOOL_NAMES] });
    expect(pmMcpToolEnvSchema.parse({ PM_MCP_TOOLS: 'pm_get,pm_list' })).toEqual({ profile: 'custom', tools: ['pm_list', 'pm_get'] });
    expect(pmMcpToolEnvSchema.parse({ PM_MCP_PROFILE: 'standard' })).toEqual({ profile: 'standard', tools: STANDARD });
  });
  test('failures are zod issues carrying the message and the variable', () => {
    const bad = pmMcpToolEnvSchema.safeParse({ PM_MCP_PROFILE: 'custom', PM_MCP_TOOLS: 'pm_nope' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]).toMatchObject({ path: ['PM_MCP_TOOLS'], message: expect.stringContaining("PM_MCP_TOOLS names unknown tools: 'pm_nope'") });
    const empty = pmMcpToolEnvSchema.safeParse({ PM_MCP_PROFILE: 'custom', PM_MCP_TOOLS: '' });
    expect(empty.error!.issues[0]!.message).toMatch(/needs PM_MCP_TOOLS/);
    expect(pmMcpToolEnvSchema.safeParse({ PM_MCP_PROFILE: 'max' }).error!.issues[0]).toMatchObject({ path: ['PM_MCP_PROFILE'] });
  });
});

describe('the server factory', () => {
  test('startup fails before anything is advertised', async () => {
    const { tracker, fs } = await memoryTracker();
    expect(() => createPmTrackerMcpServer({ tracker, fs, serverInfo: TRACKER_SERVER_INFO, profile: 'custom', tools: 'pm_get,pm_lst' })).toThrow(/PM_MCP_TOOLS names unknown tools: 'pm_lst' \(did you mean 'pm_list'\?\)/);
    expect(() => createPmTrackerMcpServer({ tracker, fs, serverInfo: TRACKER_SERVER_INFO, profile: 'custom' })).toThrow(PmMcpToolSelectionError);
    expect(createPmTrackerMcpServer({ tracker, fs, serverInfo: TRACKER_SERVER_INFO, tools: 'pm_get' }).tools!.descriptors.map((t) => t.name)).toEqual(['pm_get']);
    expect(createPmTrackerMcpServer({ tracker, fs, serverInfo: TRACKER_SERVER_INFO, profile: 'standard', tools: '' }).tools!.size).toBe(STANDARD.length);
    expect(() => createPmTrackerMcpServer({ tracker, fs, serverInfo: TRACKER_SERVER_INFO, profile: 'core', tools: 'pm_get' })).toThrow(/applies only with PM_MCP_PROFILE=custom/);
    const core = createPmTrackerMcpServer({ tracker, fs, serverInfo: TRACKER_SERVER_INFO });
    expect(core.tools!.descriptors.map((t) => t.name)).toEqual(CORE);
    expect(core.instructions).toMatch(/^pm tracks this repository's work items/);
    expect(core.instructions!.length).toBeLessThanOrEqual(2048);
  });

  test('tools/list is deterministic and each profile stays within its measured size', async () => {
    const sizes: Record<string, number> = {};
    for (const profile of ['core', 'standard', 'full'] as const) {
      const one = await TrackerMcpHarness.create({ profile });
      const two = await TrackerMcpHarness.create({ profile });
      const a = await one.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }, '2026-07-28');
      const b = await two.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }, '2026-07-28');
      const text = JSON.stringify(a[0]);
      expect(text).toBe(JSON.stringify(b[0]));
      expect(a[0]!.result).not.toHaveProperty('nextCursor');
      expect(a[0]!.result).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'public' });
      sizes[profile] = new TextEncoder().encode(text).length;
      expect(one.problems).toEqual([]);
    }
    expect(sizes.core).toBeLessThanOrEqual(CORE_TOOLS_LIST_BOUND);
    expect(sizes.core).toBeLessThan(sizes.standard!);
    expect(sizes.standard).toBeLessThan(sizes.full!);
    // The full profile: about 41,000 bytes once pm_history's patch value spelled out its JSON types
    // (no empty `{}` schema), pm_update gained `clear` and receipts `client`; 41,522 with leases
    // in seconds (leaseSeconds on pm_next and pm_claim).
    expect(sizes.full).toBeLessThanOrEqual(40 * 1024 + 768);
  });

  test('a custom profile lists exactly its tools and refuses the others as unknown', async () => {
    const h = await TrackerMcpHarness.create({ profile: 'custom', tools: ['pm_get', 'pm_context'] });
    const listed = await h.modern('tools/list');
    expect((listed.result!.tools as { name: string }[]).map((t) => t.name)).toEqual(['pm_context', 'pm_get']);
    expect((await h.modern('tools/call', { name: 'pm_delete', arguments: { id: 'pm-aaaaaa' } })).error).toMatchObject({ code: -32602, message: 'Unknown tool: pm_delete' });
    expect(h.problems).toEqual([]);
  });
});
