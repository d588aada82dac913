/**
 * Who a write over pm-mcp-http is recorded as (docs/MCP.md "Actor"): the authenticated
 * principal (the token subject), else the configured actor; and apart from it, the client
 * software that carried it (its declared identity: per request on the modern path; from
 * initialize on the legacy path, carried between sessionless POSTs by the sealed
 * `Mcp-Session-Id` pm returns). Real pm-mcp-http processes; the history files' lines are read
 * back from disk.
 */
import { jest } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { httpPost, McpHttpProcesses, modernRequest, type HttpReply } from '../support/mcp-http.js';
import { makeTempTracker } from '../support/mcp-stdio.js';

jest.setTimeout(60_000);

const processes = new McpHttpProcesses();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await processes.killAll();
  await Promise.all(cleanups.map((c) => c()));
});

async function server(env: NodeJS.ProcessEnv = {}) {
  const t = await makeTempTracker('pm-mcp-http-actor-');
  cleanups.push(t.remove);
  return { ...(await processes.start(t.dir, { PM_ACTOR: 'configured-actor', ...env })), dir: t.dir };
}

const LEGACY = { 'MCP-Protocol-Version': '2025-11-25' };
let nextId = 1;

function initialize(url: string, name: string, headers: Record<string, string> = {}): Promise<HttpReply> {
  return httpPost(url, { jsonrpc: '2.0', id: nextId++, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1.2.3' } } }, headers);
}

function legacyCall(url: string, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Promise<HttpReply> {
  return httpPost(url, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }, { ...LEGACY, ...headers });
}

/** The actor (and client, when recorded) of an item's history lines, read from its history file. */
async function historyActors(dir: string, id: string): Promise<string[]> {
  const text = await readFile(join(dir, '.agents', 'pm', 'history', `${id}.jsonl`), 'utf8');
  return text.split('\n').filter(Boolean).map((line) => {
    const entry = JSON.parse(line) as { actor: string; client?: string };
    return entry.client ? `${entry.actor} via ${entry.client}` : entry.actor;
  });
}

describe('actor attribution over sessionless HTTP', () => {
  test('a legacy client that echoes the Mcp-Session-Id of its initialize is recorded as the client beside the configured actor; without it, the actor alone', async () => {
    const { url, dir } = await server();
    const init = await initialize(url, 'legacy-http-client');
    expect(init.status).toBe(200);
    const session = init.headers['mcp-session-id'] as string;
    // Visible ASCII only (2025-11-25 basic/transports "Session Management").
    expect(session).toMatch(/^pms1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[0-9a-f]{64}$/);
    expect((await httpPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...LEGACY, 'Mcp-Session-Id': session })).status).toBe(202);

    const withSession = await legacyCall(url, 'pm_create', { title: 'legacy with session' }, { 'Mcp-Session-Id': session });
    expect(withSession.body!.result.structuredContent.receipt).toMatchObject({ actor: 'configured-actor', client: 'legacy-http-client/1.2.3' });
    const withoutSession = await legacyCall(url, 'pm_create', { title: 'legacy without session' });
    expect(withoutSession.body!.result.structuredContent.receipt.actor).toBe('configured-actor');
    expect(withoutSession.body!.result.structuredContent.receipt).not.toHaveProperty('client');
    const id = withSession.body!.result.structuredContent.item.id as string;
    await legacyCall(url, 'pm_comment', { id, text: 'second write, same session' }, { 'Mcp-Session-Id': session });
    expect(await historyActors(dir, id)).toEqual(['configured-actor via legacy-http-client/1.2.3', 'configured-actor via legacy-http-client/1.2.3']);
    expect(await historyActors(dir, withoutSession.body!.result.structuredContent.item.id as string)).toEqual(['configured-actor']);

    // The modern path: the request's own clientInfo.
    const modern = modernRequest(nextId++, 'tools/call', { name: 'pm_create', arguments: { title: 'modern' } });
    expect((await httpPost(url, modern.body, modern.headers)).body!.result.structuredContent.receipt).toMatchObject({ actor: 'configured-actor', client: expect.stringMatching(/^http-test\//) }); // modernRequest's clientInfo name
  });

  test('a forged, altered or malformed Mcp-Session-Id on a legacy request is 404 (an ended session); modern requests never read it', async () => {
    const { url } = await server();
    const session = (await initialize(url, 'honest')).headers['mcp-session-id'] as string;
    const [prefix, key, payload, mac] = session.split('.') as [string, string, string, string];
    const claimed = Buffer.from(JSON.stringify({ r: '2025-11-25', n: 'someone-else', v: '1' })).toString('base64url');
    const forged = [`${prefix}.${key}.${claimed}.${mac}`, `${prefix}.${key}.${payload}.${mac.replace(/^./, (c) => (c === '0' ? '1' : '0'))}`, `${prefix}.other-key.${payload}.${mac}`, 'stale-session'];
    for (const id of forged) {
      const refused = await legacyCall(url, 'pm_create', { title: 'must not be written' }, { 'Mcp-Session-Id': id });
      expect(refused.status).toBe(404);
      expect(refused.body!.error).toMatchObject({ code: -32600, message: expect.stringContaining('Session not found') });
      expect((await httpPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...LEGACY, 'Mcp-Session-Id': id })).status).toBe(404);
    }
    const list = await legacyCall(url, 'pm_list', {});
    expect(list.body!.result.structuredContent.items).toEqual([]);
    const modern = modernRequest(nextId++, 'tools/list');
    const plain = await httpPost(url, modern.body, modern.headers);
    const withForged = await httpPost(url, modern.body, { ...modern.headers, 'Mcp-Session-Id': forged[0]! });
    expect(withForged.status).toBe(200);
    expect(withForged.text).toBe(plain.text);
    expect(withForged.headers['mcp-session-id']).toBeUndefined();
    // DELETE (ending a session) is 405: the id holds no server state to end (the spec allows 405).
    const deleted = await httpPost(url, undefined, { 'Mcp-Session-Id': session }, { method: 'DELETE', defaults: false });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.allow).toBe('POST');
    // The session still works afterwards (nothing was ended).
    expect((await legacyCall(url, 'pm_create', { title: 'after delete' }, { 'Mcp-Session-Id': session })).body!.result.structuredContent.receipt.client).toBe('honest/1.2.3');
  });

  test('the authenticated principal wins over the session identity and the configured actor', async () => {
    const secret = 'a-local-development-secret-of-32-bytes!!';
    const issuer = 'https://issuer.example.com';
    const { url, dir } = await server({ PM_MCP_AUTH_ISSUER: issuer, PM_MCP_AUTH_SECRET: secret });
    const token = await new SignJWT({ scope: 'pm:read pm:write' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(issuer).setAudience(url).setSubject('alice').setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode(secret));
    const auth = { Authorization: `Bearer ${token}` };
    const session = (await initialize(url, 'legacy-with-token', auth)).headers['mcp-session-id'] as string;
    expect(session).toMatch(/^pms1\./);
    const created = await legacyCall(url, 'pm_create', { title: 'by alice' }, { ...auth, 'Mcp-Session-Id': session });
    expect(created.body!.result.structuredContent.receipt.actor).toBe('alice');
    expect(await historyActors(dir, created.body!.result.structuredContent.item.id as string)).toEqual(['alice via legacy-with-token/1.2.3']);
  });

  test('with the legacy adapter off no session is issued and the header is not read', async () => {
    const { url } = await server({ PM_MCP_LEGACY: 'off' });
    const init = await initialize(url, 'refused');
    expect(init.headers['mcp-session-id']).toBeUndefined();
    expect(init.body!.error.code).toBe(-32022);
    const refused = await legacyCall(url, 'pm_list', {}, { 'Mcp-Session-Id': 'stale-session' });
    expect(refused.body!.error.code).toBe(-32022);
  });
});
