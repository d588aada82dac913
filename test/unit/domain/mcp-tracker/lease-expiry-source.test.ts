import type { PmMcpChange } from '../../../../src/domain/mcp/subscriptions/change-source.js';
import { PmMcpLeaseExpirySource, pmLeaseExpiredVersion } from '../../../../src/domain/mcp-tracker/lease-expiry-source.js';
import { PmMcpTrackerChangeSource } from '../../../../src/domain/mcp-tracker/tracker-change-source.js';
import { memoryTracker } from '../../../support/memory-tracker.js';
import { ITEMS_DIR, settle } from '../../../support/subscription-harness.js';

/** A tracker, its file-watch source wrapped in the lease source, and every batch it emitted. */
async function leaseSetup() {
  const t = await memoryTracker();
  await t.tracker.list();
  const files = new PmMcpTrackerChangeSource(t.fs, t.clock, ITEMS_DIR);
  const reads: number[] = [];
  const source = new PmMcpLeaseExpirySource(files, () => {
    reads.push(t.clock.now());
    return t.tracker.claimLeases();
  }, t.clock);
  const batches: PmMcpChange[][] = [];
  const start = async () => {
    const stop = source.start((changes) => batches.push([...changes]));
    await settle(10);
    t.clock.advance(300); // past the file watch's own first-scan window
    await settle(10);
    return stop;
  };
  const advance = async (ms: number) => {
    await settle(10);
    t.clock.advance(ms);
    await settle(10);
  };
  /** The batches that tell an expiry (a version of the lease-expired form). */
  const expiries = () => batches.filter((batch) => batch.some((c) => c.kind === 'resourceUpdated' && c.version?.startsWith('lease-expired:')));
  return { ...t, source, batches, start, advance, expiries, reads };
}

describe('PmMcpLeaseExpirySource', () => {
  it('tells an expiring lease on the item, pm://claims and pm://context with a version of its own', async () => {
    const s = await leaseSetup();
    const { item } = await s.tracker.create({ title: 'work' });
    const claimed = await s.tracker.claim(item.id, { leaseSeconds: 30 }, { actor: 'bob' });
    const stop = await s.start();
    await s.advance(29_000);
    expect(s.expiries()).toEqual([]);
    await s.advance(1_000);
    expect(s.expiries()).toEqual([[
      { kind: 'resourceUpdated', uri: `pm://items/${item.id}`, version: pmLeaseExpiredVersion({ holder: 'bob', expiresAt: claimed.item.claim!.expiresAt }) },
      { kind: 'resourceUpdated', uri: 'pm://claims' },
      { kind: 'resourceUpdated', uri: 'pm://context' },
    ]]);
    expect(s.clock.pendingSleepers).toBe(0); // nothing live: no timer
    await s.advance(60_000);
    expect(s.expiries()).toHaveLength(1); // told once
    stop();
  });

  it('tells nothing at the old time when the lease was renewed, and the new expiry when it comes', async () => {
    const s = await leaseSetup();
    const { item } = await s.tracker.create({ title: 'work' });
    await s.tracker.claim(item.id, { leaseSeconds: 30 }, { actor: 'bob' });
    const stop = await s.start();
    await s.advance(20_000);
    await s.tracker.claim(item.id, { renew: true, leaseSeconds: 30 }, { actor: 'bob' });
    await s.advance(15_000); // the first lease would have ended 5 s ago
    expect(s.expiries()).toEqual([]);
    await s.advance(15_000);
    expect(s.expiries()).toHaveLength(1);
    stop();
  });

  it('cancels the timer when the claim is released, and tells the changes of the file watch as they are', async () => {
    const s = await leaseSetup();
    const { item } = await s.tracker.create({ title: 'work' });
    await s.tracker.claim(item.id, { leaseSeconds: 30 }, { actor: 'bob' });
    const stop = await s.start();
    expect(s.clock.pendingSleepers).toBe(1);
    await s.tracker.release(item.id, {}, { actor: 'bob' });
    await s.advance(10);
    expect(s.clock.pendingSleepers).toBe(0);
    expect(s.batches.some((batch) => batch.some((c) => c.kind === 'resourceUpdated' && c.uri === `pm://items/${item.id}`))).toBe(true);
    await s.advance(60_000);
    expect(s.expiries()).toEqual([]);
    stop();
  });

  it('moves the timer to an earlier claim, does not tell leases that lapsed before it started, and frees its timer when stopped', async () => {
    const s = await leaseSetup();
    const old = await s.tracker.create({ title: 'abandoned' });
    await s.tracker.claim(old.item.id, { leaseSeconds: 5 }, { actor: 'carol' });
    await s.advance(10_000); // lapsed before anybody listened
    const late = await s.tracker.create({ title: 'late' });
    await s.tracker.claim(late.item.id, { leaseMinutes: 10 }, { actor: 'bob' });
    const stop = await s.start();
    const soon = await s.tracker.create({ title: 'soon' });
    await s.tracker.claim(soon.item.id, { leaseSeconds: 2 }, { actor: 'dan' });
    await s.advance(2_000);
    const told = s.expiries().flat().filter((c) => c.kind === 'resourceUpdated' && c.version !== undefined).map((c) => (c as { uri: string }).uri);
    expect(told).toEqual([`pm://items/${soon.item.id}`]);
    expect(s.clock.pendingSleepers).toBe(1); // armed for the ten-minute lease
    stop();
    expect(s.clock.pendingSleepers).toBe(0);
    await s.advance(600_000);
    expect(s.expiries()).toHaveLength(1);
  });

  it('costs nothing when idle: one read at start, no timer while there are no claims', async () => {
    const s = await leaseSetup();
    await s.tracker.create({ title: 'unclaimed' });
    const stop = await s.start();
    expect(s.reads).toHaveLength(1);
    expect(s.clock.pendingSleepers).toBe(0);
    await s.advance(3_600_000);
    expect(s.reads).toHaveLength(1);
    stop();
  });
});
