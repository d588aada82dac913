import { readFileSync } from 'node:fs';
import { checkJsonSchema2020, checkMcpMessage, mcpSchemaPath } from '../../../support/mcp-schema.js';

const serverInfo = { name: 'pm', version: '1.0.0' };

describe('the schema helper itself (negative controls)', () => {
  test('a modern result without resultType is detected', () => {
    const problems = checkMcpMessage({ jsonrpc: '2.0', id: 1, result: { tools: [], ttlMs: 0, cacheScope: 'public' } }, '2026-07-28', { method: 'tools/list' });
    expect(problems).toContain('modern result has no resultType');
    expect(checkMcpMessage({ jsonrpc: '2.0', id: 1, result: {} }, '2026-07-28')).toContain('modern result has no resultType');
  });
  test('a legacy result carrying resultType is detected', () => {
    expect(checkMcpMessage({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } }, '2025-11-25')).toContain('legacy result carries resultType');
  });
  test('removed error codes are detected on the modern path only', () => {
    const error = { jsonrpc: '2.0', id: 1, error: { code: -32002, message: 'Resource not found', data: { uri: 'x://y' } } };
    expect(checkMcpMessage(error, '2026-07-28')).toContain('modern error uses removed code -32002');
    expect(checkMcpMessage(error, '2025-11-25')).toEqual([]);
  });
  test('error data shapes of -32022 and -32021 are enforced', () => {
    expect(checkMcpMessage({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'x', data: { supported: ['2026-07-28'] } } }, '2026-07-28').length).toBeGreaterThan(0);
    expect(checkMcpMessage({ jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'x' } }, '2026-07-28').length).toBeGreaterThan(0);
    expect(checkMcpMessage({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'x', data: { supported: ['2026-07-28'], requested: 'y' } } }, '2026-07-28')).toEqual([]);
  });
  test('embedded newlines and wrong result shapes are detected', () => {
    expect(checkMcpMessage('{"jsonrpc":"2.0",\n"id":1,"result":{"resultType":"complete"}}', '2026-07-28')).toContain('message contains an embedded newline');
    expect(checkMcpMessage({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: 'no' } }, '2026-07-28', { method: 'tools/list' }).length).toBeGreaterThan(0);
    expect(checkMcpMessage({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'pm' } } }, '2025-06-18', { method: 'initialize' }).length).toBeGreaterThan(0);
  });
  test('a valid modern result passes; the 2025-06-18 schema (draft-07) loads', () => {
    expect(checkMcpMessage({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [], _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } } }, '2026-07-28', { method: 'tools/call' })).toEqual([]);
    expect(checkMcpMessage({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo } }, '2025-06-18', { method: 'initialize' })).toEqual([]);
  });
  test('JSON Schema 2020-12 documents are checked against the metaschema', () => {
    expect(checkJsonSchema2020({ type: 'object', properties: { a: { type: 'string' } } })).toEqual([]);
    expect(checkJsonSchema2020({ type: 'object', properties: { a: { type: 'strang' } } }).length).toBeGreaterThan(0);
  });
  test('the vendored schemas load from inside the repository', () => {
    expect(JSON.parse(readFileSync(mcpSchemaPath('2026-07-28'), 'utf8')).$schema).toContain('2020-12');
  });
});
