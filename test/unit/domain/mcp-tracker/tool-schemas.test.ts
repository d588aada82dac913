import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import {
  defineTrackerTool,
  editDistance,
  mcpToolArguments,
  nearestDeclaredKey,
  PM_MCP_TOOL_NAMES,
} from '../../../../src/domain/mcp-tracker/index.js';
import { MAX_TOOL_ARGUMENT_DEPTH, unknownArgumentProblem, type JsonObject } from '../../../../src/domain/mcp/index.js';
import { MODERN_META } from '../../../support/mcp-fake-server.js';
import { checkJsonSchema2020 } from '../../../support/mcp-schema.js';
import { schemaPortabilityFindings } from '../../../support/schema-portability.js';
import { TrackerMcpHarness, type ToolResult } from '../../../support/mcp-tracker-harness.js';

/**
 * Tool descriptors (2026-07-28 `server/tools`; seed 004 "MRTR, tasks, and cache behavior": tool
 * schemas are validated as bounded JSON Schema 2020-12 documents before advertisement): an
 * outputSchema, annotations, and arguments parsed with zod, where unknown keys get a warning
 * naming the nearest declared key.
 */

const text = TrackerMcpHarness.text;

/** Every place a schema leaves a value unbounded (strings without maxLength/enum, arrays without maxItems, numbers without range). */
function unbounded(schema: unknown, path = '#'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  const types = ([] as unknown[]).concat(s.type ?? []);
  if (types.includes('string') && s.enum === undefined && s.maxLength === undefined) out.push(`${path}: string without maxLength`);
  if (types.includes('array') && s.maxItems === undefined) out.push(`${path}: array without maxItems`);
  if ((types.includes('integer') || types.includes('number')) && (s.minimum === undefined || s.maximum === undefined)) out.push(`${path}: number without minimum/maximum`);
  if (types.includes('object') && path !== '#' && s.additionalProperties === undefined) out.push(`${path}: object without additionalProperties`);
  for (const [key, value] of Object.entries((s.properties as Record<string, unknown>) ?? {})) out.push(...unbounded(value, `${path}/${key}`));
  for (const [i, branch] of ((s.anyOf as unknown[]) ?? []).entries()) out.push(...unbounded(branch, `${path}/anyOf/${i}`));
  if (s.items) out.push(...unbounded(s.items, `${path}/items`));
  return out;
}

/** Input fields a lossy converter would leave without a type: no `type`, a type array, or an `anyOf`/`oneOf`. */
function untypedInputFields(schema: unknown, path = '#'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  if (typeof s.type !== 'string') out.push(`${path}: ${s.anyOf ? 'anyOf' : s.oneOf ? 'oneOf' : Array.isArray(s.type) ? 'type array' : 'no type'}`);
  for (const [key, value] of Object.entries((s.properties as Record<string, unknown>) ?? {})) out.push(...untypedInputFields(value, `${path}/${key}`));
  if (s.items) out.push(...untypedInputFields(s.items, `${path}/items`));
  return out;
}

/** Schema nodes without any validation keyword (`{}`, or only annotations such as `description`). */
function emptySchemas(schema: unknown, path = '#'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const annotations = ['description', 'title', 'default', 'examples', '$comment'];
  const out = Object.keys(s).every((key) => annotations.includes(key)) ? [path] : [];
  for (const [key, value] of Object.entries((s.properties as Record<string, unknown>) ?? {})) out.push(...emptySchemas(value, `${path}/properties/${key}`));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const [i, branch] of ((s[key] as unknown[]) ?? []).entries()) out.push(...emptySchemas(branch, `${path}/${key}/${i}`));
  if (s.items && typeof s.items === 'object') out.push(...emptySchemas(s.items, `${path}/items`));
  if (s.additionalProperties && typeof s.additionalProperties === 'object') out.push(...emptySchemas(s.additionalProperties, `${path}/additionalProperties`));
  return out;
}

