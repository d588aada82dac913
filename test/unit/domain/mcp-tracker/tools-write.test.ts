import { resolvePmMcpActor, resolvePmMcpClient } from '../../../../src/domain/mcp-tracker/index.js';
import { expectCleanHarness, seededHarness, TrackerMcpHarness, type ToolResult, type SeededHarness } from '../../../support/mcp-tracker-harness.js';

/**
 * The mutating tracker tools over the real dispatcher (docs/TRACKER.md "Mutations"): receipts
 * in structuredContent, expectedRevision and idempotencyKey, the actor taken from the request,
 * consent for the destructive tool, and one failure each as an isError result.
 */

const text = TrackerMcpHarness.text;
let h: TrackerMcpHarness;
let ids: SeededHarness['ids'];

beforeEach(async () => ({ h, ids } = await seededHarness()));
afterEach(() => expectCleanHarness(h));

function expectToolError(result: ToolResult, message: RegExp): void {
  expect(result.isError).toBe(true);
  expect(text(result)).toMatch(message);
}

const data = (r: ToolResult) => r.structuredContent as { item: { id: string; revision: number; status: string; claim?: { holder: string } }; receipt: { receiptId: string; op: string; actor: string; revisionAfter: number | null }; changed: boolean; replayed: boolean };

describe('pm_create', () => {
  test('creates an item, returns brief item and receipt, records the client as actor', async () => {
    const result = await h.call('pm_create', { title: 'New tool', priority: 1, tags: ['mcp'], parent: ids.epic, acceptance: ['works'] });
    expect(result.structuredContent).toMatchObject({ item: { title: 'New tool', status: 'open', priority: 1, revision: 1, parent: ids.epic }, receipt: { op: 'create', actor: 'alice', client: 'test-client/1.0.0', revisionBefore: null, revisionAfter: 1 }, changed: true, replayed: false });
    const id = data(result).item.id;
    expect(text(result)).toBe(`Created ${id}. ${id} "New tool" is open, P1, revision 1. Receipt ${data(result).receipt.receiptId}.`);
    expect((await h.tracker.get(id)).acceptance).toEqual([{ text: 'works', done: false }]);
  });
  test('an idempotency key makes a retry return the first receipt and create nothing', async () => {
    const first = await h.call('pm_create', { title: 'Once', idempotencyKey: 'create-once' });
    const again = await h.call('pm_create', { title: 'Once', idempotencyKey: 'create-once' });
    expect(data(again)).toMatchObject({ replayed: true, changed: false, receipt: { receiptId: data(first).receipt.receiptId }, item: { id: data(first).item.id } });
    expect(text(again)).toMatch(/^Replay of idempotency key 'create-once': nothing written\./);
    expect((await h.tracker.list({ text: 'once' })).total).toBe(1);
  });
  test('a parent that does not exist is an isError result and nothing is written', async () => {
    expectToolError(await h.call('pm_create', { title: 'Orphan', parent: 'pm-nothere' }), /no item pm-nothere \(not_found\)/);
    expect((await h.tracker.list({ text: 'orphan' })).total).toBe(0);
  });
  test('the tracker\'s field limits hold here as in the CLI: control characters are isError results naming the field', async () => {
    const before = (await h.tracker.list({ all: true })).total;
    expectToolError(await h.call('pm_create', { title: 'evil \u001b[31mred' }), /^title holds the control character U\+001B at position 6; .* \(invalid_input\)\n\{"field":"title"\}$/s);
    expectToolError(await h.call('pm_create', { title: 'two\nlines' }), /control character U\+000A/);
    expectToolError(await h.call('pm_create', { title: 'x'.repeat(501) }), /Invalid arguments for pm_create: title: Too big/);
    expectToolError(await h.call('pm_comment', { id: ids.a, text: 'bell \u0007' }), /^comment holds the control character U\+0007/);
    expect((await h.tracker.list({ all: true })).total).toBe(before);
    expect((await h.tracker.get(ids.a)).comments).toEqual([]);
    expect(data(await h.call('pm_comment', { id: ids.a, text: 'line one\n\tline two' })).changed).toBe(true);
  });
});

