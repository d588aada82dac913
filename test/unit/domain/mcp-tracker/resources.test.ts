import { PM_BUILTIN_GUIDANCE, PM_MAX_GUIDANCE_LENGTH } from '../../../../src/domain/mcp-tracker/index.js';
import { TrackerMcpHarness, type Message } from '../../../support/mcp-tracker-harness.js';

/**
 * The tracker resources (2026-07-28 `server/resources`): pm://context, pm://items/{id}
 * (template, with completion of ids), pm://claims and pm://guidance, with cursor pagination
 * wherever a list can grow (seed 004 "MRTR, tasks, and cache behavior": "Tool and resource data
 * stay private; public metadata lists may be cached").
 */

let h: TrackerMcpHarness;
afterEach(() => {
  expect(h.problems).toEqual([]);
  expect(h.internalErrors).toEqual([]);
});

type Listed = { uri: string; name: string; title?: string; description?: string; mimeType?: string };
const resources = (m: Message) => m.result!.resources as Listed[];
const contents = (m: Message) => m.result!.contents as { uri: string; mimeType: string; text: string; _meta?: Record<string, unknown> }[];

describe('resources/list', () => {
  test('the fixed resources, then one entry per item, as private tracker data', async () => {
    h = await TrackerMcpHarness.create();
    const ids = await h.seed();
    const page = await h.modern('resources/list');
    expect(page.result).toMatchObject({ resultType: 'complete', ttlMs: 5000, cacheScope: 'private' });
    expect(page.result).not.toHaveProperty('nextCursor');
    const listed = resources(page);
    expect(listed.slice(0, 3).map((r) => r.uri)).toEqual(['pm://context', 'pm://claims', 'pm://guidance']);
    const items = listed.slice(3);
    expect(items.map((r) => r.uri)).toEqual(Object.values(ids).sort().map((id) => `pm://items/${id}`));
    expect(items.find((r) => r.name === ids.a)).toEqual({ uri: `pm://items/${ids.a}`, name: ids.a, title: 'Write the tools', description: 'Task, open, P1', mimeType: 'application/json' });
    const created = (await h.tracker.create({ title: 'Fresh' })).item.id;
    expect(resources(await h.modern('resources/list')).map((r) => r.name)).toContain(created);
  });

  test('pages over many items with cursors; every page private; nothing repeated or skipped', async () => {
    h = await TrackerMcpHarness.create();
    const made = new Set<string>();
    for (let i = 0; i < 250; i++) made.add((await h.tracker.create({ title: `item ${i}` })).item.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await h.modern('resources/list', cursor ? { cursor } : {});
      expect(page.result).toMatchObject({ cacheScope: 'private', ttlMs: 5000 });
      seen.push(...resources(page).map((r) => r.uri));
      cursor = page.result!.nextCursor as string | undefined;
      if (pages === 0) await h.tracker.create({ title: 'created while paging' });
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of made) expect(seen).toContain(`pm://items/${id}`);
    expect(seen.slice(0, 3)).toEqual(['pm://context', 'pm://claims', 'pm://guidance']);
  });

  test('a page boundary right after the fixed resources continues with the items', async () => {
    h = await TrackerMcpHarness.create({ pageSize: 3 });
    const ids = await h.seed();
    const first = await h.modern('resources/list');
    expect(resources(first).map((r) => r.uri)).toEqual(['pm://context', 'pm://claims', 'pm://guidance']);
    const second = await h.modern('resources/list', { cursor: first.result!.nextCursor });
    expect(resources(second).map((r) => r.name)).toEqual(Object.values(ids).sort().slice(0, 3));
    const small = await TrackerMcpHarness.create({ pageSize: 2 });
    const head = await small.modern('resources/list');
    expect(resources(head)).toHaveLength(2);
    const rest = await small.modern('resources/list', { cursor: head.result!.nextCursor });
    expect(resources(rest).map((r) => r.uri)).toEqual(['pm://guidance']);
    expect(small.problems).toEqual([]);
  });

  test('invalid cursors are -32602', async () => {
    h = await TrackerMcpHarness.create();
    expect((await h.modern('resources/list', { cursor: 'd.not-a-cursor!' })).error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid cursor/) });
    expect((await h.modern('resources/list', { cursor: 'garbage' })).error).toMatchObject({ code: -32602 });
  });

  test('legacy: the same entries without cache fields', async () => {
    h = await TrackerMcpHarness.create();
    const ids = await h.seed();
    await h.initialize('2025-06-18');
    const page = await h.legacy('resources/list', {}, '2025-06-18');
    expect(page.result).not.toHaveProperty('cacheScope');
    expect(page.result).not.toHaveProperty('resultType');
    expect(resources(page).map((r) => r.name)).toContain(ids.b);
  });
});

