/** Releases a held lock; calling it twice is harmless. */
export type ReleaseLock = () => Promise<void>;

export interface LockOptions {
  /** How long to wait for the lock before giving up. */
  readonly timeoutMs: number;
}

/**
 * Mutual exclusion that holds across processes (the tracker's write lock). Implementations
 * recover a lock whose holder is gone without ever letting two holders in.
 */
export interface Locker {
  /** Acquires the named lock or rejects with LockTimeoutError after timeoutMs. */
  acquire(name: string, options: LockOptions): Promise<ReleaseLock>;
}
