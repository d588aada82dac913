import { expectCleanHarness, seededHarness, TrackerMcpHarness, type ToolResult, type SeededHarness } from '../../../support/mcp-tracker-harness.js';

/**
 * Consent for destructive tools on the modern path (seed 004 "MRTR, tasks, and cache
 * behavior"; docs/TRACKER.md "Mutations"): the first call answers `input_required` with an
 * `elicitation/create` form and a one-time sealed `requestState`; the retry carries the host's
 * ElicitResult. Accept acts once, decline and cancel change nothing and say so, and every
 * malformed, foreign or replayed retry is refused without writing.
 */

const text = TrackerMcpHarness.text;
const ELICITATION = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
let h: TrackerMcpHarness;
let ids: SeededHarness['ids'];

beforeEach(async () => ({ h, ids } = await seededHarness()));
afterEach(() => expectCleanHarness(h));

interface InputRequired extends ToolResult {
  inputRequests: Record<string, { method: string; params: { mode: string; message: string; requestedSchema: { properties: Record<string, unknown>; required: string[] } } }>;
  requestState: string;
}

async function ask(name: string, args: Record<string, unknown>): Promise<InputRequired> {
  const first = (await h.call(name, args, 'modern', ELICITATION)) as InputRequired;
  expect(first.resultType).toBe('input_required');
  return first;
}

const answer = (name: string, args: Record<string, unknown>, asked: InputRequired, response: unknown, extraResponses: Record<string, unknown> = {}) =>
  h.call(name, args, 'modern', ELICITATION, { requestState: asked.requestState, inputResponses: { consent: response, ...extraResponses } });

const accept = { action: 'accept', content: { confirm: true } };

describe('pm_delete asks a modern host for consent', () => {
  test('the first call asks with an elicitation form and writes nothing', async () => {
    const asked = await ask('pm_delete', { id: ids.d });
    expect(Object.keys(asked.inputRequests)).toEqual(['consent']);
    expect(asked.inputRequests.consent).toMatchObject({ method: 'elicitation/create', params: { mode: 'form', requestedSchema: { required: ['confirm'] } } });
    expect(asked.inputRequests.consent!.params.message).toMatch(/^Delete pm-\w+ "Old spike"\?/);
    expect(asked.requestState).toMatch(/^pm1\./);
    expect((await h.tracker.get(ids.d)).title).toBe('Old spike');
  });

  test('an accepted form deletes the item once', async () => {
    const asked = await ask('pm_delete', { id: ids.d });
    const deleted = await answer('pm_delete', { id: ids.d }, asked, accept);
    expect(deleted.isError).toBeUndefined();
    expect(deleted.structuredContent).toMatchObject({ deleted: ids.d, receipt: { op: 'delete' }, changed: true });
    await expect(h.tracker.get(ids.d)).rejects.toThrow(/no item/);
  });

  test.each([
    ['decline', { action: 'decline' }],
    ['cancel', { action: 'cancel' }],
    ['accept with confirm false', { action: 'accept', content: { confirm: false } }],
  ])('%s changes nothing and says so', async (_label, response) => {
    const asked = await ask('pm_delete', { id: ids.d });
    const refused = await answer('pm_delete', { id: ids.d }, asked, response);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Consent was not given: pm-\w+ was left unchanged\. \(consent_required\)/);
    expect((await h.tracker.get(ids.d)).title).toBe('Old spike');
  });

  test('confirm: true is not consent on the modern path: the host is asked', async () => {
    const asked = await ask('pm_delete', { id: ids.d, confirm: true });
    expect(asked.inputRequests.consent).toBeDefined();
    expect((await h.tracker.get(ids.d)).title).toBe('Old spike');
  });

  test('a replayed consent is refused (-32602 replayed) and nothing more happens', async () => {
    const asked = await ask('pm_delete', { id: ids.d });
    await answer('pm_delete', { id: ids.d }, asked, accept);
    const response = await h.modern('tools/call', { name: 'pm_delete', arguments: { id: ids.d }, requestState: asked.requestState, inputResponses: { consent: accept } }, ELICITATION);
    expect(response.error).toMatchObject({ code: -32602, data: { field: 'requestState', check: 'replayed' } });
  });

  test('consent given for one item does not delete another', async () => {
    const asked = await ask('pm_delete', { id: ids.d });
    const response = await h.modern('tools/call', { name: 'pm_delete', arguments: { id: ids.c }, requestState: asked.requestState, inputResponses: { consent: accept } }, ELICITATION);
    expect(response.error).toMatchObject({ code: -32602, data: { check: 'other-arguments' } });
    expect((await h.tracker.get(ids.c)).title).toBe('Document the tools');
  });

  test('consent given to one principal does not serve another', async () => {
    const asked = await ask('pm_delete', { id: ids.d });
    const other = await h.modern('tools/call', { name: 'pm_delete', arguments: { id: ids.d }, requestState: asked.requestState, inputResponses: { consent: accept } }, ELICITATION, { kind: 'http', principal: { id: 'oauth:mallory', scopes: ['pm:write'] } } as never);
    expect(other.error).toMatchObject({ code: -32602, data: { check: 'foreign-principal' } });
    expect((await h.tracker.get(ids.d)).title).toBe('Old spike');
  });

  test('an answer without its requestState asks again (the answer alone proves nothing)', async () => {
    const again = (await h.call('pm_delete', { id: ids.d }, 'modern', ELICITATION, { inputResponses: { consent: accept } })) as InputRequired;
    expect(again.resultType).toBe('input_required');
    expect((await h.tracker.get(ids.d)).title).toBe('Old spike');
  });

  test('a retry with the state but no answer asks again with fresh state', async () => {
    const asked = await ask('pm_delete', { id: ids.d });
    const again = (await h.call('pm_delete', { id: ids.d }, 'modern', ELICITATION, { requestState: asked.requestState, inputResponses: { other: { action: 'accept' } } })) as InputRequired;
    expect(again.resultType).toBe('input_required');
    expect(again.requestState).not.toBe(asked.requestState);
    expect((await h.tracker.get(ids.d)).title).toBe('Old spike');
  });

  test('unknown extra responses are ignored', async () => {
    const asked = await ask('pm_delete', { id: ids.d });
    const deleted = await answer('pm_delete', { id: ids.d }, asked, accept, { stray: { action: 'accept', content: {} } });
    expect(deleted.structuredContent).toMatchObject({ deleted: ids.d });
  });

  test.each([
    ['inputResponses not an object', { inputResponses: [1] }, /inputResponses: Invalid input: expected record/],
    ['a response not an object', { inputResponses: { consent: 'yes' } }, /Malformed inputResponses/],
    ['a consent without a known action', { inputResponses: { consent: { action: 'maybe' } } }, /Malformed inputResponses\.consent/],
    ['a tampered requestState', { requestState: 'pm1.k1.e30.' + '0'.repeat(64), inputResponses: { consent: { action: 'accept' } } }, /Invalid requestState \(tampered\)/],
  ])('%s is -32602 and writes nothing', async (_label, extra, message) => {
    const asked = await ask('pm_delete', { id: ids.d });
    const params = { name: 'pm_delete', arguments: { id: ids.d }, requestState: asked.requestState, ...extra };
    const response = await h.modern('tools/call', params, ELICITATION);
    expect(response.error?.code).toBe(-32602);
    expect(response.error?.message).toMatch(message);
    expect((await h.tracker.get(ids.d)).title).toBe('Old spike');
  });

  test('a client that declared URL elicitation only gets -32021 naming form mode', async () => {
    const response = await h.modern('tools/call', { name: 'pm_delete', arguments: { id: ids.d } }, { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } });
    expect(response.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
  });

  test('a client that declared no elicitation gets -32021 naming the capability', async () => {
    const response = await h.modern('tools/call', { name: 'pm_delete', arguments: { id: ids.d } });
    expect(response.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    expect((await h.tracker.get(ids.d)).title).toBe('Old spike');
  });
});

