import { z } from 'zod';
import { PmMcpInvalidParamsError } from '../../../../src/domain/errors/index.js';
import {
  assertMcpObjectSchema,
  compileMcpUriTemplate,
  definePmMcpServer,
  encodeMcpCursor,
  paginateMcpList,
  PmMcpPromptRegistry,
  PmMcpResourceRegistry,
  PmMcpToolRegistry,
  type AnyMcpToolDefinition,
} from '../../../../src/domain/mcp/index.js';
import { fakeTools, Gate } from '../../../support/mcp-fake-server.js';
import { checkJsonSchema2020 } from '../../../support/mcp-schema.js';

const tool = (overrides: Partial<AnyMcpToolDefinition>): AnyMcpToolDefinition => ({
  name: 't',
  description: 'd',
  inputSchema: { type: 'object' },
  args: z.object({}),
  handler: () => ({ structuredContent: {} }),
  ...overrides,
});

describe('tool registry', () => {
  test('precomputes frozen descriptors in the given order; schemas are valid 2020-12', () => {
    const registry = new PmMcpToolRegistry(fakeTools({ gate: new Gate(), seenSignals: [], seenContexts: [] }));
    expect(registry.descriptors.map((d) => d.name)).toEqual(['echo', 'fail', 'boom', 'needs_form', 'slow']);
    expect(Object.isFrozen(registry.descriptors)).toBe(true);
    expect(Object.isFrozen(registry.descriptors[0]!.inputSchema)).toBe(true);
    expect(registry.descriptors[0]).not.toHaveProperty('args');
    for (const d of registry.descriptors) expect(checkJsonSchema2020(d.inputSchema)).toEqual([]);
    expect(registry.get('echo')?.name).toBe('echo');
    expect(registry.size).toBe(5);
  });
  test.each([
    ['a bad name', { name: 'has space' }],
    ['an empty description', { description: ' ' }],
    ['a non-object root', { inputSchema: { type: 'string' } as never }],
    ['another dialect', { inputSchema: { type: 'object', $schema: 'http://json-schema.org/draft-07/schema#' } }],
    ['an oversized schema', { inputSchema: { type: 'object', description: 'x'.repeat(70_000) } }],
    ['a too deep schema', { inputSchema: { type: 'object', properties: JSON.parse(`${'{"a":'.repeat(40)}{}${'}'.repeat(40)}`) } }],
    ['a non-JSON value', { inputSchema: { type: 'object', default: undefined, when: new Date(0) } as never }],
    ['an array-rooted output schema', { outputSchema: { type: 'array' } as never }],
  ])('refuses %s before advertisement', (_name, overrides) => {
    expect(() => new PmMcpToolRegistry([tool(overrides as Partial<AnyMcpToolDefinition>)])).toThrow(RangeError);
  });
  test('refuses duplicate names', () => {
    expect(() => new PmMcpToolRegistry([tool({}), tool({})])).toThrow(/twice/);
    expect(() => assertMcpObjectSchema(null, 'x')).toThrow(RangeError);
  });
  test('given a function, builds and validates the catalogue once, on first use', () => {
    let builds = 0;
    const registry = new PmMcpToolRegistry(() => {
      builds++;
      return [tool({ name: 'first' }), tool({ name: 'second' })];
    });
    expect(builds).toBe(0);
    expect(registry.get('second')?.name).toBe('second');
    expect(registry.descriptors.map((d) => d.name)).toEqual(['first', 'second']);
    expect(registry.size).toBe(2);
    expect(builds).toBe(1);
  });
  test('a lazy catalogue is validated before anything is advertised', () => {
    const registry = new PmMcpToolRegistry(() => [tool({ name: 'has space' })]);
    expect(() => registry.descriptors).toThrow(RangeError);
    expect(() => registry.get('has space')).toThrow(RangeError);
  });
});

