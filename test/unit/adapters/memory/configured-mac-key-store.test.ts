import { ConfiguredMacKeyStore, configuredMacKeyId } from '../../../../src/adapters/memory/configured-mac-key-store.js';
import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryMacKeyStore } from '../../../../src/adapters/memory/memory-mac-key-store.js';
import { MemoryReplayLedger } from '../../../../src/adapters/memory/memory-replay-ledger.js';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { SeededIdSource } from '../../../../src/adapters/memory/seeded-id-source.js';
import { ValidationError } from '../../../../src/domain/errors/tracker-errors.js';
import { PmMcpRequestStateError } from '../../../../src/domain/errors/mcp-errors.js';
import { PmMcpRequestStateSealer, type McpRequestStateBinding } from '../../../../src/domain/mcp/interaction/request-state.js';
import type { MacKeyStore } from '../../../../src/ports/mac-key-store.js';
import { rejectionOf } from '../../../support/thrown.js';

const hasher = new PureSha256Hasher();
const clock = new ManualClock(1_000_000);
const binding: McpRequestStateBinding = { method: 'tools/call', params: { name: 'pm_delete', arguments: { id: 'pm-a1' } }, principal: 'local:alice' };
const secret = (fill: number) => new Uint8Array(32).fill(fill);

/** One server instance: its own ledger and ids, the keys it was configured with. */
const instance = (keys: MacKeyStore, seed: number) => new PmMcpRequestStateSealer({ hasher, clock, ids: new SeededIdSource(seed), keys, replays: new MemoryReplayLedger() });
const configured = (...fills: number[]) => new ConfiguredMacKeyStore(hasher, fills.map(secret), clock.now());

const refusal = (promise: Promise<unknown>) => rejectionOf(promise, PmMcpRequestStateError, 'the state to be refused');

test('the first key seals, every key verifies, ids come from the secrets', async () => {
  const store = configured(1, 2);
  const keys = await store.keys();
  expect(keys.map((key) => key.id)).toEqual([configuredMacKeyId(hasher, secret(1)), configuredMacKeyId(hasher, secret(2))]);
  expect(keys[0]!.id).toMatch(/^c[0-9a-f]{12}$/);
  expect((await store.current()).id).toBe(keys[0]!.id);
  expect(keys.every((key) => key.retiredAt === undefined)).toBe(true);
  expect(() => new ConfiguredMacKeyStore(hasher, [], 0)).toThrow(RangeError);
});

test('two instances configured alike accept each other\'s requestState', async () => {
  const a = instance(configured(1), 1);
  const b = instance(configured(1), 2);
  expect(await b.open(await a.seal({ step: 1 }, binding), binding)).toEqual({ step: 1 });
  expect(await a.open(await b.seal({ step: 2 }, binding), binding)).toEqual({ step: 2 });
  // Instances that keep their own keys do not.
  const own = instance(new MemoryMacKeyStore(clock, () => secret(9)), 3);
  expect((await refusal(own.open(await a.seal({}, binding), binding))).check).toBe('unknown-key');
});

test('rotation by configuration: a new key first keeps the old one verifying; a dropped key is refused', async () => {
  const before = instance(configured(1), 1);
  const sealed = await before.seal({ step: 1 }, binding);
  const rotated = instance(configured(2, 1), 2);
  expect(await rotated.open(sealed, binding)).toEqual({ step: 1 });
  expect((await rotated.keys())[0]!.id).toBe(configuredMacKeyId(hasher, secret(2)));
  expect(await before.open(await rotated.seal({ step: 2 }, binding), binding).catch((error: PmMcpRequestStateError) => error.check)).toBe('unknown-key');
  const dropped = instance(configured(2), 3);
  const error = await refusal(dropped.open(sealed, binding));
  expect(error.check).toBe('unknown-key');
  expect(error.message).toMatch(/no longer accepts/);
});

test('rotate is refused: the configuration rotates', async () => {
  const sealer = instance(configured(1), 1);
  await expect(sealer.rotate()).rejects.toThrow(ValidationError);
  await expect(sealer.rotate()).rejects.toThrow(/PM_MCP_MAC_KEYS/);
});
