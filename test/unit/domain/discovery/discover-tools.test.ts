/**
 * pm_discover's engine over pm's real tracker tools: named tools first, ranked matches,
 * listed tools reported by name, unknown names with suggestions, the row limit and the token
 * budget, cursors that page every candidate exactly once and are refused when they belong to
 * another query, profile or catalogue, and receipts whose token figure is exact.
 */
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import {
  discoverPmTools,
  estimatePmMcpJsonTokens,
  PM_TOOL_DISCOVERY_ENTRY_NAMES,
  PM_TOOL_DISCOVERY_KEYWORDS,
  PM_TOOL_DISCOVERY_LIMITS,
  PmMcpToolCatalog,
  type PmDiscoverToolsRequest,
  type PmDiscoverToolsResult,
} from '../../../../src/domain/discovery/index.js';
import { PmMcpInvalidParamsError } from '../../../../src/domain/errors/mcp-errors.js';
import { TrackerMcpHarness } from '../../../support/mcp-tracker-harness.js';
import { thrownBy } from '../../../support/thrown.js';

const hasher = new PureSha256Hasher();

async function catalogOf(profile: string, configYaml?: string): Promise<PmMcpToolCatalog> {
  const h = await TrackerMcpHarness.create({ profile, ...(configYaml ? { configYaml } : {}) });
  return new PmMcpToolCatalog({ profile, tools: h.server.tools!.descriptors, entry: PM_TOOL_DISCOVERY_ENTRY_NAMES, keywords: PM_TOOL_DISCOVERY_KEYWORDS, hasher });
}

const discover = (catalog: PmMcpToolCatalog, request: PmDiscoverToolsRequest) => discoverPmTools(catalog, request, { hasher });
const names = (result: PmDiscoverToolsResult) => result.tools.map((t) => t.name);

function refusal(run: () => unknown): { problem: unknown; message: string } {
  const e = thrownBy(run, PmMcpInvalidParamsError, 'a -32602 refusal');
  expect(e.jsonRpcCode).toBe(-32602);
  return { problem: e.data.problem, message: e.message };
}

let standard: PmMcpToolCatalog;
beforeAll(async () => {
  standard = await catalogOf('standard');
});

describe('what an answer holds', () => {
  test('a need: the best matches with full input schemas and why, entry tools by name only, the rest by name', () => {
    const result = discover(standard, { need: 'claim the next item and start working on it' });
    expect(names(result)[0]).toBe('pm_claim');
    const claim = result.tools[0]!;
    expect(claim.inputSchema).toEqual(standard.get('pm_claim')!.inputSchema);
    expect(claim).not.toHaveProperty('outputSchema');
    expect(claim.matched).toMatchObject({ claim: 'name' });
    expect(claim.score).toBeGreaterThan(0);
    expect(result.listed.map((l) => l.name)).toContain('pm_next');
    for (const listed of result.listed) expect(PM_TOOL_DISCOVERY_ENTRY_NAMES).toContain(listed.name);
    const reasons = result.receipt.omitted.map((o) => o.reason);
    expect(reasons).toContain('not_matched');
    expect(reasons).toContain('output_schema');
    // Every tool of the profile is accounted for: returned, listed, or named in an omission.
    const accounted = new Set([...names(result), ...result.listed.map((l) => l.name), ...PM_TOOL_DISCOVERY_ENTRY_NAMES, ...result.receipt.omitted.flatMap((o) => ('names' in o ? o.names : []))]);
    expect([...accounted].sort()).toEqual(standard.tools.map((t) => t.name).sort());
  });

  test('exact names come first, in the order given; unknown names are omitted with a suggestion; pm_discover is listed', () => {
    const result = discover(standard, { names: ['pm_history', 'pm_clam', 'pm_create', 'pm_discover', 'pm_history'], need: 'close with evidence' });
    expect(names(result).slice(0, 2)).toEqual(['pm_history', 'pm_create']);
    expect(result.tools[0]).toMatchObject({ named: true });
    expect(names(result)).toContain('pm_close');
    expect(result.listed).toContainEqual({ name: 'pm_discover' });
    expect(result.receipt.omitted).toContainEqual(expect.objectContaining({ reason: 'unknown_name', names: ['pm_clam'], suggestions: { pm_clam: 'pm_claim' } }));
  });

  test('a tool outside the profile is unknown: the profile bounds what exists', async () => {
    const core = await catalogOf('core');
    const result = discover(core, { names: ['pm_history'] });
    expect(result.tools).toEqual([]);
    expect(result.receipt.omitted[0]).toMatchObject({ reason: 'unknown_name', names: ['pm_history'] });
    expect(result.receipt.omitted[0]!.recovery).toContain('profile core');
  });

  test('no need and no names: every tool beyond the entry catalogue, in advertisement order', () => {
    const result = discover(standard, { limit: 20, tokenBudget: 16_000 });
    expect(names(result)).toEqual(standard.tools.map((t) => t.name).filter((n) => !PM_TOOL_DISCOVERY_ENTRY_NAMES.includes(n)));
    expect(result.nextCursor).toBeUndefined();
  });

  test('outputSchema: true wraps each output schema as the canonical structuredContent.result', () => {
    const result = discover(standard, { names: ['pm_claim'], outputSchema: true });
    expect(result.tools[0]!.outputSchema).toEqual({ type: 'object', properties: { result: standard.get('pm_claim')!.outputSchema }, required: ['result'] });
    expect(result.receipt.omitted.map((o) => o.reason)).not.toContain('output_schema');
  });

  test('weak matches are named, not sent', () => {
    const result = discover(standard, { need: 'who changed this item' });
    expect(names(result)[0]).toBe('pm_history');
    const best = result.tools[0]!.score!;
    for (const tool of result.tools) expect(tool.score!).toBeGreaterThanOrEqual(best / 3);
  });
});

