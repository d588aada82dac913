import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MCP_REMOVED_MODERN_METHODS } from '../../../../src/domain/mcp/index.js';
import { McpHarness, MODERN_META } from '../../../support/mcp-fake-server.js';

/**
 * The deprecation ratchet (seed 004 "Removed, migrated, and deprecated behavior"): the table in
 * docs/MCP.md "Deprecation ratchet" is the boundary of legacy-only behaviour, and no modern
 * request may reach anything in it.
 */

const repo = (path: string) => fileURLToPath(new URL(`../../../../${path}`, import.meta.url));

/** The rows of the deprecation table: behaviour (first cell) and proof (last cell). */
function ratchetTable(): { behaviour: string; proof: string }[] {
  const doc = readFileSync(repo('docs/MCP.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Deprecation ratchet'), doc.indexOf('\n## ', doc.indexOf('## Deprecation ratchet') + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| ---') && !line.startsWith('| legacy-only'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map((cells) => ({ behaviour: cells[1]!, proof: cells[cells.length - 2]!.replace(/`/g, '') }));
}

const METHOD = /^`([a-z]+\/[a-zA-Z/]+|initialize|ping)`$/;
const documentedMethods = () => ratchetTable().flatMap((row) => (METHOD.test(row.behaviour) ? [METHOD.exec(row.behaviour)![1]!] : []));

let h: McpHarness;
beforeEach(() => {
  h = new McpHarness({ legacyLogging: true });
});
afterEach(() => {
  expect(h.problems).toEqual([]);
});

test('every legacy-only method the registry serves, and every removed method, is in the table', () => {
  const legacyOnly = h.methods.methodNames.filter((name) => !h.methods.get(name)!.eras.includes('modern'));
  expect(legacyOnly.length).toBeGreaterThan(0);
  const documented = documentedMethods();
  for (const method of [...legacyOnly, ...MCP_REMOVED_MODERN_METHODS, 'notifications/initialized']) expect(documented).toContain(method);
});

test('every proof the table cites exists', () => {
  for (const row of ratchetTable()) expect(existsSync(repo(row.proof))).toBe(true);
});

test('no listed method is reachable by a modern request', async () => {
  for (const method of documentedMethods()) {
    if (method.startsWith('notifications/')) {
      expect(await h.send({ jsonrpc: '2.0', method, params: { _meta: MODERN_META } })).toEqual([]);
      continue;
    }
    const out = await h.modern(method, method, method === 'logging/setLevel' ? { level: 'debug' } : method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: {} } : {});
    expect(out.error).toMatchObject({ code: -32601 });
  }
});

test('legacy result shapes and duplicated JSON text never reach the modern path', async () => {
  const legacy = await h.legacy(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
  const modern = await h.modern(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
  expect(legacy.result).toEqual({ content: [{ type: 'text', text: '{"text":"hi"}' }], structuredContent: { text: 'hi' } });
  expect(modern.result).toMatchObject({ resultType: 'complete', structuredContent: { text: 'hi' } });
  expect(JSON.stringify((modern.result as { content?: unknown }).content ?? [])).not.toContain('{\\"text\\":\\"hi\\"}');
  const list = await h.modern(3, 'tools/list');
  expect(list.result).toHaveProperty('resultType');
  expect((await h.legacy(4, 'tools/list')).result).not.toHaveProperty('resultType');
});

test('connection state from initialize and logging/setLevel never reaches a modern request', async () => {
  await h.legacy(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'legacy-client', version: '1' } }, '2025-06-18');
  await h.legacy(2, 'logging/setLevel', { level: 'debug' }, '2025-06-18');
  h.state.gate.open();
  const out = await h.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: MODERN_META } });
  expect(out.filter((w) => w.value.method === 'notifications/message')).toEqual([]);
  await h.modern(4, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
  const ctx = h.state.seenContexts.at(-1) as { era: string; revision: string; clientInfo: { name: string }; clientCapabilities: object; logLevel: unknown };
  expect(ctx).toMatchObject({ era: 'modern', revision: '2026-07-28', clientInfo: { name: 'test-client' }, clientCapabilities: {} });
  expect(ctx.logLevel).toBeUndefined();
});
