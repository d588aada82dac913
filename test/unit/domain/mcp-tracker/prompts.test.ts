import { expectCleanHarness, seededHarness, type Message, type SeededHarness, type TrackerMcpHarness } from '../../../support/mcp-tracker-harness.js';

/**
 * The tracker prompts (2026-07-28 `server/prompts`): orientation, claim-and-start (argument:
 * item id) and evidence-and-close (arguments: item id, evidence), rendered from live tracker data.
 */

let h: TrackerMcpHarness;
let ids: SeededHarness['ids'];

beforeEach(async () => ({ h, ids } = await seededHarness()));
afterEach(() => expectCleanHarness(h));

type PromptMessage = { role: string; content: { type: string; text?: string; uri?: string; name?: string } };
const messages = (m: Message) => m.result!.messages as PromptMessage[];
const firstText = (m: Message) => messages(m)[0]!.content.text!;

test('prompts/list: three prompts with their arguments, public metadata', async () => {
  const listed = await h.modern('prompts/list');
  expect(listed.result).toMatchObject({
    cacheScope: 'public',
    prompts: [
      { name: 'orientation', title: 'Orientation' },
      { name: 'claim-and-start', arguments: [{ name: 'id', required: true }] },
      { name: 'evidence-and-close', arguments: [{ name: 'id', required: true }, { name: 'evidence', required: true }] },
    ],
  });
  expect((listed.result!.prompts as object[])[0]).not.toHaveProperty('arguments');
});

test('orientation renders the live project state and the workflow', async () => {
  const got = await h.modern('prompts/get', { name: 'orientation' });
  expect(got.result).toMatchObject({ resultType: 'complete', description: 'Project orientation' });
  expect(got.result).not.toHaveProperty('ttlMs');
  const text = firstText(got);
  expect(text).toContain('Project (id prefix pm): 5 items');
  expect(text).toContain(`Next: ${ids.a} [open P1 Task] Write the tools`);
  expect(text).toContain('claim it with pm_claim before starting');
  expect(text).toContain('pm://guidance');
  await h.tracker.claim(ids.a, {}, { actor: 'bob' });
  expect(firstText(await h.modern('prompts/get', { name: 'orientation' }))).toMatch(new RegExp(`Active claims: ${ids.a} by bob until`));
});

test('claim-and-start renders the item, its blockers and the claim call, plus a resource link', async () => {
  const got = await h.modern('prompts/get', { name: 'claim-and-start', arguments: { id: ids.b } });
  const text = firstText(got);
  expect(text).toMatch(new RegExp(`^Claim and start work on ${ids.b}\\.`));
  expect(text).toContain('Write the resources');
  expect(text).toContain(`blockers:\n  ${ids.a}: open (unfinished)`);
  expect(text).toContain('1 blocker(s) are unfinished; finish or discuss them first.');
  expect(text).toContain(`pm_claim {"id":"${ids.b}","expectedRevision":1}`);
  expect(messages(got)[1]).toEqual({ role: 'user', content: { type: 'resource_link', uri: `pm://items/${ids.b}`, name: ids.b, title: 'Write the resources', mimeType: 'application/json' } });
  const closed = firstText(await h.modern('prompts/get', { name: 'claim-and-start', arguments: { id: ids.d } }));
  expect(closed).toContain(`${ids.d} is closed. If work remains, reopen it with pm_reopen first.`);
});

test('evidence-and-close lists unchecked criteria and the close call with the evidence', async () => {
  await h.tracker.update(ids.a, { checkAcceptance: [1] });
  const got = await h.modern('prompts/get', { name: 'evidence-and-close', arguments: { id: ids.a, evidence: 'PR #12 merged; npm test green' } });
  const text = firstText(got);
  expect(text).toMatch(new RegExp(`^Close ${ids.a} "Write the tools" \\(open, revision 2\\) with this evidence:\nPR #12 merged; npm test green\n`));
  expect(text).toContain('  1. [x] schemas are bounded\n  2. [ ] tests pass');
  expect(text).toContain(`1 criteria are not checked yet (2). Verify each against the evidence; mark the met ones with pm_update {"id":"${ids.a}","checkAcceptance":[2]}`);
  expect(text).toContain(`pm_close {"id":"${ids.a}","evidence":"PR #12 merged; npm test green","expectedRevision":2}`);
  const done = firstText(await h.modern('prompts/get', { name: 'evidence-and-close', arguments: { id: ids.d, evidence: 'x' } }));
  expect(done).toContain(`${ids.d} is already closed (by alice: spike done). Nothing to close`);
});

test('legacy prompts/get keeps the legacy shape', async () => {
  await h.initialize('2025-06-18');
  const got = await h.legacy('prompts/get', { name: 'claim-and-start', arguments: { id: ids.a } }, '2025-06-18');
  expect(got.result).not.toHaveProperty('resultType');
  expect(messages(got)).toHaveLength(2);
});

test('missing arguments, unknown items and over-long evidence are -32602', async () => {
  expect((await h.modern('prompts/get', { name: 'claim-and-start' })).error).toMatchObject({ code: -32602, message: 'Prompt claim-and-start is missing required arguments: id' });
  expect((await h.modern('prompts/get', { name: 'evidence-and-close', arguments: { id: ids.a } })).error).toMatchObject({ code: -32602, data: { missing: ['evidence'] } });
  expect((await h.modern('prompts/get', { name: 'claim-and-start', arguments: { id: 'pm-zzzzzz' } })).error).toMatchObject({ code: -32602, message: 'no item pm-zzzzzz' });
  expect((await h.modern('prompts/get', { name: 'claim-and-start', arguments: { id: 'not an id' } })).error).toMatchObject({ code: -32602 });
  expect((await h.modern('prompts/get', { name: 'evidence-and-close', arguments: { id: ids.a, evidence: 'x'.repeat(2001) } })).error).toMatchObject({ code: -32602, message: 'evidence is 2001 characters; at most 2000' });
  expect((await h.legacy('prompts/get', { name: 'claim-and-start', arguments: { id: 'pm-zzzzzz' } })).error).toMatchObject({ code: -32602 });
});

test('the id argument completes like the item template; other arguments offer nothing', async () => {
  const complete = (name: string, argument: string, value: string) => h.modern('completion/complete', { ref: { type: 'ref/prompt', name }, argument: { name: argument, value } });
  const byPrefix = await complete('claim-and-start', 'id', ids.c.slice(0, 5));
  expect((byPrefix.result!.completion as { values: string[] }).values).toContain(ids.c);
  expect((await complete('evidence-and-close', 'id', ids.d)).result).toMatchObject({ completion: { values: [ids.d], total: 1, hasMore: false } });
  expect((await complete('evidence-and-close', 'evidence', 'x')).result).toMatchObject({ completion: { values: [], total: 0, hasMore: false } });
  expect((await complete('orientation', 'id', '')).error).toMatchObject({ code: -32602 });
});
