import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryLocker } from '../../../../src/adapters/memory/memory-locker.js';
import { LockTimeoutError } from '../../../../src/domain/errors/index.js';

describe('MemoryLocker', () => {
  it('admits one holder per name at a time, first come first served', async () => {
    const locker = new MemoryLocker(new ManualClock());
    const order: string[] = [];
    const first = await locker.acquire('w', { timeoutMs: 1000 });
    const second = locker.acquire('w', { timeoutMs: 1000 }).then((release) => (order.push('second'), release));
    const third = locker.acquire('w', { timeoutMs: 1000 }).then((release) => (order.push('third'), release));
    const other = await locker.acquire('other-name', { timeoutMs: 1000 });
    await other();
    await Promise.resolve();
    expect(order).toEqual([]);
    await first();
    await (await second)();
    await (await third)();
    expect(order).toEqual(['second', 'third']);
    const again = await locker.acquire('w', { timeoutMs: 1000 });
    await again();
  });

  it('times out through the clock with LockTimeoutError and drops the waiter', async () => {
    const clock = new ManualClock();
    const locker = new MemoryLocker(clock);
    const held = await locker.acquire('w', { timeoutMs: 1000 });
    const waiting = locker.acquire('w', { timeoutMs: 500 });
    clock.advance(499);
    await Promise.resolve();
    clock.advance(1);
    await expect(waiting).rejects.toThrow(LockTimeoutError);
    await held();
    const next = await locker.acquire('w', { timeoutMs: 10 });
    await next();
  });

  it('ignores a second release of the same hold', async () => {
    const locker = new MemoryLocker(new ManualClock());
    const release = await locker.acquire('w', { timeoutMs: 10 });
    await release();
    const next = await locker.acquire('w', { timeoutMs: 10 });
    await release();
    let third = false;
    void locker.acquire('w', { timeoutMs: 10 }).then(() => (third = true));
    await Promise.resolve();
    expect(third).toBe(false);
    await next();
  });
});