describe('advertised tools', () => {
  let h: TrackerMcpHarness;
  beforeAll(async () => {
    h = await TrackerMcpHarness.create({
      configYaml: 'idPrefix: pm\ncustomFields:\n  effort:\n    type: number\n    min: 0\n    max: 100\n  area:\n    type: enum\n    values: [cli, mcp]\n  note:\n    type: string\n    maxLength: 80\n  urgent:\n    type: boolean\n',
    });
  });

  test('every tool of the full profile is listed in catalogue order', async () => {
    const listed = await h.modern('tools/list');
    expect((listed.result!.tools as { name: string }[]).map((t) => t.name)).toEqual([...PM_MCP_TOOL_NAMES]);
    expect(h.problems).toEqual([]);
  });

  test.each(PM_MCP_TOOL_NAMES)('%s: bounded 2020-12 input, 2020-12 output, annotations', (name) => {
    const tool = h.server.tools!.descriptors.find((t) => t.name === name)!;
    expect(checkJsonSchema2020(tool.inputSchema)).toEqual([]);
    expect(checkJsonSchema2020(tool.outputSchema)).toEqual([]);
    expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(tool.outputSchema).toMatchObject({ type: 'object', properties: { warnings: { type: 'array' } } });
    expect(unbounded(tool.inputSchema)).toEqual([]);
    expect(tool.title).toEqual(expect.any(String));
    expect(tool.description!.length).toBeLessThanOrEqual(300);
    expect(tool.annotations).toEqual({
      readOnlyHint: expect.any(Boolean),
      destructiveHint: name === 'pm_delete',
      idempotentHint: expect.any(Boolean),
      openWorldHint: false,
    });
    // pm_next claims with claim: true (claim-next), so it is a write tool.
    const readOnly = ['pm_context', 'pm_list', 'pm_get', 'pm_search', 'pm_graph', 'pm_history', 'pm_validate'].includes(name);
    expect(tool.annotations!.readOnlyHint).toBe(readOnly);
  });

  test('the portability check flags what it should (type arrays, bare boolean schemas, a non-object root)', () => {
    expect(schemaPortabilityFindings({ type: 'object', properties: { a: { type: ['string', 'null'] }, b: { anyOf: [{ type: 'string' }, { type: 'null' }] } } })).toEqual([{ rule: 'type-union', severity: 'warning', path: '#/properties/a/type' }]);
    expect(schemaPortabilityFindings({ type: 'object', properties: { a: { type: 'array', items: { anyOf: [{ type: ['integer', 'null'] }] } } } })).toEqual([{ rule: 'type-union', severity: 'warning', path: '#/properties/a/items/anyOf/0/type' }]);
    expect(schemaPortabilityFindings({ type: 'object', properties: { data: true }, additionalProperties: false })).toEqual([{ rule: 'boolean-schema', severity: 'error', path: '#/properties/data' }]);
    expect(schemaPortabilityFindings({ type: 'string' })).toEqual([{ rule: 'root-type', severity: 'error', path: '#' }]);
  });

  test.each(PM_MCP_TOOL_NAMES)('%s: input and output schemas pass the portability check with zero findings', (name) => {
    const tool = h.server.tools!.descriptors.find((t) => t.name === name)!;
    expect(schemaPortabilityFindings(tool.inputSchema)).toEqual([]);
    expect(schemaPortabilityFindings(tool.outputSchema)).toEqual([]);
  });

  test.each(PM_MCP_TOOL_NAMES)('%s: every input field keeps one type through lossy converters (no anyOf/oneOf, no type arrays)', (name) => {
    const tool = h.server.tools!.descriptors.find((t) => t.name === name)!;
    expect(untypedInputFields(tool.inputSchema)).toEqual([]);
  });

  test.each(PM_MCP_TOOL_NAMES)('%s: no schema node, input or output, is without a validation keyword (no `{}`)', (name) => {
    const tool = h.server.tools!.descriptors.find((t) => t.name === name)!;
    expect(emptySchemas(tool.inputSchema)).toEqual([]);
    expect(emptySchemas(tool.outputSchema)).toEqual([]);
  });

  test('pm_update removes a field through clear; its fields have one type each', () => {
    const ajv = new Ajv2020({ strict: false });
    const update = ajv.compile(h.server.tools!.get('pm_update')!.inputSchema);
    const properties = h.server.tools!.get('pm_update')!.inputSchema.properties as Record<string, JsonObject>;
    expect(properties.parent).toMatchObject({ type: 'string' });
    expect(properties.assignee).toMatchObject({ type: 'string' });
    expect(properties.clear).toMatchObject({ type: 'array', items: { type: 'string', enum: ['parent', 'assignee', 'effort', 'area', 'note', 'urgent'] } });
    for (const ok of [{ id: 'pm-abc', clear: ['parent', 'assignee'] }, { id: 'pm-abc', parent: 'pm-def' }, { id: 'pm-abc', clear: ['area', 'effort'] }, { id: 'pm-abc', custom: { area: 'cli', effort: 5 } }]) expect({ ok, valid: update(ok) }).toEqual({ ok, valid: true });
    for (const bad of [{ id: 'pm-abc', parent: 7 }, { id: 'pm-abc', assignee: false }, { id: 'pm-abc', custom: { area: 'web' } }, { id: 'pm-abc', custom: { effort: 500 } }, { id: 'pm-abc', clear: ['title'] }]) expect({ bad, valid: update(bad) }).toEqual({ bad, valid: false });
    const claim = ajv.compile(h.server.tools!.get('pm_claim')!.outputSchema!);
    expect(claim({ item: null, receipt: { receiptId: 'r', revisionAfter: null }, changed: true, replayed: false })).toBe(true);
  });

  test('output schemas are real contracts: a wrong shape is rejected', () => {
    const ajv = new Ajv2020({ strict: false });
    const get = ajv.compile(h.server.tools!.get('pm_get')!.outputSchema!);
    expect(get({ item: { id: 'pm-abc', priority: 'high' }, commentsTotal: 0 })).toBe(false);
    expect(get({ commentsTotal: 0 })).toBe(false);
    const claim = ajv.compile(h.server.tools!.get('pm_claim')!.outputSchema!);
    expect(claim({ item: null, receipt: { receiptId: 'r', revisionAfter: 'x' }, changed: true, replayed: false })).toBe(false);
    expect(claim({ item: null, receipt: { receiptId: 'r', revisionAfter: null }, changed: true, replayed: false, warnings: ['w'] })).toBe(true);
  });

  test('mutating tools take expectedRevision and idempotencyKey (create: the key only)', () => {
    for (const name of ['pm_update', 'pm_claim', 'pm_release', 'pm_close', 'pm_reopen', 'pm_comment', 'pm_deps', 'pm_delete']) {
      const properties = h.server.tools!.get(name)!.inputSchema.properties as Record<string, unknown>;
      expect(properties).toHaveProperty('expectedRevision');
      expect(properties).toHaveProperty('idempotencyKey');
    }
    const create = h.server.tools!.get('pm_create')!.inputSchema.properties as Record<string, unknown>;
    expect(create).toHaveProperty('idempotencyKey');
    expect(create).not.toHaveProperty('expectedRevision');
  });

  test('schemas follow config.yaml: type/status enums and declared custom fields', async () => {
    const create = h.server.tools!.get('pm_create')!.inputSchema.properties as Record<string, JsonObject>;
    expect(create.type).toMatchObject({ enum: ['Epic', 'Feature', 'Task', 'Chore', 'Issue', 'Decision'] });
    expect(create.status).toMatchObject({ enum: ['draft', 'open', 'in_progress', 'blocked'] });
    expect(create.custom).toEqual({
      type: 'object',
      properties: { effort: { type: 'number', minimum: 0, maximum: 100 }, area: { type: 'string', enum: ['cli', 'mcp'] }, note: { type: 'string', maxLength: 80 }, urgent: { type: 'boolean' } },
      additionalProperties: false,
      description: 'Custom fields.',
    });
    const update = h.server.tools!.get('pm_update')!.inputSchema.properties as Record<string, JsonObject>;
    expect((update.custom!.properties as Record<string, JsonObject>).area).toEqual({ type: 'string', enum: ['cli', 'mcp'] });
    const created = await h.call('pm_create', { title: 'With fields', custom: { effort: 5, area: 'mcp', note: 'n' } });
    const id = (created.structuredContent!.item as { id: string }).id;
    expect((await h.tracker.get(id)).custom).toEqual({ effort: 5, area: 'mcp', note: 'n' });
    await h.call('pm_update', { id, custom: { urgent: true }, clear: ['area'] });
    expect((await h.tracker.get(id)).custom).toEqual({ effort: 5, note: 'n', urgent: true });
    // A null still removes a field (clients of the earlier nullable schema).
    await h.call('pm_update', { id, custom: { note: null } });
    expect((await h.tracker.get(id)).custom).toEqual({ effort: 5, urgent: true });
    const bad = await h.call('pm_create', { title: 'Bad', custom: { area: 'web' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/Invalid arguments for pm_create: custom\.area/);
    expect(h.problems).toEqual([]);
  });

  test('a tracker without custom fields advertises no custom argument', async () => {
    const plain = await TrackerMcpHarness.create();
    expect(plain.server.tools!.get('pm_create')!.inputSchema.properties).not.toHaveProperty('custom');
  });
});

describe('strict arguments: unknown keys and deep nesting are -32602', () => {
  test('nearest declared key: typos, case and separators', () => {
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(nearestDeclaredKey('stauts', ['id', 'status', 'title'])).toBe('status');
    expect(nearestDeclaredKey('expected_revision', ['id', 'expectedRevision'])).toBe('expectedRevision');
    expect(nearestDeclaredKey('Title', ['id', 'title'])).toBe('title');
    expect(nearestDeclaredKey('banana', ['id', 'status'])).toBeUndefined();
    expect(unknownArgumentProblem('stauts', ['status'])).toBe("unknown argument 'stauts'; did you mean 'status'?");
    expect(unknownArgumentProblem('banana', ['id', 'status'])).toBe("unknown argument 'banana'; declared arguments: id, status");
    expect(unknownArgumentProblem('x', [])).toBe("unknown argument 'x'; declared arguments: (none)");
    expect(unknownArgumentProblem('y'.repeat(100), ['id'])).toContain(`'${'y'.repeat(64)}…'`);
  });

  test('the zod twin refuses undeclared keys too', () => {
    const parser = mcpToolArguments({ id: z.string(), status: z.string().optional() });
    expect(parser.safeParse({ id: 'a', stauts: 'open' }).success).toBe(false);
    expect(parser.parse({ id: 'a', status: 'open' })).toEqual({ id: 'a', status: 'open' });
    expect(parser.safeParse({ status: 'open' }).success).toBe(false);
  });

  test.each(['modern', '2025-11-25', '2025-06-18'] as const)('%s: a misspelled guard is refused and nothing is written', async (era) => {
    const h = await TrackerMcpHarness.create();
    const { a } = await h.seed();
    const before = await h.tracker.get(a);
    const send = (name: string, args: Record<string, unknown>) => (era === 'modern' ? h.modern('tools/call', { name, arguments: args }) : h.legacy('tools/call', { name, arguments: args }, era));
    const comment = await send('pm_comment', { id: a, text: 'once', idempotencyKy: 'k1' });
    expect(comment.error).toEqual({
      code: -32602,
      message: "Invalid arguments for pm_comment: unknown argument 'idempotencyKy'; did you mean 'idempotencyKey'?",
      data: { tool: 'pm_comment', unknown: ['idempotencyKy'], suggestions: { idempotencyKy: 'idempotencyKey' }, declared: expect.arrayContaining(['id', 'text', 'idempotencyKey']) },
    });
    const update = await send('pm_update', { id: a, title: 'new', expectedRevison: before.revision });
    expect(update.error).toMatchObject({ code: -32602, message: expect.stringContaining("unknown argument 'expectedRevison'; did you mean 'expectedRevision'?") });
    expect(await h.tracker.get(a)).toEqual(before);
    expect(h.problems).toEqual([]);
    expect(h.internalErrors).toEqual([]);
  });

  test('many unknown keys are named up to five, the rest counted', async () => {
    const h = await TrackerMcpHarness.create();
    const reply = await h.modern('tools/call', { name: 'pm_list', arguments: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`zz${i}`, 1])) });
    expect(reply.error).toMatchObject({ code: -32602, data: { unknown: ['zz0', 'zz1', 'zz2', 'zz3', 'zz4'] } });
    expect((reply.error as { message: string }).message).toMatch(/; 3 more unknown arguments$/);
  });

  test.each(['modern', 'legacy'] as const)('%s: arguments nested 100,000 deep are -32602, not -32603', async (era) => {
    const h = await TrackerMcpHarness.create();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const meta = era === 'modern' ? `,"_meta":${JSON.stringify(MODERN_META)}` : '';
    const out: string[] = [];
    const frame = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pm_list","arguments":{"status":${deep}}${meta}}}`;
    await h.connection.dispatch(frame, { facts: { kind: 'stdio' }, sink: { send: (message) => out.push(message.text) } });
    expect(out.map((text) => JSON.parse(text) as unknown)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: `Invalid arguments for pm_list: nested more than ${MAX_TOOL_ARGUMENT_DEPTH} levels deep`, data: { tool: 'pm_list', maxDepth: MAX_TOOL_ARGUMENT_DEPTH } } },
    ]);
    expect(h.internalErrors).toEqual([]);
  });

  test('the depth limit is exact: the limit passes the guard, one more level does not', async () => {
    const h = await TrackerMcpHarness.create();
    const nested = (levels: number): unknown => (levels === 0 ? 'x' : [nested(levels - 1)]);
    // arguments is level 1, so status holds MAX - 1 levels of arrays at the limit.
    const atLimit = await h.modern('tools/call', { name: 'pm_list', arguments: { status: nested(MAX_TOOL_ARGUMENT_DEPTH - 1) } });
    expect(atLimit.error).toBeUndefined();
    expect((atLimit.result as unknown as ToolResult).isError).toBe(true); // refused by the schema's types, as an isError result
    const over = await h.modern('tools/call', { name: 'pm_list', arguments: { status: nested(MAX_TOOL_ARGUMENT_DEPTH) } });
    expect(over.error).toMatchObject({ code: -32602, data: { maxDepth: MAX_TOOL_ARGUMENT_DEPTH } });
  });

  test('a tool whose JSON Schema and zod shape disagree is refused when defined', () => {
    const spec = { name: 'x', title: 'X', description: 'x', output: { properties: {}, required: [] }, effect: 'read' as const, idempotent: true, run: async () => ({ data: {}, text: '' }) };
    expect(() => defineTrackerTool({ ...spec, properties: { a: { type: 'string', maxLength: 1 } }, shape: { b: z.string() } })).toThrow(/JSON Schema properties \(a\) and zod shape \(b\) differ/);
    expect(() => defineTrackerTool({ ...spec, properties: {}, shape: {}, required: ['a'] })).toThrow(/required argument a is not declared/);
    expect(() => defineTrackerTool({ ...spec, properties: {}, shape: {}, output: { properties: { warnings: {} }, required: [] } })).toThrow(/reserved/);
  });
});