describe('budgets and receipts', () => {
  test('the receipt states exactly the estimated tokens of the answer, never above the budget', () => {
    for (const tokenBudget of [200, 600, 1200, 2000, 5000]) {
      const result = discover(standard, { tokenBudget, limit: 20 });
      expect(result.receipt.estimatedTokens).toBe(estimatePmMcpJsonTokens(result));
      expect(result.receipt.estimatedTokens).toBeLessThanOrEqual(tokenBudget);
      expect(result.receipt.tokenBudget).toBe(tokenBudget);
    }
  });

  test('the budget cuts the page: the rest is named with its reason and a cursor', () => {
    const result = discover(standard, { tokenBudget: 1200, limit: 20 });
    expect(result.tools.length).toBeGreaterThan(0);
    expect(result.receipt.omitted[0]).toMatchObject({ reason: 'token_budget' });
    expect(result.nextCursor).toEqual(expect.any(String));
  });

  test('the limit cuts the page with reason limit', () => {
    const result = discover(standard, { limit: 2, tokenBudget: 16_000 });
    expect(result.tools).toHaveLength(2);
    expect(result.receipt.omitted[0]).toMatchObject({ reason: 'limit', count: standard.tools.length - PM_TOOL_DISCOVERY_ENTRY_NAMES.length - 2 });
  });

  test('a first tool larger than the budget: none sent, and the receipt says what budget would take it', () => {
    const result = discover(standard, { names: ['pm_update'], tokenBudget: PM_TOOL_DISCOVERY_LIMITS.tokenBudgetMin });
    expect(result.tools).toEqual([]);
    const omission = result.receipt.omitted[0] as { reason: string; tokensNeeded: number; name: string };
    expect(omission).toMatchObject({ reason: 'too_large', name: 'pm_update' });
    const retry = discover(standard, { names: ['pm_update'], tokenBudget: omission.tokensNeeded });
    expect(names(retry)).toEqual(['pm_update']);
  });

  test('out-of-range limits and budgets are clamped', () => {
    expect(discover(standard, { limit: 0 }).tools.length).toBeLessThanOrEqual(1);
    expect(discover(standard, { tokenBudget: 10 }).receipt.tokenBudget).toBe(PM_TOOL_DISCOVERY_LIMITS.tokenBudgetMin);
  });
});

describe('cursors', () => {
  test('pages cover every candidate exactly once, in ranking order', () => {
    const whole = names(discover(standard, { limit: 20, tokenBudget: 16_000 }));
    const paged: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const result = discover(standard, { limit: 3, tokenBudget: 1500, ...(cursor ? { cursor } : {}) });
      expect(result.tools.length).toBeGreaterThan(0);
      paged.push(...names(result));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    expect(paged).toEqual(whole);
  });

  test('limit and budget may change between pages; the query may not', () => {
    const first = discover(standard, { need: 'change fields of an item', limit: 1 });
    expect(first.nextCursor).toBeDefined();
    expect(discover(standard, { need: 'change fields of an item', limit: 5, tokenBudget: 4000, cursor: first.nextCursor! }).tools.length).toBeGreaterThan(0);
    expect(refusal(() => discover(standard, { need: 'something else', cursor: first.nextCursor! })).problem).toBe('other_query');
    expect(refusal(() => discover(standard, { need: 'change fields of an item', outputSchema: true, cursor: first.nextCursor! })).problem).toBe('other_query');
  });

  test('a cursor of another profile is foreign; one of an older catalogue is stale', async () => {
    const first = discover(standard, { limit: 1 });
    const full = await catalogOf('full');
    expect(refusal(() => discover(full, { limit: 1, cursor: first.nextCursor! })).problem).toBe('foreign_profile');
    // The same profile under another workspace contract (config.yaml adds a type): a new catalogue.
    const changed = await catalogOf('standard', 'version: 1\ntypes: [Epic, Feature, Task, Chore, Issue, Decision, Spike]\n');
    expect(changed.digest).not.toBe(standard.digest);
    const stale = refusal(() => discover(changed, { limit: 1, cursor: first.nextCursor! }));
    expect(stale.problem).toBe('stale_catalog');
    expect(stale.message).toContain('start again without a cursor');
  });

  test('malformed and out-of-range cursors are refused', () => {
    expect(refusal(() => discover(standard, { cursor: 'not a cursor!' })).problem).toBe('malformed');
    expect(refusal(() => discover(standard, { cursor: btoa('{"v":1}') })).problem).toBe('malformed');
    const first = discover(standard, { limit: 1 });
    const body = JSON.parse(atob(first.nextCursor!.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
    const far = btoa(JSON.stringify({ ...body, o: 999 })).replace(/=+$/, '');
    expect(refusal(() => discover(standard, { limit: 1, cursor: far })).problem).toBe('out_of_range');
  });
});
