import { CorruptDataError } from '../../../../src/domain/errors/index.js';
import type { Tracker } from '../../../../src/domain/tracker/tracker.js';
import { expectCleanHarness, seededHarness, TrackerMcpHarness, type ToolResult, type SeededHarness } from '../../../support/mcp-tracker-harness.js';

/**
 * The read-only tracker tools over the real dispatcher (2026-07-28 `server/tools`):
 * one happy path and one failure each, in the modern era and on the legacy path. The harness
 * validates every message against the era's schema and structuredContent against outputSchema.
 */

const text = TrackerMcpHarness.text;
let h: TrackerMcpHarness;
let ids: SeededHarness['ids'];

beforeEach(async () => ({ h, ids } = await seededHarness()));
afterEach(() => expectCleanHarness(h));

function expectToolError(result: ToolResult, message: RegExp): void {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(text(result)).toMatch(message);
}

/** A proxy in front of the tracker whose `method` throws `error`. */
function failing(method: keyof Tracker, error: Error) {
  return (tracker: Tracker) => new Proxy(tracker, { get: (target, key, receiver) => (key === method ? () => Promise.reject(error) : Reflect.get(target, key, receiver)) });
}

describe('pm_context', () => {
  test('returns the snapshot as data and a short readable text (no root path)', async () => {
    const result = await h.call('pm_context');
    expect(result.resultType).toBe('complete');
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ idPrefix: 'pm', total: 5, byStatus: { open: 4, closed: 1 }, next: { id: ids.a }, claims: [], unreadable: [] });
    expect(result.structuredContent).not.toHaveProperty('root');
    expect(text(result)).toContain(`Next: ${ids.a} [open P1 Task] Write the tools`);
    expect(text(result)).not.toMatch(/^\{/);
  });
  test('a tracker failure is an isError result with the message', async () => {
    const broken = await TrackerMcpHarness.create({ wrap: failing('context', new CorruptDataError('config.yaml: YAML error: bad indentation')) });
    expectToolError(await broken.call('pm_context'), /config\.yaml: YAML error: bad indentation \(corrupt_data\)/);
    expect(broken.problems).toEqual([]);
  });
});

describe('pm_next', () => {
  test('picks the best ready item with its rationale and runners-up', async () => {
    const result = await h.call('pm_next', { alternatives: 1 });
    expect(result.structuredContent).toMatchObject({ item: { id: ids.a }, alternatives: [{ id: ids.c }], counts: { ready: 2, blocked: 1, containers: 1 } });
    expect(text(result)).toContain(`Take it with pm_next {"claim":true} (or pm_claim {"id":"${ids.a}"}).`);
  });
  test('an out-of-range argument is an isError result naming it', async () => {
    expectToolError(await h.call('pm_next', { alternatives: 11 }), /Invalid arguments for pm_next: alternatives: /);
  });
});

describe('pm_list', () => {
  test('filters, pages with cursors, and renders one line per item', async () => {
    const first = await h.call('pm_list', { limit: 2, sort: 'id' });
    expect(first.structuredContent).toMatchObject({ total: 4, nextCursor: expect.any(String) });
    expect((first.structuredContent!.items as unknown[]).length).toBe(2);
    expect(text(first)).toMatch(/2 of 4 items; next page: cursor \S+/);
    const second = await h.call('pm_list', { limit: 2, sort: 'id', cursor: first.structuredContent!.nextCursor });
    expect((second.structuredContent!.items as unknown[]).length).toBe(2);
    expect(second.structuredContent).not.toHaveProperty('nextCursor');
    const closed = await h.call('pm_list', { status: ['closed'] });
    expect(closed.structuredContent).toMatchObject({ items: [{ id: ids.d, status: 'closed' }], total: 1 });
    expect(text(await h.call('pm_list', { tag: ['nothing'] }))).toBe('No items match (closed and canceled hidden; all: true shows them).');
  });
  test('a cursor from another query is an isError result', async () => {
    const first = await h.call('pm_list', { limit: 1 });
    expectToolError(await h.call('pm_list', { limit: 1, sort: 'title', cursor: first.structuredContent!.nextCursor }), /cursor belongs to a different query/);
  });
  test('an unknown status is refused by the schema-twin parser', async () => {
    expectToolError(await h.call('pm_list', { status: ['done'] }), /Invalid arguments for pm_list: status\.0/);
  });
});