describe('other destructive operations ask too', () => {
  test("canceling an item someone else claimed: decline leaves it, accept cancels", async () => {
    await h.tracker.claim(ids.a, {}, { actor: 'bob' });
    const args = { id: ids.a, evidence: 'superseded', as: 'canceled' };
    const asked = await ask('pm_close', args);
    expect(asked.inputRequests.consent!.params.message).toMatch(/^Cancel pm-\w+ "Write the tools", which bob has claimed/);
    expect((await answer('pm_close', args, asked, { action: 'decline' })).isError).toBe(true);
    expect((await h.tracker.get(ids.a)).status).toBe('in_progress');
    const again = await ask('pm_close', args);
    expect((await answer('pm_close', args, again, accept)).structuredContent).toMatchObject({ item: { status: 'canceled' } });
  });

  test('closing an unclaimed item asks nothing', async () => {
    const closed = await h.call('pm_close', { id: ids.c, evidence: 'done' }, 'modern', ELICITATION);
    expect(closed.resultType).toBe('complete');
    expect(closed.structuredContent).toMatchObject({ item: { status: 'closed' } });
  });

  test("force-taking someone else's claim asks; accept takes it over", async () => {
    await h.tracker.claim(ids.a, {}, { actor: 'bob' });
    const args = { id: ids.a, force: true };
    const asked = await ask('pm_claim', args);
    expect(asked.inputRequests.consent!.params.requestedSchema.properties.confirm).toMatchObject({ description: expect.stringMatching(/^Yes, take over the claim on pm-/) });
    expect((await answer('pm_claim', args, asked, { action: 'cancel' })).isError).toBe(true);
    expect((await h.tracker.get(ids.a)).claim?.holder).toBe('bob');
    const again = await ask('pm_claim', args);
    expect((await answer('pm_claim', args, again, accept)).structuredContent).toMatchObject({ item: { claim: { holder: 'alice' } } });
  });

  test('claiming a free item with force asks nothing', async () => {
    const claimed = await h.call('pm_claim', { id: ids.c, force: true }, 'modern', ELICITATION);
    expect(claimed.structuredContent).toMatchObject({ item: { claim: { holder: 'alice' } } });
  });
});
