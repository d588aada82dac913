import { ManualClock } from '../../../../../src/adapters/memory/manual-clock.js';
import { MemoryMacKeyStore } from '../../../../../src/adapters/memory/memory-mac-key-store.js';
import { MemoryReplayLedger } from '../../../../../src/adapters/memory/memory-replay-ledger.js';
import { PureSha256Hasher } from '../../../../../src/adapters/memory/pure-hasher.js';
import { SeededIdSource } from '../../../../../src/adapters/memory/seeded-id-source.js';
import { PmMcpRequestStateError } from '../../../../../src/domain/errors/mcp-errors.js';
import { PmMcpRequestStateSealer, mcpRequestStateParamsDigest, type McpRequestStateBinding } from '../../../../../src/domain/mcp/interaction/request-state.js';
import { rejectionOf } from '../../../../support/thrown.js';

const binding: McpRequestStateBinding = { method: 'tools/call', params: { name: 'pm_delete', arguments: { id: 'pm-a1' } }, principal: 'local:alice' };

function setup(options: { ttlMs?: number; maxLength?: number } = {}) {
  const clock = new ManualClock(1_000_000);
  const keys = new MemoryMacKeyStore(clock);
  const replays = new MemoryReplayLedger();
  const hasher = new PureSha256Hasher();
  const sealer = new PmMcpRequestStateSealer({ hasher, clock, ids: new SeededIdSource(7), keys, replays }, options);
  return { clock, keys, replays, hasher, sealer };
}

const refusal = (promise: Promise<unknown>) => rejectionOf(promise, PmMcpRequestStateError, 'the state to be refused');

