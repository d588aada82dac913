import { memoryTracker } from '../../../support/memory-tracker.js';
import { ConflictError, IdempotencyConflictError } from '../../../../src/domain/errors/index.js';

describe('claim-next, leases and takeovers', () => {
  it('claims the best ready item with its lease and why, each call a different item', async () => {
    const { tracker } = await memoryTracker();
    const low = await tracker.create({ title: 'low', priority: 3 });
    const high = await tracker.create({ title: 'high', priority: 1 });
    const first = await tracker.claimNext({}, { leaseMinutes: 10 }, { actor: 'bob' });
    expect(first.item).toMatchObject({ id: high.item.id, status: 'in_progress', assignee: 'bob', claim: { holder: 'bob', expiresAt: '2026-03-01T10:10:00.000Z' } });
    expect(first.receipt).toMatchObject({ op: 'claim', itemId: high.item.id, actor: 'bob' });
    expect(first.rationale).toContain(`${high.item.id} is ready: open, unclaimed`);
    const [a, b] = await Promise.all([tracker.claimNext({}, {}, { actor: 'carol' }), tracker.claimNext({}, {}, { actor: 'dan' })]);
    expect([a.item?.id, b.item?.id].filter(Boolean)).toEqual([low.item.id]);
    const none = a.item ? b : a;
    expect(none).toMatchObject({ item: null, counts: { open: 0, ready: 0 } });
    expect(none.rationale).toContain('in progress under a live claim');
  });

  it('chooses within one batch from the state its earlier changes left: distinct items, never one whose blocker the batch reopened', async () => {
    const { tracker } = await memoryTracker();
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push((await tracker.create({ title: `w${n}`, priority: 2 })).item.id);
    const done = await tracker.create({ title: 'blocker, closed', priority: 0 });
    await tracker.close(done.item.id, { evidence: 'x' });
    const waiting = await tracker.create({ title: 'waits on the blocker', priority: 0, blockedBy: [done.item.id] });
    // One batch (all arrive in the same turn): the reopen comes first, so the claims after it must not take its dependant.
    const [, ...claims] = await Promise.all([tracker.reopen(done.item.id, 'not done after all'), ...Array.from({ length: 8 }, (_, n) => tracker.claimNext({}, {}, { actor: `agent-${n}` }))]);
    const won = claims.map((c) => c.item?.id).filter((id): id is string => id !== undefined);
    expect(new Set(won).size).toBe(won.length);
    expect(won).not.toContain(waiting.item.id);
    expect(won.length).toBeGreaterThanOrEqual(5);
    for (const id of won) expect((await tracker.historyOf(id)).filter((e) => e.op === 'claim')).toHaveLength(1);
  });

  it('applies filters and skips items assigned to somebody else, and says nothing is ready with the counts', async () => {
    const { tracker } = await memoryTracker();
    await tracker.create({ title: 'bob’s', assignee: 'bob', tags: ['legal'] });
    const none = await tracker.claimNext({ tag: ['legal'] }, {}, { actor: 'alice' });
    expect(none.item).toBeNull();
    expect(none.counts).toEqual({ open: 1, ready: 0, blocked: 0, claimed: 1, containers: 0 });
    expect(none.rationale).toContain('1 claimed or assigned elsewhere');
    const mine = await tracker.claimNext({ tag: ['legal'] }, {}, { actor: 'bob' });
    expect(mine.item?.claim?.holder).toBe('bob');
  });

  it('replays an idempotency key with the first claim, and refuses the key for another query', async () => {
    const { tracker } = await memoryTracker();
    await tracker.create({ title: 'a' });
    await tracker.create({ title: 'b' });
    const first = await tracker.claimNext({}, {}, { actor: 'bob', idempotencyKey: 'k' });
    const again = await tracker.claimNext({}, {}, { actor: 'bob', idempotencyKey: 'k' });
    expect(again).toMatchObject({ replayed: true, item: { id: first.item!.id }, receipt: { receiptId: first.receipt!.receiptId } });
    await expect(tracker.claimNext({ tag: ['x'] }, {}, { actor: 'bob', idempotencyKey: 'k' })).rejects.toThrow(IdempotencyConflictError);
  });

  it('offers an expired claim to others with the reason, records the takeover, and lets the holder renew', async () => {
    const { tracker, clock } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x' });
    await tracker.claim(item.id, { leaseMinutes: 1 }, { actor: 'bob' });
    expect((await tracker.next({})).item).toBeNull();
    clock.advance(30_000);
    const renewed = await tracker.claim(item.id, { renew: true, leaseMinutes: 1 }, { actor: 'bob' });
    expect(renewed.item.claim).toMatchObject({ claimedAt: '2026-03-01T10:00:00.000Z', expiresAt: '2026-03-01T10:01:30.000Z' });
    await expect(tracker.claim(item.id, { renew: true }, { actor: 'carol' })).rejects.toThrow(/only the holder renews/);
    clock.advance(13 * 60_000);
    const offered = await tracker.next({ assignee: 'alice' });
    expect(offered.item?.id).toBe(item.id);
    expect(offered.rationale).toContain('claim by bob expired 12 min ago');
    const context = await tracker.context();
    expect(context.claims).toEqual([]);
    expect(context.expiredClaims).toEqual([{ id: item.id, title: 'x', holder: 'bob', expiresAt: '2026-03-01T10:01:30.000Z' }]);
    const taken = await tracker.claimNext({}, {}, { actor: 'alice' });
    expect(taken.item).toMatchObject({ id: item.id, assignee: 'alice', claim: { holder: 'alice' } });
    expect(taken.rationale).toContain('claim by bob expired 12 min ago');
    expect(taken.receipt?.takeover).toEqual({ from: 'bob', expiredAt: '2026-03-01T10:01:30.000Z' });
    expect((await tracker.historyOf(item.id)).at(-1)).toMatchObject({ op: 'claim', actor: 'alice', takeover: { from: 'bob', expiredAt: '2026-03-01T10:01:30.000Z' } });
    expect((await tracker.verifiedHistory(item.id)).faults).toEqual([]);
  });

  it('takes a lease in seconds (1 s to 7 days), and refuses one given in both units', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x' });
    const claimed = await tracker.claimNext({}, { leaseSeconds: 2 }, { actor: 'bob' });
    expect(claimed.item?.claim?.expiresAt).toBe('2026-03-01T10:00:02.000Z');
    await expect(tracker.claim(item.id, { leaseSeconds: 0 }, { actor: 'bob' })).rejects.toThrow('lease must be 1 to 604800 seconds, got 0');
    await expect(tracker.claim(item.id, { leaseSeconds: 604_801 }, { actor: 'bob' })).rejects.toThrow(/1 to 604800 seconds/);
    const both = await tracker.claim(item.id, { leaseSeconds: 60, leaseMinutes: 1 }, { actor: 'bob' }).catch((e) => e);
    expect(both.message).toBe('give the lease in minutes or in seconds, not both');
    expect(both.data).toEqual({ field: 'leaseSeconds' });
  });

  it('warns on closing work somebody else holds a live claim on, and refuses it under strict (a lost lease)', async () => {
    const { tracker, clock } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x' });
    await tracker.claim(item.id, { leaseSeconds: 5 }, { actor: 'bob' });
    clock.advance(6_000);
    await tracker.claimNext({}, { leaseSeconds: 5 }, { actor: 'carol' }); // bob's lease ran out: carol took it over
    const refused = await tracker.close(item.id, { evidence: 'bob finished late' }, { actor: 'bob', strict: true }).catch((e) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused.reason).toBe('claimed');
    expect(refused.data).toMatchObject({ itemId: item.id, holder: 'carol', strict: true });
    expect((await tracker.get(item.id)).status).toBe('in_progress');
    const warned = await tracker.close(item.id, { evidence: 'closed anyway' }, { actor: 'bob' });
    expect(warned.warnings).toEqual([expect.stringContaining(`${item.id} is claimed by carol until`)]);
    const own = await tracker.create({ title: 'y' });
    await tracker.claim(own.item.id, {}, { actor: 'bob' });
    expect((await tracker.close(own.item.id, { evidence: 'done' }, { actor: 'bob', strict: true })).warnings).toBeUndefined();
  });

  it('release returns the item to the pool: open, no claim, and no assignee that came with the claim', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x' });
    await tracker.claim(item.id, {}, { actor: 'bob' });
    const released = await tracker.release(item.id, {}, { actor: 'bob' });
    expect(released.item).toMatchObject({ status: 'open' });
    expect(released.item.assignee).toBeUndefined();
    expect(released.item.claim).toBeUndefined();
  });

  it('warns when claiming an item assigned to somebody else, and refuses under strict', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x', assignee: 'bob' });
    const refused = await tracker.claim(item.id, {}, { actor: 'alice', strict: true }).catch((e) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused.reason).toBe('assigned_elsewhere');
    expect(refused.data).toMatchObject({ assignee: 'bob', strict: true });
    const claimed = await tracker.claim(item.id, {}, { actor: 'alice' });
    expect(claimed.warnings).toEqual([`${item.id} is assigned to bob; claiming it makes you the assignee instead`]);
    const mine = await tracker.create({ title: 'y', assignee: 'alice' });
    expect((await tracker.claim(mine.item.id, {}, { actor: 'alice' })).warnings).toBeUndefined();
  });
});