describe('pm_get', () => {
  test('returns the whole item with the latest comments', async () => {
    for (let i = 1; i <= 3; i++) await h.tracker.comment(ids.a, `note ${i}`);
    const result = await h.call('pm_get', { id: ids.a, comments: 2 });
    expect(result.structuredContent).toMatchObject({ commentsTotal: 3, item: { id: ids.a, body: 'Tools over the tracker.', acceptance: [{ text: 'schemas are bounded', done: false }, { text: 'tests pass', done: false }] } });
    expect((result.structuredContent!.item as { comments: { text: string }[] }).comments.map((c) => c.text)).toEqual(['note 2', 'note 3']);
    expect(text(result)).toContain('comments (latest 2 of 3):');
    expect(text(result)).toContain('  1. [ ] schemas are bounded');
  });
  test('a missing item is an isError result', async () => {
    expectToolError(await h.call('pm_get', { id: 'pm-zzzzzz' }), /no item pm-zzzzzz \(not_found\)/);
  });
  test('a reused serialized result always matches the file: changes, arguments and eras', async () => {
    const first = await h.call('pm_get', { id: ids.a });
    expect(await h.call('pm_get', { id: ids.a })).toEqual(first);
    // A change through pm, and a hand edit of the file, are both seen at once.
    await h.tracker.update(ids.a, { title: 'Renamed through pm' });
    expect(text(await h.call('pm_get', { id: ids.a }))).toContain('Renamed through pm');
    const path = `/project/.agents/pm/items/${ids.a}.md`;
    await h.env.fs.writeAtomic(path, (await h.env.fs.readText(path))!.replace('title: Renamed through pm', 'title: Renamed by hand'));
    const edited = await h.call('pm_get', { id: ids.a });
    expect((edited.structuredContent!.item as { title: string }).title).toBe('Renamed by hand');
    // Other arguments, unknown ones (refused, never memoized), and the legacy era get their own results.
    await h.tracker.comment(ids.a, 'one');
    await h.tracker.comment(ids.a, 'two');
    const one = await h.call('pm_get', { id: ids.a, comments: 1 });
    expect((one.structuredContent!.item as { comments: unknown[] }).comments).toHaveLength(1);
    expect((await h.call('pm_get', { id: ids.a, comments: 2 })).structuredContent!.item).toMatchObject({ comments: [{ text: 'one' }, { text: 'two' }] });
    expect((await h.modern('tools/call', { name: 'pm_get', arguments: { id: ids.a, comments: 1, coments: 1 } })).error).toMatchObject({ code: -32602, message: expect.stringContaining("did you mean 'comments'?") });
    expect((await h.call('pm_get', { id: ids.a, comments: 1 })).structuredContent).toEqual(one.structuredContent);
    await h.initialize();
    const legacy = await h.call('pm_get', { id: ids.a, comments: 1 }, '2025-11-25');
    expect(JSON.parse(text(legacy))).toEqual(legacy.structuredContent);
  });
  test('a malformed id is refused before the tracker is asked', async () => {
    expectToolError(await h.call('pm_get', { id: 'PM 1' }), /Invalid arguments for pm_get: id: not an item id/);
  });
});

describe('pm_search', () => {
  test('ranks matches and shows where they matched', async () => {
    const result = await h.call('pm_search', { query: 'tools' });
    expect(result.structuredContent).toMatchObject({ mode: 'all', total: 2 });
    expect((result.structuredContent!.results as { id: string }[]).map((r) => r.id)).toEqual([ids.a, ids.c]);
    expect(text(result)).toContain(`${ids.a} [open P1 Task] Write the tools`);
  });
  test('a query without words is an isError result', async () => {
    expectToolError(await h.call('pm_search', { query: '???' }), /search query has no words to look for/);
  });
});