const parts = (sealed: string) => sealed.split('.') as [string, string, string, string];
const decode = (encoded: string) => JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('PmMcpRequestStateSealer', () => {
  it('round-trips the state for the same method, arguments and principal', async () => {
    const { sealer } = setup();
    const sealed = await sealer.seal({ consent: 'delete:pm-a1', n: [1, 2] }, binding);
    expect(sealed).toMatch(/^pm1\.k1\.[A-Za-z0-9_-]+\.[0-9a-f]{64}$/);
    expect(await sealer.open(sealed, binding)).toEqual({ consent: 'delete:pm-a1', n: [1, 2] });
    // reusable state may be opened again
    expect(await sealer.open(sealed, binding)).toEqual({ consent: 'delete:pm-a1', n: [1, 2] });
  });

  it('binds the arguments, not _meta, inputResponses or the state itself, and not key order', async () => {
    const { sealer } = setup();
    const sealed = await sealer.seal({ x: 1 }, { ...binding, params: { name: 'pm_delete', arguments: { id: 'pm-a1', reason: 'dup' } } });
    const retry = { ...binding, params: { arguments: { reason: 'dup', id: 'pm-a1' }, name: 'pm_delete', _meta: { any: 1 }, inputResponses: { consent: {} }, requestState: sealed } };
    expect(await sealer.open(sealed, retry)).toEqual({ x: 1 });
  });

  it('names the failed check, as -32602', async () => {
    const { sealer } = setup();
    const sealed = await sealer.seal({ x: 1 }, binding);
    const cases: Array<[string, Promise<unknown>, string]> = [
      ['other method', sealer.open(sealed, { ...binding, method: 'prompts/get' }), 'other-method'],
      ['other arguments', sealer.open(sealed, { ...binding, params: { name: 'pm_delete', arguments: { id: 'pm-b2' } } }), 'other-arguments'],
      ['other principal', sealer.open(sealed, { ...binding, principal: 'local:mallory' }), 'foreign-principal'],
      ['not a pm state', sealer.open('hello', binding), 'malformed'],
      ['wrong prefix', sealer.open(sealed.replace(/^pm1/, 'pm2'), binding), 'malformed'],
      ['short mac', sealer.open(sealed.slice(0, -2), binding), 'malformed'],
      ['unknown key', sealer.open(sealed.replace('.k1.', '.k9.'), binding), 'unknown-key'],
    ];
    for (const [label, promise, check] of cases) {
      const error = await refusal(promise);
      expect({ label, check: error.check, code: error.jsonRpcCode }).toEqual({ label, check, code: -32602 });
      expect(error.message).toMatch(/^Invalid requestState \(/);
      expect(error.data).toMatchObject({ field: 'requestState', check });
    }
  });

  it('refuses a payload edited by the client (the mac no longer verifies)', async () => {
    const { sealer } = setup();
    const [prefix, key, encoded, mac] = parts(await sealer.seal({ consent: 'delete:pm-a1' }, binding));
    const payload = decode(encoded);
    const forged = Buffer.from(JSON.stringify({ ...payload, s: { consent: 'delete:pm-zz' } })).toString('base64url');
    expect((await refusal(sealer.open([prefix, key, forged, mac].join('.'), binding))).check).toBe('tampered');
    const flipped = mac.slice(0, -1) + (mac.endsWith('0') ? '1' : '0');
    expect((await refusal(sealer.open([prefix, key, encoded, flipped].join('.'), binding))).check).toBe('tampered');
  });

  it('refuses a well-sealed payload that is not a state (defence in depth)', async () => {
    const { sealer, keys, hasher } = setup();
    const key = await keys.current();
    const body = `pm1.${key.id}.${Buffer.from('{"v":1,"m":"tools/call"}').toString('base64url')}`;
    expect((await refusal(sealer.open(`${body}.${hasher.hmacSha256Hex(key.secret, body)}`, binding))).check).toBe('malformed');
  });

  it('expires after its lifetime (Clock port)', async () => {
    const { sealer, clock } = setup({ ttlMs: 60_000 });
    const sealed = await sealer.seal({ x: 1 }, binding);
    clock.advance(59_999);
    expect(await sealer.open(sealed, binding)).toEqual({ x: 1 });
    clock.advance(1);
    const error = await refusal(sealer.open(sealed, binding));
    expect(error.check).toBe('expired');
    expect(error.message).toContain(new Date(1_060_000).toISOString());
  });

  it('opens one-time state once', async () => {
    const { sealer } = setup();
    const sealed = await sealer.seal({ consent: 'delete:pm-a1' }, binding, { once: true });
    expect(await sealer.open(sealed, binding)).toEqual({ consent: 'delete:pm-a1' });
    expect((await refusal(sealer.open(sealed, binding))).check).toBe('replayed');
  });

  it('does not burn one-time state on a retry that fails another check', async () => {
    const { sealer } = setup();
    const sealed = await sealer.seal({ consent: 'delete:pm-a1' }, binding, { once: true });
    expect((await refusal(sealer.open(sealed, { ...binding, principal: 'local:mallory' }))).check).toBe('foreign-principal');
    expect(await sealer.open(sealed, binding)).toEqual({ consent: 'delete:pm-a1' });
  });

  it('keeps state sealed before a rotation valid for one lifetime, then refuses its key', async () => {
    const { sealer, clock } = setup({ ttlMs: 60_000 });
    const before = await sealer.seal({ x: 1 }, binding);
    clock.advance(10_000);
    const fresh = await sealer.rotate();
    expect(fresh.id).toBe('k2');
    const after = await sealer.seal({ x: 2 }, binding);
    expect(parts(after)[1]).toBe('k2');
    expect(await sealer.open(before, binding)).toEqual({ x: 1 });
    expect(await sealer.open(after, binding)).toEqual({ x: 2 });
    clock.advance(50_000); // the old state has expired; its key still verifies
    expect((await refusal(sealer.open(before, binding))).check).toBe('expired');
    clock.advance(10_000); // its key was retired one lifetime ago
    expect((await refusal(sealer.open(before, binding))).check).toBe('unknown-key');
  });

  it('refuses a state from another server (another key of the same id)', async () => {
    const a = setup();
    const other = new PmMcpRequestStateSealer({ hasher: a.hasher, clock: a.clock, ids: new SeededIdSource(1), keys: new MemoryMacKeyStore(a.clock, () => new Uint8Array(32).fill(9)), replays: new MemoryReplayLedger() });
    const sealed = await other.seal({ x: 1 }, binding);
    expect((await refusal(a.sealer.open(sealed, binding))).check).toBe('tampered');
  });

  it('bounds the size of what it seals and opens', async () => {
    const { sealer } = setup({ maxLength: 512 });
    await expect(sealer.seal({ big: 'x'.repeat(600) }, binding)).rejects.toThrow(/the bound is 512/);
    expect((await refusal(sealer.open(`pm1.k1.${'a'.repeat(600)}.${'0'.repeat(64)}`, binding))).check).toBe('too-large');
  });

  it('draws a fresh nonce per seal, so two one-time states never collide', async () => {
    const { sealer } = setup();
    const one = await sealer.seal({ x: 1 }, binding, { once: true });
    const two = await sealer.seal({ x: 1 }, binding, { once: true });
    expect(decode(parts(one)[2]).n).not.toBe(decode(parts(two)[2]).n);
    expect(await sealer.open(one, binding)).toEqual({ x: 1 });
    expect(await sealer.open(two, binding)).toEqual({ x: 1 });
  });

  it('rejects a lifetime that is not a positive integer', () => {
    const { hasher, clock, keys, replays } = setup();
    expect(() => new PmMcpRequestStateSealer({ hasher, clock, ids: new SeededIdSource(), keys, replays }, { ttlMs: 0 })).toThrow(RangeError);
  });

  it('digests arguments canonically', () => {
    const hasher = new PureSha256Hasher();
    expect(mcpRequestStateParamsDigest(hasher, { b: 1, a: { d: 2, c: 3 } })).toBe(mcpRequestStateParamsDigest(hasher, { a: { c: 3, d: 2 }, b: 1, _meta: { x: 1 } }));
    expect(mcpRequestStateParamsDigest(hasher, { a: 1 })).not.toBe(mcpRequestStateParamsDigest(hasher, { a: 2 }));
  });
});