describe('pm_update', () => {
  test('changes only the given fields and returns the receipt', async () => {
    const result = await h.call('pm_update', { id: ids.a, checkAcceptance: [1], addTags: ['tools'], priority: 0, expectedRevision: 1 });
    expect(data(result)).toMatchObject({ item: { id: ids.a, revision: 2, priority: 0 }, receipt: { op: 'update', revisionAfter: 2 }, changed: true });
    const item = await h.tracker.get(ids.a);
    expect(item.tags).toEqual(['mcp', 'tools']);
    expect(item.acceptance[0]).toEqual({ text: 'schemas are bounded', done: true });
    const cleared = await h.call('pm_update', { id: ids.b, parent: null });
    expect(data(cleared).item).not.toHaveProperty('parent');
  });
  test('clear removes parent and assignee; naming a field in clear and setting it is an isError result that writes nothing', async () => {
    await h.tracker.update(ids.b, { assignee: 'bob' });
    const cleared = await h.call('pm_update', { id: ids.b, clear: ['parent', 'assignee'] });
    expect(data(cleared).item).not.toHaveProperty('parent');
    expect(data(cleared).item).not.toHaveProperty('assignee');
    const revision = (await h.tracker.get(ids.a)).revision;
    expectToolError(await h.call('pm_update', { id: ids.a, parent: ids.epic, clear: ['parent'] }), /parent is both set and named in clear; send one of them \(invalid_input\)/);
    expectToolError(await h.call('pm_update', { id: ids.a, clear: ['title'] }), /Invalid arguments for pm_update: clear/);
    expect((await h.tracker.get(ids.a)).revision).toBe(revision);
  });
  test('a stale expectedRevision is refused as an isError result', async () => {
    await h.tracker.comment(ids.a, 'someone else was faster');
    expectToolError(await h.call('pm_update', { id: ids.a, title: 'Mine', expectedRevision: 1 }), /is at revision 2, not 1: it changed since you read it; re-read and retry \(stale_revision\)/);
    expect((await h.tracker.get(ids.a)).title).toBe('Write the tools');
  });
  test('closing through update is refused by the schema twin; an empty update by the tracker', async () => {
    expectToolError(await h.call('pm_update', { id: ids.a, status: 'closed' }), /Invalid arguments for pm_update: status/);
    expectToolError(await h.call('pm_update', { id: ids.a }), /nothing to update/);
  });
});

