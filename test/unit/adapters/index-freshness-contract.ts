import type { IndexFreshness } from '../../../src/ports/index-freshness.js';

/** What a contract subject makes: a witness over `refresh`, or one with no watcher behind it. */
export interface IndexFreshnessSubject {
  witness(refresh: () => Promise<void>): Promise<IndexFreshness>;
  absent(): Promise<IndexFreshness>;
}

/**
 * The shared contract of the IndexFreshness port (docs/TRACKER.md "The derived index"): a
 * witness vouches only after its refresh ran to completion, and every failure is a plain
 * "cannot vouch" (false), never a rejection, so the caller falls back to its own sweep.
 */
export function describeIndexFreshnessContract(label: string, subject: () => Promise<IndexFreshnessSubject>): void {
  describe(`${label}: IndexFreshness (contract)`, () => {
    it('vouches once its refresh has completed, each call running a refresh of its own', async () => {
      const s = await subject();
      let started = 0;
      let finished = 0;
      const witness = await s.witness(async () => {
        started++;
        await new Promise((resolve) => setImmediate(resolve));
        finished++;
      });
      expect(await witness.vouch()).toBe(true);
      expect([started, finished]).toEqual([1, 1]);
      expect(await witness.vouch()).toBe(true);
      expect(finished).toBe(2);
    });

    it('does not vouch when its refresh fails', async () => {
      const s = await subject();
      const witness = await s.witness(() => Promise.reject(new Error('index locked')));
      expect(await witness.vouch()).toBe(false);
    });

    it('does not vouch, and does not reject, when no watcher is there', async () => {
      const s = await subject();
      const witness = await s.absent();
      expect(await witness.vouch()).toBe(false);
      expect(() => witness.swept(10)).not.toThrow();
    });
  });
}
