import type { LockOptions, Locker, ReleaseLock } from '../../ports/locker.js';
import type { Clock } from '../../ports/clock.js';
import { LockTimeoutError } from '../../domain/errors/index.js';

/** An in-process lock: FIFO waiters per name; times out through the clock. */
export class MemoryLocker implements Locker {
  private readonly held = new Map<string, (() => void)[]>();

  constructor(private readonly clock?: Clock) {}

  async acquire(name: string, options: LockOptions): Promise<ReleaseLock> {
    const queue = this.held.get(name);
    if (!queue) {
      this.held.set(name, []);
      return this.releaser(name);
    }
    await new Promise<void>((resolve, reject) => {
      queue.push(resolve);
      void this.clock?.sleep(options.timeoutMs).then(() => {
        const at = queue.indexOf(resolve);
        if (at >= 0) {
          queue.splice(at, 1);
          reject(new LockTimeoutError(`could not acquire ${name} within ${options.timeoutMs} ms`, { lock: name }));
        }
      });
    });
    return this.releaser(name);
  }

  private releaser(name: string): ReleaseLock {
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const queue = this.held.get(name)!;
      const next = queue.shift();
      if (next) next();
      else this.held.delete(name);
    };
  }
}
