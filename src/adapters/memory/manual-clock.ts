import type { Clock } from '../../ports/clock.js';

/** A clock that moves only when told to; sleepers wake when time passes their deadline. */
export class ManualClock implements Clock {
  private current: number;
  private sleepers: { until: number; wake: () => void }[] = [];

  constructor(start: number | string = '2026-01-01T00:00:00.000Z') {
    this.current = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const sleeper = { until: this.current + ms, wake: resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener('abort', () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        resolve();
      }, { once: true });
      this.advance(0);
    });
  }

  /** Sleepers still waiting (a test checks that a cancelled timer is gone). */
  get pendingSleepers(): number {
    return this.sleepers.length;
  }

  advance(ms: number): void {
    this.current += ms;
    const due = this.sleepers.filter((s) => s.until <= this.current);
    this.sleepers = this.sleepers.filter((s) => s.until > this.current);
    for (const s of due) s.wake();
  }

  set(time: number | string): void {
    this.current = typeof time === 'number' ? time : Date.parse(time);
    this.advance(0);
  }
}
