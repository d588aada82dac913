import { MemoryIndexFreshness } from '../../../../src/adapters/memory/memory-index-freshness.js';
import { describeIndexFreshnessContract } from '../index-freshness-contract.js';

describeIndexFreshnessContract('memory', async () => ({
  witness: async (refresh) => new MemoryIndexFreshness(refresh),
  absent: async () => new MemoryIndexFreshness(),
}));

describe('MemoryIndexFreshness', () => {
  it('starts a witness after a sweep of at least its threshold, not before', () => {
    const witness = new MemoryIndexFreshness(undefined, 100, () => () => Promise.resolve());
    witness.swept(99);
    expect(witness.present).toBe(false);
    witness.swept(100);
    expect(witness.present).toBe(true);
    expect(witness.sweeps).toEqual([99, 100]);
  });
});
