/** The canonical result shape: one value under structuredContent.result, a pointer as text. */
import { PM_CANONICAL_RESULT_POINTER, toPmCanonicalToolOutcome, toPmCanonicalToolResultBody } from '../../../../src/domain/discovery/index.js';
import { buildMcpCompatToolText, buildMcpToolResultBody } from '../../../../src/domain/mcp/index.js';

describe('toPmCanonicalToolResultBody', () => {
  test('replaces the compatibility text by the pointer and wraps the value; later blocks stay', () => {
    const link = { type: 'resource_link', uri: 'pm://items/pm-a1', name: 'pm-a1' };
    const body = buildMcpToolResultBody({ structuredContent: { id: 'pm-a1' }, text: 'pm-a1 is open', content: [link] }, 'modern');
    expect(toPmCanonicalToolResultBody(body)).toEqual({ content: [{ type: 'text', text: PM_CANONICAL_RESULT_POINTER }, link], structuredContent: { result: { id: 'pm-a1' } } });
  });

  test('a business failure with structured content stays a failure', () => {
    const body = buildMcpToolResultBody({ structuredContent: { ok: false }, isError: true }, 'modern');
    expect(toPmCanonicalToolResultBody(body)).toEqual({ content: [{ type: 'text', text: PM_CANONICAL_RESULT_POINTER }], structuredContent: { result: { ok: false } }, isError: true });
  });

  test('a result without structured content, or whose first block is not text, is left alone', () => {
    const failure = { content: [{ type: 'text', text: 'no item pm-x (not_found)' }], isError: true };
    expect(toPmCanonicalToolResultBody(failure)).toBe(failure);
    const image = { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }], structuredContent: { a: 1 } };
    expect(toPmCanonicalToolResultBody(image)).toBe(image);
  });

  test('interim outcomes pass unchanged', () => {
    const task = { resultType: 'task' as const, body: { task: { taskId: 't1' } } };
    expect(toPmCanonicalToolOutcome(task)).toBe(task);
  });
});

describe('the compatibility adapter', () => {
  test('modern: the readable text (JSON when none); legacy: the JSON duplicated', () => {
    expect(buildMcpCompatToolText({ structuredContent: { a: 1 }, text: 'one' }, 'modern')).toBe('one');
    expect(buildMcpCompatToolText({ structuredContent: { a: 1 } }, 'modern')).toBe('{"a":1}');
    expect(buildMcpCompatToolText({ structuredContent: { a: 1 }, text: 'one' }, 'legacy')).toBe('{"a":1}');
  });
});