describe('resources/templates/list', () => {
  test('the item template, as public metadata', async () => {
    h = await TrackerMcpHarness.create();
    const listed = await h.modern('resources/templates/list');
    expect(listed.result).toMatchObject({ cacheScope: 'public', resourceTemplates: [{ uriTemplate: 'pm://items/{id}', name: 'item', title: 'Work item', mimeType: 'application/json' }] });
  });
});

describe('resources/read', () => {
  test('pm://context is the pm_context data as JSON, private', async () => {
    h = await TrackerMcpHarness.create();
    await h.seed();
    const read = await h.modern('resources/read', { uri: 'pm://context' });
    expect(read.result).toMatchObject({ ttlMs: 5000, cacheScope: 'private' });
    const [entry] = contents(read);
    expect(entry).toMatchObject({ uri: 'pm://context', mimeType: 'application/json' });
    expect(JSON.parse(entry!.text)).toEqual((await h.call('pm_context')).structuredContent);
  });

  test('pm://claims lists the live claims', async () => {
    h = await TrackerMcpHarness.create();
    const ids = await h.seed();
    expect(JSON.parse(contents(await h.modern('resources/read', { uri: 'pm://claims' }))[0]!.text)).toEqual({ claims: [], total: 0 });
    await h.tracker.claim(ids.a, {}, { actor: 'bob' });
    const claims = JSON.parse(contents(await h.modern('resources/read', { uri: 'pm://claims' }))[0]!.text);
    expect(claims).toMatchObject({ total: 1, claims: [{ id: ids.a, holder: 'bob', title: 'Write the tools' }] });
  });

  test('pm://guidance: AGENTS.md, else CLAUDE.md, else the built-in text', async () => {
    h = await TrackerMcpHarness.create();
    const read = async () => contents(await h.modern('resources/read', { uri: 'pm://guidance' }))[0]!;
    expect(await read()).toEqual({ uri: 'pm://guidance', mimeType: 'text/markdown', text: PM_BUILTIN_GUIDANCE, _meta: { 'dev.unbrained.pm/source': 'builtin' } });
    await h.env.fs.writeAtomic('/project/CLAUDE.md', '# Claude rules\n');
    expect(await read()).toMatchObject({ text: '# Claude rules\n', _meta: { 'dev.unbrained.pm/source': 'CLAUDE.md' } });
    await h.env.fs.writeAtomic('/project/AGENTS.md', '# Agent rules\nRun npm test.\n');
    expect(await read()).toMatchObject({ text: '# Agent rules\nRun npm test.\n', _meta: { 'dev.unbrained.pm/source': 'AGENTS.md' } });
    await h.env.fs.writeAtomic('/project/AGENTS.md', 'x'.repeat(PM_MAX_GUIDANCE_LENGTH + 10));
    expect((await read()).text).toMatch(/\[AGENTS\.md continues; cut at 100000 characters\]\n$/);
    const legacy = await h.legacy('resources/read', { uri: 'pm://guidance' });
    expect(legacy.result).not.toHaveProperty('ttlMs');
  });

  test.each(['modern', '2025-11-25', '2025-06-18'] as const)('pm://items/{id} in the %s era', async (era) => {
    h = await TrackerMcpHarness.create();
    const ids = await h.seed();
    if (era === '2025-06-18') await h.initialize(era);
    const params = { uri: `pm://items/${ids.a}` };
    const read = era === 'modern' ? await h.modern('resources/read', params) : await h.legacy('resources/read', params, era);
    const [entry] = contents(read);
    expect(entry).toMatchObject({ uri: `pm://items/${ids.a}`, mimeType: 'application/json' });
    expect(JSON.parse(entry!.text)).toEqual(JSON.parse(JSON.stringify(await h.tracker.get(ids.a))));
    if (era === 'modern') expect(read.result).toMatchObject({ cacheScope: 'private', ttlMs: 5000 });
    else expect(read.result).not.toHaveProperty('cacheScope');
  });

  test.each(['pm://items/pm-zzzzzz', 'pm://items/NOT-AN-ID', 'pm://items/a/b', 'pm://nothing'])('%s is not found: -32602 with the uri (modern), -32002 (legacy)', async (uri) => {
    h = await TrackerMcpHarness.create();
    expect((await h.modern('resources/read', { uri })).error).toEqual({ code: -32602, message: 'Resource not found', data: { uri } });
    expect((await h.legacy('resources/read', { uri })).error).toMatchObject({ code: -32002, message: 'Resource not found' });
    await h.initialize('2025-06-18');
    expect((await h.legacy('resources/read', { uri }, '2025-06-18')).error).toMatchObject({ code: -32002 });
  });
});

