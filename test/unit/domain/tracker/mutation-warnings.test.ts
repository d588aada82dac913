import { ConflictError } from '../../../../src/domain/errors/index.js';
import { memoryTracker } from '../../../support/memory-tracker.js';

describe('warnings on risky mutations', () => {
  it('warns when claiming an item with an unfinished blocker, and refuses under strict', async () => {
    const { tracker } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    const c = (await tracker.create({ title: 'c', blockedBy: [a] })).item.id;
    const strict = await tracker.claim(c, {}, { strict: true }).catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(ConflictError);
    expect((strict as ConflictError).reason).toBe('blocked');
    expect((strict as ConflictError).exitCode).toBe(4);
    expect((strict as Error).message).toBe(`${c} is blocked by unfinished work: ${a} (open); finish or close it first; strict mode (the strict option, or strict: true in config.yaml) refuses it; without it, it is a warning`);
    expect((strict as { data: Record<string, unknown> }).data.remedy).toEqual({ option: 'strict', words: expect.stringContaining('strict mode') });
    expect((await tracker.get(c)).claim).toBeUndefined();
    const claimed = await tracker.claim(c);
    expect(claimed.item.claim?.holder).toBe('alice');
    expect(claimed.warnings).toEqual([`${c} is blocked by unfinished work: ${a} (open)`]);
    await tracker.close(a, { evidence: 'done' });
    expect((await tracker.claim(c)).warnings).toBeUndefined();
  });

  it("warns when updating an item somebody else has claimed, and refuses under strict", async () => {
    const { tracker, reopen } = await memoryTracker();
    const bob = await reopen('bob');
    const id = (await tracker.create({ title: 'a' })).item.id;
    await bob.claim(id);
    const updated = await tracker.update(id, { priority: 0 });
    expect(updated.warnings).toEqual([`${id} is claimed by bob until 2026-03-01T12:00:00.000Z; you are changing their work`]);
    const refused = await tracker.update(id, { priority: 1 }, { strict: true }).catch((e: unknown) => e);
    expect((refused as ConflictError).reason).toBe('claimed');
    expect((await tracker.get(id)).priority).toBe(0);
    expect((await bob.update(id, { priority: 3 })).warnings).toBeUndefined();
  });

  it('takes strict from config.yaml', async () => {
    const { tracker } = await memoryTracker({ configYaml: 'version: 1\nstrict: true\n' });
    const a = (await tracker.create({ title: 'a' })).item.id;
    const c = (await tracker.create({ title: 'c', blockedBy: [a] })).item.id;
    await expect(tracker.claim(c)).rejects.toThrow(ConflictError);
    expect((await tracker.claim(c, {}, { strict: false })).warnings).toHaveLength(1);
  });
});
