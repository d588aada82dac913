import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { MemoryMacKeyStore } from '../../../../src/adapters/memory/memory-mac-key-store.js';
import { MemoryReplayLedger } from '../../../../src/adapters/memory/memory-replay-ledger.js';
import { FileReplayLedger } from '../../../../src/adapters/node/file-replay-ledger.js';
import { describeMacKeyStoreContract } from '../mac-key-store-contract.js';
import { describeReplayLedgerContract } from '../replay-ledger-contract.js';

describeReplayLedgerContract('MemoryReplayLedger', async () => new MemoryReplayLedger());
describeReplayLedgerContract('FileReplayLedger over MemoryFileSystem', async () => new FileReplayLedger(new MemoryFileSystem(), '/runtime/replays', 16));
describeMacKeyStoreContract('MemoryMacKeyStore', async () => ({ store: new MemoryMacKeyStore(new ManualClock(1_000)) }));

describe('MemoryReplayLedger', () => {
  it('holds only what is alive', async () => {
    const ledger = new MemoryReplayLedger();
    await ledger.consume('a', 2_000, 1_000);
    await ledger.consume('b', 3_000, 1_000);
    await ledger.consume('c', 9_000, 2_500);
    expect(ledger.size).toBe(2);
  });
});

describe('MemoryReplayLedger with mixed lifetimes', () => {
  it('judges an expired token by its expiry even when a longer-lived one sits before it', async () => {
    const ledger = new MemoryReplayLedger();
    await ledger.consume('long', 10_000, 1_000);
    await ledger.consume('short', 2_000, 1_000);
    // the sweep stops at 'long' (alive), so 'short' is still in the map, but expired
    expect(await ledger.consume('short', 9_000, 3_000)).toBe(true);
    expect(await ledger.consume('short', 9_000, 3_000)).toBe(false);
    expect(await ledger.consume('long', 20_000, 3_000)).toBe(false);
  });
});
