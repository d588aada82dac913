import { buildMcpCompletionResult, MCP_MAX_COMPLETION_VALUES } from '../../../../src/domain/mcp/index.js';
import { McpHarness } from '../../../support/mcp-fake-server.js';

let h: McpHarness;
beforeEach(() => {
  h = new McpHarness();
});
afterEach(() => {
  expect(h.problems).toEqual([]);
});

describe('resources', () => {
  test('resources/list pages with public cache fields', async () => {
    const first = await h.modern(1, 'resources/list');
    expect(first.result).toMatchObject({ resultType: 'complete', resources: [{ uri: 'test://readme', name: 'readme', title: 'Readme', mimeType: 'text/markdown' }, { uri: 'test://empty' }], ttlMs: 300_000, cacheScope: 'public' });
    const next = await h.modern(2, 'resources/list', { cursor: (first.result as { nextCursor: string }).nextCursor });
    expect(next.result).toMatchObject({ resources: [{ uri: 'test://third' }] });
    expect(next.result).not.toHaveProperty('nextCursor');
  });
  test('resources/templates/list lists templates', async () => {
    const out = await h.modern(1, 'resources/templates/list');
    expect(out.result).toMatchObject({ resourceTemplates: [{ uriTemplate: 'test://notes/{id}', name: 'note', mimeType: 'text/plain' }], cacheScope: 'public' });
  });
  test('resources/read carries the resource cache policy (private data stays private)', async () => {
    expect((await h.modern(1, 'resources/read', { uri: 'test://readme' })).result).toMatchObject({ contents: [{ uri: 'test://readme', text: '# hi' }], ttlMs: 60_000, cacheScope: 'public' });
    expect((await h.modern(2, 'resources/read', { uri: 'test://notes/n1' })).result).toMatchObject({ contents: [{ uri: 'test://notes/n1', text: 'note n1' }], ttlMs: 1000, cacheScope: 'private' });
    expect((await h.legacy(3, 'resources/read', { uri: 'test://notes/n2' })).result).toEqual({ contents: [{ uri: 'test://notes/n2', mimeType: 'text/plain', text: 'note n2' }] });
  });
  test.each(['test://nope', 'test://notes/zz', 'test://empty'])('%s is not found: -32602 with the uri, never empty contents', async (uri) => {
    expect((await h.modern(1, 'resources/read', { uri })).error).toEqual({ code: -32602, message: 'Resource not found', data: { uri } });
  });
  test('a read without uri is -32602 invalid params', async () => {
    expect((await h.modern(1, 'resources/read', {})).error).toMatchObject({ code: -32602, message: expect.stringContaining('uri') });
  });
});

describe('prompts', () => {
  test('prompts/list and prompts/get', async () => {
    expect((await h.modern(1, 'prompts/list')).result).toMatchObject({ prompts: [{ name: 'greet', arguments: [{ name: 'name', required: true }, { name: 'tone' }] }, { name: 'plain' }], cacheScope: 'public' });
    const got = await h.modern(2, 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } });
    expect(got.result).toMatchObject({ resultType: 'complete', description: 'greeting', messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }] });
    expect(got.result).not.toHaveProperty('ttlMs');
    expect((await h.legacy(3, 'prompts/get', { name: 'plain' })).result).toEqual({ messages: [{ role: 'assistant', content: { type: 'text', text: 'plain' } }] });
  });
  test('unknown prompts and missing required arguments are -32602', async () => {
    expect((await h.modern(1, 'prompts/get', { name: 'nope' })).error).toEqual({ code: -32602, message: 'Unknown prompt: nope', data: { name: 'nope' } });
    expect((await h.modern(2, 'prompts/get', { name: 'greet' })).error).toEqual({ code: -32602, message: 'Prompt greet is missing required arguments: name', data: { name: 'greet', missing: ['name'] } });
    expect((await h.modern(3, 'prompts/get', { name: 'greet', arguments: { name: 1 } })).error).toMatchObject({ code: -32602 });
  });
});

describe('completion/complete', () => {
  test('completes template variables and prompt arguments', async () => {
    const template = await h.modern(1, 'completion/complete', { ref: { type: 'ref/resource', uri: 'test://notes/{id}' }, argument: { name: 'id', value: 'n' } });
    expect(template.result).toEqual({ resultType: 'complete', completion: { values: ['n1', 'n2'], total: 2, hasMore: false }, _meta: expect.any(Object) });
    const prompt = await h.modern(2, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'a' } });
    expect(prompt.result).toMatchObject({ completion: { total: 150, hasMore: true } });
    expect((prompt.result as { completion: { values: string[] } }).completion.values).toHaveLength(MCP_MAX_COMPLETION_VALUES);
    const none = await h.modern(3, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'tone', value: '' } });
    expect(none.result).toMatchObject({ completion: { values: expect.any(Array) } });
  });
  test('unknown references and arguments are -32602', async () => {
    expect((await h.modern(1, 'completion/complete', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } })).error).toMatchObject({ code: -32602 });
    expect((await h.modern(2, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'x', value: '' } })).error).toMatchObject({ code: -32602 });
    expect((await h.modern(3, 'completion/complete', { ref: { type: 'ref/resource', uri: 'test://other/{id}' }, argument: { name: 'id', value: '' } })).error).toMatchObject({ code: -32602 });
    expect((await h.modern(4, 'completion/complete', { ref: { type: 'ref/resource', uri: 'test://notes/{id}' }, argument: { name: 'nope', value: '' } })).error).toMatchObject({ code: -32602 });
    expect((await h.modern(5, 'completion/complete', { ref: { type: 'ref/other' }, argument: { name: 'x', value: '' } })).error).toMatchObject({ code: -32602 });
  });
  test('buildMcpCompletionResult caps values at 100 and removes duplicates', () => {
    expect(buildMcpCompletionResult(['a', 'a', 'b'])).toEqual({ completion: { values: ['a', 'b'], total: 2, hasMore: false } });
  });
});
