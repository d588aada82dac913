import type { ReplayLedger } from '../../../src/ports/replay-ledger.js';

/**
 * The shared contract of the ReplayLedger port (seed 004 "MRTR, tasks, and cache behavior":
 * one-time continuation state), run against the in-memory ledger and the file-backed one.
 */
export function describeReplayLedgerContract(label: string, subject: () => Promise<ReplayLedger>): void {
  describe(`${label}: ReplayLedger (contract)`, () => {
    let ledger: ReplayLedger;
    beforeEach(async () => {
      ledger = await subject();
    });

    it('accepts a token once and refuses it while it is alive', async () => {
      expect(await ledger.consume('k1.abc', 2_000, 1_000)).toBe(true);
      expect(await ledger.consume('k1.abc', 2_000, 1_500)).toBe(false);
      expect(await ledger.consume('k1.abc', 2_000, 1_999)).toBe(false);
    });

    it('keeps tokens apart', async () => {
      expect(await ledger.consume('k1.a', 2_000, 1_000)).toBe(true);
      expect(await ledger.consume('k1.b', 2_000, 1_000)).toBe(true);
      expect(await ledger.consume('k2.a', 2_000, 1_000)).toBe(true);
      expect(await ledger.consume('k1.a', 2_000, 1_000)).toBe(false);
    });

    it('forgets a token once it expired', async () => {
      expect(await ledger.consume('k1.old', 2_000, 1_000)).toBe(true);
      expect(await ledger.consume('k1.old', 9_000, 2_000)).toBe(true);
      expect(await ledger.consume('k1.old', 9_000, 3_000)).toBe(false);
    });

    it('lets exactly one of many concurrent consumers win', async () => {
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => ledger.consume('k1.race', 5_000, 1_000)));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    });

    it('stays correct across many tokens (sweeping what expired)', async () => {
      for (let i = 0; i < 150; i++) expect(await ledger.consume(`k1.t${i}`, 1_000 + i, 1_000 + i - 1)).toBe(true);
      expect(await ledger.consume('k1.t149', 5_000, 1_148)).toBe(false);
      expect(await ledger.consume('k1.t0', 5_000, 1_148)).toBe(true);
    });
  });
}