describe('pm_claim and pm_release', () => {
  test('the principal is the actor when the transport authenticated one', async () => {
    const facts = { kind: 'memory' as const, principal: { id: 'carol', scopes: ['pm:write'] } };
    const response = await h.modern('tools/call', { name: 'pm_claim', arguments: { id: ids.a, leaseMinutes: 30 } }, {}, facts);
    const result = response.result as unknown as ToolResult;
    expect(data(result)).toMatchObject({ item: { status: 'in_progress', claim: { holder: 'carol' } }, receipt: { op: 'claim', actor: 'carol' } });
    expect(text(result)).toMatch(new RegExp(`^Claimed ${ids.a} for carol until 2026-03-01T10:3`));
  });
  test("someone else's live claim is refused as an isError result", async () => {
    await h.tracker.claim(ids.a, {}, { actor: 'bob' });
    expectToolError(await h.call('pm_claim', { id: ids.a }), /is claimed by bob until .* \(claimed\)/);
    expect(data(await h.call('pm_claim', { id: ids.a, force: true }, '2025-11-25')).item.claim!.holder).toBe('alice'); // legacy: force is the consent
  });
  test('claiming blocked work and updating a claimed item warn in structuredContent.warnings', async () => {
    const claimed = await h.call('pm_claim', { id: ids.b });
    expect(claimed.structuredContent!.warnings).toEqual([`${ids.b} is blocked by unfinished work: ${ids.a} (open)`]);
    expect(text(claimed)).toContain(`Warning: ${ids.b} is blocked by unfinished work`);
    await h.tracker.claim(ids.c, {}, { actor: 'bob' });
    const updated = await h.call('pm_update', { id: ids.c, priority: 0 });
    expect(updated.structuredContent!.warnings).toEqual([expect.stringMatching(new RegExp(`^${ids.c} is claimed by bob until .*; you are changing their work$`))]);
    expect(data(await h.call('pm_update', { id: ids.a, priority: 0 }))).not.toHaveProperty('warnings');
  });
  test('release gives the claim back; releasing an unclaimed item is an isError result', async () => {
    await h.call('pm_claim', { id: ids.a });
    const released = await h.call('pm_release', { id: ids.a });
    expect(data(released)).toMatchObject({ item: { status: 'open' }, receipt: { op: 'release' } });
    expect(data(released).item).not.toHaveProperty('claim');
    expectToolError(await h.call('pm_release', { id: ids.a }), /is not claimed \(not_claimed\)/);
  });
});

describe('pm_close and pm_reopen', () => {
  test('close records the evidence; reopen brings it back with the reason as a comment', async () => {
    const closed = await h.call('pm_close', { id: ids.a, evidence: 'commit abc123, tests green' });
    expect(data(closed)).toMatchObject({ item: { status: 'closed', closure: { evidence: 'commit abc123, tests green', by: 'alice' } }, receipt: { op: 'close' } });
    const reopened = await h.call('pm_reopen', { id: ids.a, reason: 'regression found' });
    expect(data(reopened)).toMatchObject({ item: { status: 'open' }, receipt: { op: 'reopen' } });
    expect((await h.tracker.get(ids.a)).comments.at(-1)).toMatchObject({ author: 'alice', text: 'Reopened: regression found' });
  });
  test('closing without evidence and closing twice are isError results', async () => {
    expectToolError(await h.call('pm_close', { id: ids.a }), /Invalid arguments for pm_close: evidence/);
    expectToolError(await h.call('pm_close', { id: ids.d, evidence: 'again' }), /is already closed \(already_closed\)/);
    expectToolError(await h.call('pm_reopen', { id: ids.a }), /is open, not closed or canceled \(not_closed\)/);
  });
  test("legacy: canceling someone else's claimed item needs confirm: true", async () => {
    await h.tracker.claim(ids.a, {}, { actor: 'bob' });
    const refused = await h.call('pm_close', { id: ids.a, evidence: 'superseded', as: 'canceled' }, '2025-11-25');
    expectToolError(refused, /Cancel pm-\w+ "Write the tools", which bob has claimed .* Nothing was changed\. To proceed, call pm_close again with the same arguments plus confirm: true\. \(consent_required\)/);
    expect((await h.tracker.get(ids.a)).status).toBe('in_progress');
    const canceled = await h.call('pm_close', { id: ids.a, evidence: 'superseded', as: 'canceled', confirm: true }, '2025-11-25');
    expect(data(canceled).item.status).toBe('canceled');
    expect(JSON.parse(text(canceled))).toEqual(canceled.structuredContent);
  });
});

describe('pm_comment', () => {
  test('adds a comment as the request actor', async () => {
    const result = await h.call('pm_comment', { id: ids.a, text: 'halfway there', idempotencyKey: 'c1' });
    expect(data(result)).toMatchObject({ receipt: { op: 'comment', actor: 'alice', client: 'test-client/1.0.0' }, item: { revision: 2 } });
    expect((await h.tracker.get(ids.a)).comments).toMatchObject([{ author: 'alice', text: 'halfway there' }]);
    expect(data(await h.call('pm_comment', { id: ids.a, text: 'halfway there', idempotencyKey: 'c1' })).replayed).toBe(true);
    expect((await h.tracker.get(ids.a)).comments).toHaveLength(1);
  });
  test('blank text is an isError result', async () => {
    expectToolError(await h.call('pm_comment', { id: ids.a, text: '   ' }), /comment text must not be empty/);
  });
});