describe('pm_history', () => {
  test('lists the change log, latest entries, patches on request', async () => {
    await h.tracker.comment(ids.a, 'progress');
    const result = await h.call('pm_history', { id: ids.a, limit: 1, patches: true });
    expect(result.structuredContent).toMatchObject({ id: ids.a, total: 2, entries: [{ seq: 2, op: 'comment', actor: 'alice', revisionBefore: 1, revisionAfter: 2, patch: expect.any(Array) }] });
    expect(text(result)).toMatch(/^History of pm-\w+: latest 1 of 2 changes\n#2 \S+ alice comment \(revision 1 -> 2\) rcpt-/);
    const lean = await h.call('pm_history', { id: ids.a });
    expect((lean.structuredContent!.entries as object[])[0]).not.toHaveProperty('patch');
  });
  test('an item with neither file nor history is an isError result', async () => {
    expectToolError(await h.call('pm_history', { id: 'pm-nothere' }), /no item pm-nothere and no history for it/);
  });
  test('marks the lines of a forged history and refuses changes to the item (history_unverifiable)', async () => {
    await h.tracker.comment(ids.a, 'second');
    await h.tracker.comment(ids.a, 'third');
    const file = `/project/.agents/pm/history/${ids.a}.jsonl`;
    const lines = (await h.env.fs.readText(file))!.split('\n');
    lines[1] = lines[1]!.replace('"actor":"alice"', '"actor":"mallory"');
    await h.env.fs.writeAtomic(file, lines.join('\n'));
    const result = await h.call('pm_history', { id: ids.a });
    expect((result.structuredContent!.entries as { seq: number; verified?: boolean }[]).map((e) => e.verified)).toEqual([undefined, false, undefined]);
    expect(text(result)).toMatch(/^#2 \S+ mallory comment .*UNVERIFIED/m);
    expect(text(result)).toContain('does not verify');
    expectToolError(await h.call('pm_comment', { id: ids.a, text: 'more' }), /refusing to change pm-\w+: its history does not verify .*line 2.* \(history_unverifiable\)/);
  });
});

describe('query results and the integrity of the tracker', () => {
  test('pm_list, pm_search and pm_next name the item files they left out', async () => {
    await h.env.fs.writeAtomic(`/project/.agents/pm/items/${ids.c}.md`, `---\nid: ${ids.c}\ntitle: a: b\n---\n`);
    for (const [name, args] of [['pm_list', {}], ['pm_search', { query: 'write' }], ['pm_next', {}]] as const) {
      const result = await h.call(name, args);
      expect(result.structuredContent).toMatchObject({ unreadable: [{ id: ids.c, message: expect.stringContaining(':3:8: YAML error') }] });
      expect(text(result)).toContain(`1 item file(s) could not be read and are left out: ${ids.c}`);
    }
    expect((await h.call('pm_list', { all: true })).structuredContent!.items as unknown[]).toHaveLength(4);
  });
  test('an unknown status or type is refused naming the allowed values', async () => {
    expectToolError(await h.call('pm_list', { status: ['nope'] }), /status.*draft.*open.*in_progress/s);
    expectToolError(await h.call('pm_list', { type: ['Bug'] }), /type.*Epic.*Feature.*Task/s);
  });
  test('a blocker that is done no longer shows as blocking', async () => {
    expect(text(await h.call('pm_list', {}))).toContain(`Write the resources (blocked by ${ids.a})`);
    await h.tracker.close(ids.a, { evidence: 'done' });
    const after = await h.call('pm_list', {});
    expect(text(after)).not.toContain('blocked by');
    expect((after.structuredContent!.items as { id: string; activeBlockers: string[] }[]).find((i) => i.id === ids.b)).toMatchObject({ blockedBy: [ids.a], activeBlockers: [] });
  });
});

describe('pm_graph', () => {
  test('the graph of an item: ancestors, children, blockers, blocked items, related', async () => {
    const result = await h.call('pm_graph', { id: ids.a });
    const graph = result.structuredContent as { focus: string; nodes: { id: string }[]; edges: { from: string; to: string; kind: string }[]; truncated: boolean };
    expect(graph.focus).toBe(ids.a);
    expect(graph.nodes.map((n) => n.id).sort()).toEqual([ids.a, ids.b, ids.epic].sort());
    expect(graph.edges).toEqual([
      { from: ids.epic, to: ids.a, kind: 'parent' },
      { from: ids.a, to: ids.b, kind: 'blocks' },
    ]);
    expect(graph.truncated).toBe(false);
    expect(text(result)).toContain(`${ids.a} blocks ${ids.b}`);
    const epic = await h.call('pm_graph', { id: ids.epic, depth: 1 });
    expect(epic.structuredContent!.edges).toEqual([{ from: ids.epic, to: ids.a, kind: 'parent' }, { from: ids.epic, to: ids.b, kind: 'parent' }]);
    const related = await h.call('pm_graph', { id: ids.c, depth: 3 });
    expect(related.structuredContent!.edges).toEqual([{ from: ids.c, to: ids.a, kind: 'related' }]);
    expect(text(related)).toContain(`${ids.c} related to ${ids.a}`);
  });
  test('the node bound cuts the graph and says so', async () => {
    const result = await h.call('pm_graph', { id: ids.epic, maxNodes: 2 });
    expect(result.structuredContent).toMatchObject({ truncated: true });
    expect((result.structuredContent!.nodes as unknown[]).length).toBe(2);
    expect(text(result)).toContain('(cut at the maxNodes bound)');
  });
  test('the project graph: unfinished items with parent and blocker links', async () => {
    const result = await h.call('pm_graph', {});
    expect(result.structuredContent).toMatchObject({ focus: null, total: 4, truncated: false });
    expect(result.structuredContent!.edges).toEqual(expect.arrayContaining([{ from: ids.a, to: ids.b, kind: 'blocks' }, { from: ids.epic, to: ids.a, kind: 'parent' }]));
    expect((await h.call('pm_graph', { all: true })).structuredContent).toMatchObject({ total: 5 });
  });
  test('a missing item is an isError result', async () => {
    expectToolError(await h.call('pm_graph', { id: 'pm-zzzzzz' }), /no item pm-zzzzzz/);
  });
});

describe('pm_deps show', () => {
  test('shows blockers, blocked items and related items', async () => {
    const result = await h.call('pm_deps', { id: ids.b });
    expect(result.structuredContent).toMatchObject({ action: 'show', view: { id: ids.b, blockedBy: [{ id: ids.a, status: 'open' }], blocks: [], related: [], openBlockers: 1 } });
    const a = await h.call('pm_deps', { id: ids.a });
    expect(a.structuredContent).toMatchObject({ view: { blocks: [{ id: ids.b }], blocksTotal: 1 } });
    expect(text(result)).toContain(`blocked by: ${ids.a} [open] Write the tools (1 unfinished)`);
  });
  test('a missing item is an isError result', async () => {
    expectToolError(await h.call('pm_deps', { id: 'pm-zzzzzz' }), /no item pm-zzzzzz/);
  });
});

describe('pm_validate', () => {
  test('reports a valid tracker', async () => {
    const result = await h.call('pm_validate');
    expect(result.structuredContent).toMatchObject({ ok: true, items: 5, errorCount: 0, findings: [], findingsTotal: 0 });
    expect(text(result)).toBe('Tracker is valid: 5 items, 0 warnings.');
  });
  test('reports tampering, errors first, bounded by limit', async () => {
    const file = `${h.tracker.paths.history}/${ids.d}.jsonl`;
    const history = (await h.env.fs.readText(file))!;
    await h.env.fs.writeAtomic(file, history.replace('"op":"create"', '"op":"update"'));
    await h.env.fs.writeAtomic(`${h.tracker.paths.items}/stray.txt`, 'x');
    const result = await h.call('pm_validate', { limit: 1 });
    expect(result.structuredContent).toMatchObject({ ok: false, findings: [{ severity: 'error', code: 'history_tampered' }] });
    expect(text(result)).toMatch(/^Tracker has \d+ errors and \d+ warnings over 5 items\.\nerror history_tampered/);
    const cursor = result.structuredContent!.nextCursor as string;
    expect(text(result)).toMatch(new RegExp(`1 more findings not shown; next page: cursor ${cursor}$`));
    const rest = await h.call('pm_validate', { limit: 1, cursor });
    expect(rest.structuredContent).toMatchObject({ findings: [{ severity: 'warning' }], findingsTotal: 2 });
    expect(rest.structuredContent).not.toHaveProperty('nextCursor');
    expectToolError(await h.call('pm_validate', { cursor: 'garbage!' }), /invalid cursor/);
  });
  test('an out-of-range limit is an isError result', async () => {
    expectToolError(await h.call('pm_validate', { limit: 0 }), /Invalid arguments for pm_validate: limit/);
  });
});

describe('the legacy path', () => {
  test.each(['2025-11-25', '2025-06-18'] as const)('%s: same structuredContent, JSON text beside it', async (revision) => {
    await h.initialize(revision);
    for (const [name, args] of [['pm_context', {}], ['pm_get', { id: ids.a }], ['pm_list', {}], ['pm_graph', { id: ids.a }], ['pm_history', { id: ids.a }]] as const) {
      const legacy = await h.call(name, args, revision);
      expect(legacy).not.toHaveProperty('resultType');
      expect(JSON.parse(text(legacy))).toEqual(legacy.structuredContent);
      const modern = await h.call(name, args);
      expect(modern.structuredContent).toEqual(legacy.structuredContent);
      expect(text(modern)).not.toBe(text(legacy));
    }
  });
  test('a tool failure is an isError result on the legacy path too', async () => {
    const result = await h.call('pm_get', { id: 'pm-zzzzzz' }, '2025-11-25');
    expectToolError(result, /no item pm-zzzzzz/);
  });
});
