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
