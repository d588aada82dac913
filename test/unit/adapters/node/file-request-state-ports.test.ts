import { stat, writeFile, mkdir } from 'node:fs/promises';
import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { FileMacKeyStore } from '../../../../src/adapters/node/file-mac-key-store.js';
import { FileReplayLedger } from '../../../../src/adapters/node/file-replay-ledger.js';
import { NodeFileSystem } from '../../../../src/adapters/node/node-file-system.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeMacKeyStoreContract } from '../mac-key-store-contract.js';
import { describeReplayLedgerContract } from '../replay-ledger-contract.js';

const temp = useTempDir('pm-request-state-');
const keysPath = () => `${temp()}/.runtime/request-state-keys.json`;

describeReplayLedgerContract('FileReplayLedger', async () => new FileReplayLedger(new NodeFileSystem(), `${temp()}/.runtime/replays`, 16));
describeMacKeyStoreContract('FileMacKeyStore', async () => ({ store: new FileMacKeyStore(keysPath(), new ManualClock(1_000)) }));

describe('FileReplayLedger', () => {
  it('is shared by two ledgers on one directory (two processes serving one tracker)', async () => {
    const dir = `${temp()}/.runtime/replays`;
    const a = new FileReplayLedger(new NodeFileSystem(), dir);
    const b = new FileReplayLedger(new NodeFileSystem(), dir);
    expect(await a.consume('k1.shared', 5_000, 1_000)).toBe(true);
    expect(await b.consume('k1.shared', 5_000, 1_000)).toBe(false);
  });

  it('refuses a token that is not a safe file name', async () => {
    const ledger = new FileReplayLedger(new NodeFileSystem(), `${temp()}/r`);
    await expect(ledger.consume('../escape', 5_000, 1_000)).rejects.toThrow(/not a safe file name/);
    await expect(ledger.consume('.hidden', 5_000, 1_000)).rejects.toThrow(/not a safe file name/);
  });
});

describe('FileMacKeyStore', () => {
  it('keeps the keys readable by their owner only', async () => {
    await new FileMacKeyStore(keysPath(), new ManualClock(1_000)).current();
    expect((await stat(keysPath())).mode & 0o777).toBe(0o600);
    expect((await stat(`${temp()}/.runtime`)).mode & 0o777).toBe(0o700);
  });

  it('agrees on the first key when two handles start together', async () => {
    const [a, b] = [new FileMacKeyStore(keysPath(), new ManualClock(1_000)), new FileMacKeyStore(keysPath(), new ManualClock(1_000))];
    const [ka, kb] = await Promise.all([a.current(), b.current()]);
    expect(ka.id).toBe(kb.id);
  });

  it('lets a rotation by one handle reach another (pm mcp rotate-key and a running server)', async () => {
    const server = new FileMacKeyStore(keysPath(), new ManualClock(1_000));
    const first = await server.current();
    const fresh = await new FileMacKeyStore(keysPath(), new ManualClock(2_000)).rotate(2_000, 0);
    expect((await server.current()).id).toBe(fresh.id);
    expect((await server.keys()).map((k) => k.id)).toEqual([fresh.id, first.id]);
  });

  it('fails loudly on a file that holds no keys', async () => {
    await mkdir(`${temp()}/.runtime`, { recursive: true });
    await writeFile(keysPath(), '{"keys":[]}\n');
    await expect(new FileMacKeyStore(keysPath(), new ManualClock(1_000)).current()).rejects.toThrow(/holds no keys/);
  });
});
