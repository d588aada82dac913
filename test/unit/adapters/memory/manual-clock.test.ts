import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';

describe('ManualClock', () => {
  it('starts at the given instant and moves only when told', () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    expect(clock.now()).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
    clock.advance(1500);
    expect(new Date(clock.now()).toISOString()).toBe('2026-01-01T00:00:01.500Z');
    clock.set('2027-05-05T05:05:05.000Z');
    expect(new Date(clock.now()).toISOString()).toBe('2027-05-05T05:05:05.000Z');
    expect(new ManualClock(42).now()).toBe(42);
  });

  it('wakes sleepers when time passes their deadline, in any order', async () => {
    const clock = new ManualClock(0);
    const woke: string[] = [];
    const long = clock.sleep(100).then(() => woke.push('long'));
    const short = clock.sleep(10).then(() => woke.push('short'));
    clock.advance(9);
    await Promise.resolve();
    expect(woke).toEqual([]);
    clock.advance(1);
    await short;
    expect(woke).toEqual(['short']);
    clock.set(100);
    await long;
    expect(woke).toEqual(['short', 'long']);
  });

  it('resolves a zero sleep at once', async () => {
    await expect(new ManualClock(0).sleep(0)).resolves.toBeUndefined();
  });
});
