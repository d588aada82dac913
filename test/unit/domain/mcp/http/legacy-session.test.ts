import { ManualClock } from '../../../../../src/adapters/memory/manual-clock.js';
import { MemoryMacKeyStore } from '../../../../../src/adapters/memory/memory-mac-key-store.js';
import { PureSha256Hasher } from '../../../../../src/adapters/memory/pure-hasher.js';
import { PmMcpLegacySessionError, PmMcpLegacySessions } from '../../../../../src/domain/mcp/http/legacy-session.js';

function setUp() {
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  const keys = new MemoryMacKeyStore(clock);
  return { clock, keys, sessions: new PmMcpLegacySessions({ hasher: new PureSha256Hasher(), keys }) };
}

const problem = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'opened';
  } catch (error) {
    return error instanceof PmMcpLegacySessionError ? error.problem : String(error);
  }
};

describe('PmMcpLegacySessions (sealed Mcp-Session-Id)', () => {
  it('carries the revision and the client identity, in visible ASCII, and opens what it issued', async () => {
    const { sessions } = setUp();
    const id = (await sessions.issue({ revision: '2025-06-18', clientInfo: { name: 'Ünïcode client', version: '1.0' } }))!;
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    expect(await sessions.open(id)).toEqual({ revision: '2025-06-18', clientCapabilities: {}, clientInfo: { name: 'Ünïcode client', version: '1.0' } });
    const anonymous = (await sessions.issue({ revision: '2025-11-25', clientInfo: undefined }))!;
    expect((await sessions.open(anonymous)).clientInfo).toBeUndefined();
  });

  it('carries the extensions initialize negotiated for the session (MCP Apps) as the declared capabilities', async () => {
    const { sessions } = setUp();
    const ui = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
    const id = (await sessions.issue({ revision: '2025-11-25', clientInfo: { name: 'host', version: '1' }, extensions: ui }))!;
    expect(id.length).toBeLessThan(400);
    expect(await sessions.open(id)).toEqual({ revision: '2025-11-25', clientCapabilities: { extensions: ui }, clientInfo: { name: 'host', version: '1' } });
    // Without negotiated extensions the payload is the old one.
    const plain = (await sessions.issue({ revision: '2025-11-25', clientInfo: { name: 'host', version: '1' }, extensions: {} }))!;
    expect(JSON.parse(Buffer.from(plain.split('.')[2]!, 'base64url').toString())).toEqual({ r: '2025-11-25', n: 'host', v: '1' });
    // Oversized declarations get no session (attribution falls back), never a truncated one.
    expect(await sessions.issue({ revision: '2025-11-25', clientInfo: undefined, extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['x'.repeat(600)] } } })).toBeUndefined();
  });

  it('refuses what it did not issue: altered payload or mac, other prefix, unknown key, junk', async () => {
    const { sessions } = setUp();
    const id = (await sessions.issue({ revision: '2025-11-25', clientInfo: { name: 'a', version: '1' } }))!;
    const [prefix, key, payload, mac] = id.split('.') as [string, string, string, string];
    const other = Buffer.from(JSON.stringify({ r: '2025-11-25', n: 'b', v: '1' })).toString('base64url');
    expect(await problem(sessions.open(`${prefix}.${key}.${other}.${mac}`))).toBe('tampered');
    expect(await problem(sessions.open(`${prefix}.${key}.${payload}.${'0'.repeat(64)}`))).toBe('tampered');
    expect(await problem(sessions.open(`${prefix}.nokey.${payload}.${mac}`))).toBe('unknown-key');
    expect(await problem(sessions.open(`pm1.${key}.${payload}.${mac}`))).toBe('malformed');
    expect(await problem(sessions.open('stale-session'))).toBe('malformed');
    expect(await problem(sessions.open(`${id}${'x'.repeat(2000)}`))).toBe('malformed');
  });

  it('keeps opening ids of a rotated key while it is on record, and refuses them once it is dropped', async () => {
    const { sessions, keys, clock } = setUp();
    const id = (await sessions.issue({ revision: '2025-11-25', clientInfo: { name: 'a', version: '1' } }))!;
    await keys.rotate(clock.now(), 0);
    expect((await sessions.open(id)).clientInfo).toEqual({ name: 'a', version: '1' });
    clock.advance(1000);
    await keys.rotate(clock.now(), clock.now());
    expect(await problem(sessions.open(id))).toBe('unknown-key');
  });

  it('issues nothing for an identity too long to carry, or a revision that is not a legacy one', async () => {
    const { sessions } = setUp();
    expect(await sessions.issue({ revision: '2025-11-25', clientInfo: { name: 'n'.repeat(201), version: '1' } })).toBeUndefined();
    expect(await sessions.issue({ revision: '2026-07-28', clientInfo: undefined })).toBeUndefined();
  });
});
