import { expectCleanHarness, TrackerMcpHarness, type ToolResult } from '../../../support/mcp-tracker-harness.js';

/**
 * pm_create and the custom fields config.yaml declares required (docs/TRACKER.md "Custom
 * fields"; seed 004 "MRTR, tasks, and cache behavior"): a 2026-07-28 host that declared form
 * elicitation is asked for the missing ones; every other caller is refused with the fields named.
 */

const text = TrackerMcpHarness.text;
const FORMS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const CONFIG = 'customFields:\n  team: { type: enum, values: [core, web], required: true, description: Owning team }\n  estimate: { type: number, min: 0, required: true }\n  note: { type: string }\n';
let h: TrackerMcpHarness;

beforeEach(async () => {
  h = await TrackerMcpHarness.create({ configYaml: CONFIG });
});
afterEach(() => expectCleanHarness(h));

interface InputRequired extends ToolResult {
  inputRequests: Record<string, { method: string; params: { mode: string; message: string; requestedSchema: Record<string, unknown> } }>;
  requestState: string;
}

const count = async () => (await h.call('pm_list', {})).structuredContent!.items as unknown[];
const args = { title: 'Ship it', custom: { note: 'n' } };

async function ask(): Promise<InputRequired> {
  const first = (await h.call('pm_create', args, 'modern', FORMS)) as InputRequired;
  expect(first.resultType).toBe('input_required');
  return first;
}
const answer = (asked: InputRequired, response: unknown, callArgs: Record<string, unknown> = args) =>
  h.call('pm_create', callArgs, 'modern', FORMS, { requestState: asked.requestState, inputResponses: { customFields: response } });

test('the schema says which custom fields new items need', async () => {
  const tools = (await h.modern('tools/list')).result!.tools as { name: string; inputSchema: { properties: { custom: { properties: Record<string, { description?: string }> } }; required: string[] } }[];
  const create = tools.find((t) => t.name === 'pm_create')!;
  expect(create.inputSchema.required).toEqual(['title']);
  expect(create.inputSchema.properties.custom.properties.team!.description).toBe('Required for new items: Owning team');
  expect(create.inputSchema.properties.custom.properties.estimate!.description).toBe('Required for new items.');
  expect(create.inputSchema.properties.custom.properties.note!.description).toBeUndefined();
});

test('a host with form elicitation is asked for exactly the missing fields', async () => {
  const asked = await ask();
  expect(asked.inputRequests.customFields).toEqual({
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: 'The new item "Ship it" needs the required custom fields team, estimate.',
      requestedSchema: { type: 'object', properties: { team: { title: 'team', type: 'string', enum: ['core', 'web'], description: 'Owning team' }, estimate: { title: 'estimate', type: 'number', minimum: 0 } }, required: ['team', 'estimate'] },
    },
  });
  expect(await count()).toHaveLength(0);
});

test('an accepted answer creates the item with the given values (and only the asked-for ones)', async () => {
  const asked = await ask();
  const created = await answer(asked, { action: 'accept', content: { team: 'web', estimate: 3, note: 'overwritten?', stray: 1 } });
  expect(created.isError).toBeUndefined();
  const { item } = created.structuredContent as { item: { id: string } };
  expect(created.structuredContent).toMatchObject({ item: { title: 'Ship it' }, receipt: { op: 'create' } });
  expect((await h.tracker.get(item.id)).custom).toEqual({ team: 'web', estimate: 3, note: 'n' });
  expect(await count()).toHaveLength(1);
});

test.each([
  ['decline', 'declined'],
  ['cancel', 'cancelled'],
])('a %s creates nothing and says so', async (action, word) => {
  const asked = await ask();
  const refused = await answer(asked, { action });
  expect(refused.isError).toBe(true);
  expect(text(refused).split('\n')).toEqual([`Nothing was created: the request for the required custom fields team, estimate was ${word} (invalid_input)`, '{"field":"custom.team","missing":["team","estimate"]}']);
  expect(await count()).toHaveLength(0);
});

test('an accepted answer with a wrong or missing value is refused by the tracker, naming the field', async () => {
  const wrong = await answer(await ask(), { action: 'accept', content: { team: 'mobile', estimate: 1 } });
  expect(wrong.isError).toBe(true);
  expect(text(wrong)).toMatch(/custom field 'team' must be one of core, web, got "mobile"/);
  const partial = await answer(await ask(), { action: 'accept', content: { team: 'core' } });
  expect(text(partial)).toMatch(/missing required custom field 'estimate'/);
  expect(await count()).toHaveLength(0);
});

test('a malformed answer is -32602', async () => {
  const response = await h.modern('tools/call', { name: 'pm_create', arguments: args, requestState: (await ask()).requestState, inputResponses: { customFields: { action: 'accept', content: [1] } } }, FORMS);
  expect(response.error).toMatchObject({ code: -32602, message: expect.stringMatching(/Malformed inputResponses\.customFields\.content/) });
});

test('an answer to other arguments is refused (-32602 other-arguments)', async () => {
  const asked = await ask();
  const response = await h.modern('tools/call', { name: 'pm_create', arguments: { title: 'Something else' }, requestState: asked.requestState, inputResponses: { customFields: { action: 'accept', content: { team: 'core', estimate: 1 } } } }, FORMS);
  expect(response.error).toMatchObject({ code: -32602, data: { check: 'other-arguments' } });
});

test('all fields given: nothing is asked', async () => {
  const created = await h.call('pm_create', { title: 'Full', custom: { team: 'core', estimate: 1 } }, 'modern', FORMS);
  expect(created.resultType).toBe('complete');
  expect((await h.tracker.get((created.structuredContent as { item: { id: string } }).item.id)).custom).toEqual({ team: 'core', estimate: 1 });
});

test.each([
  ['a modern client without elicitation', 'modern' as const, {}],
  ['a modern client with URL elicitation only', 'modern' as const, { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } }],
  ['a legacy client', '2025-11-25' as const, {}],
])('%s is refused with the fields named', async (_label, era, meta) => {
  const refused = await h.call('pm_create', args, era, meta);
  expect(refused.isError).toBe(true);
  expect(text(refused).split('\n')[0]).toBe("missing required custom fields 'team', 'estimate' (declared required in config.yaml) (invalid_input)");
  expect(await count()).toHaveLength(0);
});
