/**
 * Bounded reads (docs/DISCOVERY.md "Bounded reads"): over ten thousand items with titles near
 * their bound, every list-like tool asked for its most rows stays within the result token
 * budget in both eras (the initialize-era result duplicates its JSON as text), says what it
 * left out, and continues with its cursor exactly where it stopped.
 */
import { jest } from '@jest/globals';
import { estimatePmMcpJsonTokens } from '../../../../src/domain/discovery/index.js';
import { PM_CONTEXT_LIST_LIMIT } from '../../../../src/domain/mcp-tracker/context-tool.js';
import { PM_MCP_RESULT_TOKEN_BUDGET, worstCaseResultTokens } from '../../../../src/domain/mcp-tracker/index.js';
import { writeBulkItems } from '../../../support/bulk-items.js';
import { TrackerMcpHarness, type ToolResult } from '../../../support/mcp-tracker-harness.js';

jest.setTimeout(300_000); // ten thousand items on a shared 2-core machine

const ITEMS = 10_000;
/** The envelope around a tool result (content array, keys, escaping) on top of what the budget counts. */
const ENVELOPE = 200;

let h: TrackerMcpHarness;
let ids: string[];
beforeAll(async () => {
  h = await TrackerMcpHarness.create();
  ids = await writeBulkItems(h.env.fs, h.tracker.paths.items, ITEMS);
  // One item with a long history: 150 updates.
  for (let i = 0; i < 150; i++) await h.tracker.update(ids[1]!, { title: `Renamed ${i}: ${'a long title for a long history '.repeat(10)}`.slice(0, 400) });
});

/** Calls a tool in both eras (or only the modern one, for continuations) and checks the results stay within the budget. */
async function bounded(name: string, args: Record<string, unknown>, bothEras = true): Promise<ToolResult> {
  const modern = await h.call(name, args);
  const legacy = bothEras ? await h.call(name, args, '2025-11-25') : modern;
  for (const result of [modern, legacy]) {
    expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
    expect({ name, tokens: estimatePmMcpJsonTokens(result) <= PM_MCP_RESULT_TOKEN_BUDGET + ENVELOPE }).toEqual({ name, tokens: true });
  }
  expect(worstCaseResultTokens(modern.structuredContent, modern.content[0]!.text!)).toBeLessThanOrEqual(PM_MCP_RESULT_TOKEN_BUDGET);
  expect(legacy.structuredContent).toEqual(modern.structuredContent);
  return modern;
}

const omittedOf = (result: ToolResult) => result.structuredContent!.omitted as { reason: string; rows: number; tokenBudget: number; recovery: string } | undefined;

test('pm_list at limit 100: cut by the budget, said so, and the cursor continues right after the last row', async () => {
  const first = await bounded('pm_list', { limit: 100, all: true });
  const items = first.structuredContent!.items as { id: string }[];
  expect(items.length).toBeGreaterThan(0);
  expect(items.length).toBeLessThan(100);
  expect(omittedOf(first)).toEqual({ reason: 'token_budget', rows: 100 - items.length, tokenBudget: PM_MCP_RESULT_TOKEN_BUDGET, recovery: 'pass nextCursor as cursor for them' });
  expect(first.content[0]!.text).toContain(`Cut at the ${PM_MCP_RESULT_TOKEN_BUDGET}-token result budget`);
  const second = await bounded('pm_list', { limit: 100, all: true, cursor: first.structuredContent!.nextCursor });
  const both = [...items, ...(second.structuredContent!.items as { id: string }[])].map((i) => i.id);
  const straight = await h.tracker.list({ all: true, limit: both.length });
  expect(both).toEqual(straight.items.map((i) => i.id));
});

test('pm_list within the budget is not touched: no omitted member', async () => {
  const result = await bounded('pm_list', { limit: 5 });
  expect(result.structuredContent).not.toHaveProperty('omitted');
  expect(result.structuredContent!.items).toHaveLength(5);
});

test('pm_search at limit 50: cut, with a cursor into the same ranking', async () => {
  const first = await bounded('pm_search', { query: 'login session', limit: 50 });
  const hits = first.structuredContent!.results as { id: string }[];
  expect(omittedOf(first)?.reason).toBe('token_budget');
  const second = await bounded('pm_search', { query: 'login session', limit: 50, cursor: first.structuredContent!.nextCursor }, false);
  const both = [...hits, ...(second.structuredContent!.results as { id: string }[])].map((r) => r.id);
  const straight = await h.tracker.search({ query: 'login session', limit: both.length });
  expect(both).toEqual(straight.results.map((r) => r.id));
  const other = await h.call('pm_search', { query: 'other words', cursor: first.structuredContent!.nextCursor as string });
  expect(other.isError).toBe(true);
  expect(other.content[0]!.text).toContain('cursor belongs to a different query');
});

test('pm_history with patches: the newest entries that fit, older ones through the cursor', async () => {
  const first = await bounded('pm_history', { id: ids[1], limit: 100, patches: true });
  const entries = first.structuredContent!.entries as { seq: number }[];
  const total = first.structuredContent!.total as number;
  expect(total).toBeGreaterThan(150); // the first pm write adopted the item, then 150 updates
  expect(omittedOf(first)?.recovery).toContain('leave patches out');
  expect(entries.at(-1)!.seq).toBe(total);
  const older = await bounded('pm_history', { id: ids[1], limit: 100, patches: true, cursor: first.structuredContent!.nextCursor });
  const olderEntries = older.structuredContent!.entries as { seq: number }[];
  expect(olderEntries.at(-1)!.seq).toBe(entries[0]!.seq - 1);
});

test('pm_graph of the project at maxNodes 200: the first nodes and the links among them, truncated', async () => {
  const result = await bounded('pm_graph', { maxNodes: 200, all: true });
  const data = result.structuredContent as { nodes: { id: string }[]; edges: { from: string; to: string }[]; truncated: boolean };
  expect(data.truncated).toBe(true);
  expect(omittedOf(result)?.rows).toBe(200 - data.nodes.length);
  const kept = new Set(data.nodes.map((n) => n.id));
  for (const edge of data.edges) expect(kept.has(edge.from) && kept.has(edge.to)).toBe(true);
});

test('pm_validate at limit 200: cut, and the cursor pages on', async () => {
  const first = await bounded('pm_validate', { limit: 200 });
  expect(first.structuredContent!.findingsTotal).toBeGreaterThanOrEqual(ITEMS - 1); // every item but the one pm adopted
  expect(omittedOf(first)?.reason).toBe('token_budget');
  const next = await bounded('pm_validate', { limit: 200, cursor: first.structuredContent!.nextCursor }, false);
  expect((next.structuredContent!.findings as unknown[]).length).toBeGreaterThan(0);
});

test('pm_context: claims and unreadable files bounded, with their totals', async () => {
  const result = await bounded('pm_context', {});
  const data = result.structuredContent as { claims: unknown[]; claimsTotal: number; total: number };
  expect(data.total).toBe(ITEMS);
  expect(data.claims).toHaveLength(PM_CONTEXT_LIST_LIMIT);
  expect(data.claimsTotal).toBe(Math.ceil(ITEMS / 3));
  expect(result.content[0]!.text).toContain(`${data.claimsTotal - PM_CONTEXT_LIST_LIMIT} more: pm_list`);
});

test('pm_next and pm_get stay small', async () => {
  await bounded('pm_next', { alternatives: 10 });
  await bounded('pm_get', { id: ids[1], comments: 50 });
});