describe('pm_deps add and remove', () => {
  test('adds and removes a link, returning the receipt and the new view', async () => {
    const added = await h.call('pm_deps', { action: 'add', id: ids.c, kind: 'blockedBy', target: ids.b });
    expect(added.structuredContent).toMatchObject({ action: 'add', view: { id: ids.c, blockedBy: [{ id: ids.b }], openBlockers: 1 }, receipt: { op: 'deps', itemId: ids.c }, changed: true });
    expect(text(added)).toMatch(new RegExp(`^Linked ${ids.c} blocked by ${ids.b}\\.`));
    const blocks = await h.call('pm_deps', { action: 'add', id: ids.c, kind: 'blocks', target: ids.epic });
    expect(blocks.structuredContent).toMatchObject({ receipt: { itemId: ids.epic }, view: { blocks: [{ id: ids.epic }] } });
    const removed = await h.call('pm_deps', { action: 'remove', id: ids.c, kind: 'blockedBy', target: ids.b });
    expect(removed.structuredContent).toMatchObject({ action: 'remove', view: { blockedBy: [] } });
  });
  test('a cycle is refused; add without kind is refused', async () => {
    expectToolError(await h.call('pm_deps', { action: 'add', id: ids.a, kind: 'blockedBy', target: ids.b }), /would close a cycle.*\(dependency_cycle\)/);
    expectToolError(await h.call('pm_deps', { action: 'add', id: ids.a, target: ids.b }), /pm_deps add needs kind \(blockedBy, blocks, related\) and target/);
  });
});

describe('pm_delete', () => {
  test('legacy: without confirm nothing is deleted and the result says how to confirm', async () => {
    const refused = await h.call('pm_delete', { id: ids.d }, '2025-11-25');
    expectToolError(refused, /^Delete pm-\w+ "Old spike"\? The file is removed; its history is kept\. Nothing was changed\. To proceed, call pm_delete again with the same arguments plus confirm: true\. \(consent_required\)/);
    expect((await h.tracker.get(ids.d)).title).toBe('Old spike');
    expectToolError(await h.call('pm_delete', { id: ids.d, confirm: false }, '2025-11-25'), /confirm: true/);
  });
  test('legacy: with confirm: true the item is deleted and the receipt returned', async () => {
    const deleted = await h.call('pm_delete', { id: ids.d, confirm: true, expectedRevision: 2 }, '2025-11-25');
    expect(deleted.structuredContent).toMatchObject({ deleted: ids.d, receipt: { op: 'delete', revisionBefore: 2, revisionAfter: null }, changed: true, replayed: false });
    expect(JSON.parse(text(deleted))).toEqual(deleted.structuredContent);
    expectToolError(await h.call('pm_get', { id: ids.d }), /no item/);
  });
  test('an item others link to is refused before consent is asked', async () => {
    expectToolError(await h.call('pm_delete', { id: ids.a, confirm: true }, '2025-11-25'), /is still referenced by .*\(referenced\)/);
    expectToolError(await h.call('pm_delete', { id: ids.a }), /is still referenced by .*\(referenced\)/);
  });
});