describe('resource and prompt registries', () => {
  const cache = { ttlMs: 0, cacheScope: 'private' as const };
  test('resolve fixed resources before templates', () => {
    const registry = new PmMcpResourceRegistry(
      [{ uri: 'pm://items/special', name: 's', cache, read: () => [] }],
      [{ uriTemplate: 'pm://items/{id}', name: 'item', cache, read: () => [] }],
    );
    expect(registry.resolve('pm://items/special')?.kind).toBe('resource');
    expect(registry.resolve('pm://items/PM-1')).toMatchObject({ kind: 'template', variables: { id: 'PM-1' } });
    expect(registry.resolve('pm://items/a/b')).toBeUndefined();
    expect(registry.completes).toBe(false);
  });
  test('refuse bad URIs, duplicates and bad cache policies', () => {
    expect(() => new PmMcpResourceRegistry([{ uri: 'not a uri', name: 'x', cache, read: () => [] }])).toThrow(RangeError);
    expect(() => new PmMcpResourceRegistry([{ uri: 'a://b', name: 'x', cache, read: () => [] }, { uri: 'a://b', name: 'y', cache, read: () => [] }])).toThrow(RangeError);
    expect(() => new PmMcpResourceRegistry([{ uri: 'a://b', name: 'x', cache: { ttlMs: -1, cacheScope: 'public' }, read: () => [] }])).toThrow(RangeError);
    expect(() => new PmMcpResourceRegistry([], [{ uriTemplate: 'a://{x', name: 't', cache, read: () => [] }])).toThrow(RangeError);
    expect(() => new PmMcpPromptRegistry([{ name: 'p', get: () => ({ messages: [] }) }, { name: 'p', get: () => ({ messages: [] }) }])).toThrow(RangeError);
    expect(() => new PmMcpPromptRegistry([{ name: 'p', arguments: [{ name: 'a' }, { name: 'a' }], get: () => ({ messages: [] }) }])).toThrow(RangeError);
  });
  test('server definitions validate their configuration', () => {
    expect(() => definePmMcpServer({ serverInfo: { name: '', version: '1' } })).toThrow(RangeError);
    expect(() => definePmMcpServer({ serverInfo: { name: 'a', version: '1' }, pageSize: 0 })).toThrow(RangeError);
    expect(() => definePmMcpServer({ serverInfo: { name: 'a', version: '1' }, listTtlMs: -5 })).toThrow(RangeError);
    expect(definePmMcpServer({ serverInfo: { name: 'a', version: '1' } }).capabilities).toEqual({});
  });
});

describe('URI templates and cursors', () => {
  test('simple and reserved expressions', () => {
    const simple = compileMcpUriTemplate('pm://items/{id}/comments/{n}');
    expect(simple.variables).toEqual(['id', 'n']);
    expect(simple.match('pm://items/PM%2D1/comments/3')).toEqual({ id: 'PM-1', n: '3' });
    expect(simple.match('pm://items/PM-1/comments/')).toBeUndefined();
    expect(simple.match('pm://items/%E0%A4%A/comments/1')).toBeUndefined();
    expect(compileMcpUriTemplate('file:///{+path}').match('file:///a/b.txt')).toEqual({ path: 'a/b.txt' });
  });
  test('cursors are opaque, bound to their list, and refused when forged or stale', () => {
    const items = [1, 2, 3, 4, 5];
    const first = paginateMcpList(items, undefined, 2, 'L');
    expect(first).toMatchObject({ items: [1, 2], offset: 0 });
    const second = paginateMcpList(items, first.nextCursor, 2, 'L');
    expect(second).toMatchObject({ items: [3, 4] });
    expect(paginateMcpList(items, second.nextCursor, 2, 'L')).toEqual({ items: [5], nextCursor: undefined, offset: 4 });
    expect(() => paginateMcpList(items, first.nextCursor, 2, 'other')).toThrow(PmMcpInvalidParamsError);
    expect(() => paginateMcpList(items, '', 2, 'L')).toThrow(PmMcpInvalidParamsError);
    expect(() => paginateMcpList(items, 'eyJ2IjoxfQ', 2, 'L')).toThrow(PmMcpInvalidParamsError);
    expect(() => paginateMcpList([1], encodeMcpCursor('L', 9), 2, 'L')).toThrow(/changed/);
  });
});
