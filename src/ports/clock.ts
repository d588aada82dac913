/** Wall-clock time, a port so that leases, expiries and timestamps are testable. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Resolves after ms milliseconds (a manual clock resolves when time is advanced). */
  sleep(ms: number): Promise<void>;
}