describe('actor', () => {
  test('the principal (token subject), then the configured actor; the client software apart, as name/version', () => {
    expect(resolvePmMcpActor({ principal: { id: 'carol', scopes: [] } }, 'pm')).toBe('carol');
    expect(resolvePmMcpActor({ principal: undefined }, 'pm')).toBe('pm');
    expect(resolvePmMcpActor({ principal: undefined }, undefined)).toBeUndefined();
    expect(resolvePmMcpActor({ principal: { id: 'x'.repeat(300), scopes: [] } }, undefined)).toHaveLength(200);
    expect(resolvePmMcpClient({ clientInfo: { name: 'srv', version: '1.2.0' } })).toBe('srv/1.2.0');
    expect(resolvePmMcpClient({ clientInfo: undefined })).toBeUndefined();
    expect(resolvePmMcpClient({ clientInfo: { name: 'y'.repeat(300), version: '1' } })).toHaveLength(200);
  });
  test('a client that sends the configured server name as clientInfo.name (OpenAI Agents, Mastra) is recorded as the client, not as the actor; history keeps both', async () => {
    const srv = { 'io.modelcontextprotocol/clientInfo': { name: 'srv', version: '0.1.0' } };
    const commented = await h.call('pm_comment', { id: ids.a, text: 'from an agent framework' }, 'modern', srv);
    expect(data(commented).receipt).toMatchObject({ actor: 'alice', client: 'srv/0.1.0' });
    expect((await h.tracker.get(ids.a)).comments.at(-1)).toMatchObject({ author: 'alice' });
    const history = await h.call('pm_history', { id: ids.a });
    expect((history.structuredContent as { entries: { actor: string; client?: string }[] }).entries.at(-1)).toMatchObject({ actor: 'alice', client: 'srv/0.1.0' });
    expect(text(history)).toMatch(/ alice via srv\/0\.1\.0 comment /);
    // Older lines (written without a client) and the new one read and verify together.
    const entries = (history.structuredContent as { entries: { client?: string; verified?: boolean }[] }).entries;
    expect(entries[0]).not.toHaveProperty('client');
    expect(entries.filter((e) => e.verified === false)).toEqual([]);
    expect((await h.tracker.verifiedHistory(ids.a)).faults).toEqual([]);
    // The token subject wins over the configured actor.
    const facts = { kind: 'memory' as const, principal: { id: 'carol', scopes: ['pm:write'] } };
    const principal = (await h.modern('tools/call', { name: 'pm_comment', arguments: { id: ids.a, text: 'as carol' } }, srv, facts)).result as unknown as ToolResult;
    expect(data(principal).receipt).toMatchObject({ actor: 'carol', client: 'srv/0.1.0' });
  });
  test('legacy: the configured actor before and after initialize; the initialize clientInfo is the client', async () => {
    const before = await h.call('pm_comment', { id: ids.a, text: 'one' }, '2025-11-25');
    expect(data(before).receipt.actor).toBe('alice');
    expect(data(before).receipt).not.toHaveProperty('client');
    await h.initialize('2025-06-18', 'old-host');
    const after = await h.call('pm_comment', { id: ids.a, text: 'two' }, '2025-06-18');
    expect(data(after).receipt).toMatchObject({ actor: 'alice', client: 'old-host/1.0.0' });
    expect(JSON.parse(text(after))).toEqual(after.structuredContent);
    const configured = await TrackerMcpHarness.create({ defaultActor: 'pm-mcp' });
    const seeded = await configured.seed();
    expect(data(await configured.call('pm_comment', { id: seeded.a, text: 'three' }, '2025-11-25')).receipt.actor).toBe('pm-mcp');
    expect(configured.problems).toEqual([]);
  });
  test('pm_next skips items assigned to somebody else than the request actor', async () => {
    await h.tracker.update(ids.a, { assignee: 'bob' });
    expect((await h.call('pm_next')).structuredContent).toMatchObject({ item: { id: ids.c } });
    const bob = { kind: 'memory' as const, principal: { id: 'bob', scopes: ['pm:read', 'pm:write'] } };
    expect(((await h.modern('tools/call', { name: 'pm_next', arguments: {} }, {}, bob)).result as unknown as ToolResult).structuredContent).toMatchObject({ item: { id: ids.a } });
  });
});