describe('completion/complete', () => {
  test('completes item ids by prefix, most recently updated first, at most 100 with total and hasMore', async () => {
    h = await TrackerMcpHarness.create();
    const ids: string[] = [];
    for (let i = 0; i < 130; i++) {
      h.env.clock.advance(1000);
      ids.push((await h.tracker.create({ title: `item ${i}` })).item.id);
    }
    const ref = { type: 'ref/resource', uri: 'pm://items/{id}' };
    const all = await h.modern('completion/complete', { ref, argument: { name: 'id', value: 'pm-' } });
    expect(all.result).toMatchObject({ resultType: 'complete', completion: { total: 130, hasMore: true } });
    const values = (all.result!.completion as { values: string[] }).values;
    expect(values).toHaveLength(100);
    expect(values[0]).toBe(ids.at(-1));
    const target = ids[7]!;
    const narrowed = await h.modern('completion/complete', { ref, argument: { name: 'id', value: target.slice(0, 6) } });
    const narrowedValues = (narrowed.result!.completion as { values: string[] }).values;
    expect(narrowedValues).toContain(target);
    expect(narrowedValues.every((v) => v.startsWith(target.slice(0, 6)))).toBe(true);
    expect((narrowed.result!.completion as { total: number }).total).toBe(ids.filter((id) => id.startsWith(target.slice(0, 6))).length);
    expect((await h.modern('completion/complete', { ref, argument: { name: 'id', value: 'PM-' + target.slice(3) } })).result).toMatchObject({ completion: { values: [target], total: 1, hasMore: false } });
    expect((await h.modern('completion/complete', { ref, argument: { name: 'id', value: 'zz' } })).result).toMatchObject({ completion: { values: [], total: 0, hasMore: false } });
    const legacy = await h.legacy('completion/complete', { ref, argument: { name: 'id', value: target } });
    expect(legacy.result).toEqual({ completion: { values: [target], total: 1, hasMore: false } });
  });

  test('an unknown template variable is -32602; discover advertises completions', async () => {
    h = await TrackerMcpHarness.create();
    expect((await h.modern('completion/complete', { ref: { type: 'ref/resource', uri: 'pm://items/{id}' }, argument: { name: 'nope', value: '' } })).error).toMatchObject({ code: -32602 });
    const discover = await h.modern('server/discover');
    expect(discover.result!.capabilities).toEqual({ completions: {}, prompts: {}, resources: {}, tools: {} });
    expect(discover.result!.instructions).toContain('pm://guidance');
  });
});
