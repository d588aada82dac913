/**
 * A witness of the derived index's freshness: something that already follows every change to
 * the item files (a long-lived watcher over the same index, like git's `core.fsmonitor`
 * daemon) and can bring the index up to date faster than this process could by listing every
 * file with its signature (docs/TRACKER.md "The derived index").
 *
 * The witness is an optimisation only: when it cannot vouch (none running, not answering in
 * time, another tracker or index schema, any failure), the caller checks every file itself, so
 * a query is never stale and never fails because of it.
 */
export interface IndexFreshness {
  /**
   * Brings the index up to date with every change to the item files made before the call
   * (including racy files) and resolves true; false when it cannot. Never rejects.
   */
  vouch(): Promise<boolean>;
  /**
   * Told after this process had to check every file itself, with how many item files there
   * were: a witness may start itself for the next query when such a check costs.
   */
  swept(files: number): void;
}
