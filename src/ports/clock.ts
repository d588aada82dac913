/** Wall-clock time, a port so that leases, expiries and timestamps are testable. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Resolves after ms milliseconds (a manual clock resolves when time is advanced). An aborted
   * `signal` resolves it at once and frees its timer, so a waiter that is no longer wanted (a
   * lease timer re-armed or stopped, docs/MCP.md "Subscriptions") costs nothing.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
