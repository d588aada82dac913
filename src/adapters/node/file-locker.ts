import { hostname } from 'node:os';
import { closeSync, lstatSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LockOptions, Locker, ReleaseLock } from '../../ports/locker.js';
import { LockTimeoutError } from '../../domain/errors/index.js';
import { nodeCrypto } from './lazy-crypto.js';
import { readOwn, refuseLinkedDirectory } from './own-file-io.js';
import { processStartMs } from './process-start.js';
import { asStorageError, translated } from './storage-errors.js';

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
  readonly at: number;
}

/** A lock file as seen at one moment: its owner (undefined when unreadable) and identity. */
interface LockFileState {
  readonly owner: LockOwner | undefined;
  readonly ino: number;
  readonly mtimeMs: number;
}

/**
 * How old an unreadable lock file must be before it counts as stale. The owner is written
 * right after the exclusive create, so an empty file is normally only microseconds old; one
 * that stays unreadable was left by a holder killed in between (or damaged) and must not
 * block the tracker forever.
 */
const UNREADABLE_STALE_MS = 1000;

/**
 * How much later than a lock's timestamp its pid's process may have started and still be its
 * holder: the start time read from /proc is accurate to about a second.
 */
const PID_REUSE_SLACK_MS = 2000;

export interface FileLockerOptions {
  /** A lock held longer than this by a holder we cannot check (another host) is stale. */
  readonly staleMs?: number;
  /** Poll interval while waiting. */
  readonly retryMs?: number;
}

/**
 * A cross-process lock: the lock file is created with O_EXCL and names its owner (pid, host,
 * random token). A lock whose owner process is gone (same host; also when its pid now belongs
 * to a process that started after the lock was taken) or that is older than staleMs (other
 * hosts) is stale. Recovery is serialized through a second O_EXCL "recovery" file and
 * re-checks the owner token before unlinking, so two recoverers can never both win and a fresh
 * lock is never removed.
 */
export class FileLocker implements Locker {
  private readonly host = hostname();
  private readonly staleMs: number;
  private readonly retryMs: number;

  constructor(options: FileLockerOptions = {}) {
    this.staleMs = options.staleMs ?? 60_000;
    this.retryMs = options.retryMs ?? 2;
  }

  async acquire(name: string, options: LockOptions): Promise<ReleaseLock> {
    const deadline = Date.now() + options.timeoutMs;
    const owner: LockOwner = { pid: process.pid, host: this.host, token: nodeCrypto().randomBytes(8).toString('hex'), at: Date.now() };
    let delay = this.retryMs;
    for (;;) {
      if (await this.tryCreate(name, owner)) return this.releaser(name, owner.token);
      await this.recoverIfStale(name);
      if (Date.now() >= deadline) {
        const holder = await readOwner(name);
        throw new LockTimeoutError(`the tracker is locked${holder ? ` by process ${holder.pid} on ${holder.host}` : ''}; gave up after ${options.timeoutMs} ms`, { lock: name, holder: holder ?? null });
      }
      // Never past the deadline: the wait ends within the timeout (docs/TRACKER.md "Waits").
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay + Math.random() * delay, deadline - Date.now())));
      delay = Math.min(delay * 2, 50);
    }
  }

  private async tryCreate(name: string, owner: LockOwner): Promise<boolean> {
    // Synchronous calls: a lock round trip is two tiny file operations on every mutation, and
    // the thread pool's promise round trips cost more than the operations themselves.
    const content = JSON.stringify({ ...owner, at: Date.now() });
    // Never created through a linked .runtime/ (O_EXCL already refuses a link at the lock's name).
    refuseLinkedDirectory(dirname(name));
    let fd: number;
    try {
      fd = openSync(name, 'wx');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'ENOENT') throw asStorageError(error, 'create the write lock', name);
      await translated('create the directory', dirname(name), () => mkdirSync(dirname(name), { recursive: true }));
      return this.tryCreate(name, owner);
    }
    try {
      writeSync(fd, content);
    } catch (error) {
      // The file is ours (created exclusively): a full disk must not leave an empty lock behind.
      closeSync(fd);
      unlinkSync(name);
      throw asStorageError(error, 'write the write lock', name);
    }
    closeSync(fd);
    return true;
  }

  private isStale(state: LockFileState): boolean {
    const { owner } = state;
    if (!owner) return Date.now() - state.mtimeMs > UNREADABLE_STALE_MS;
    if (owner.host === this.host) return !processAlive(owner.pid) || pidReused(owner);
    return Date.now() - owner.at > this.staleMs;
  }

  private async recoverIfStale(name: string): Promise<void> {
    const seen = await readLockFile(name);
    if (!seen || !this.isStale(seen)) return;
    const guard = `${name}.recover`;
    const guardOwner: LockOwner = { pid: process.pid, host: this.host, token: nodeCrypto().randomBytes(8).toString('hex'), at: Date.now() };
    if (!(await this.tryCreate(guard, guardOwner))) {
      const other = await readLockFile(guard);
      if (other && this.isStale(other)) await unlinkIfSame(guard, other);
      return;
    }
    try {
      await unlinkIfSame(name, seen);
    } finally {
      removeQuietly(guard);
    }
  }

  private releaser(name: string, token: string): ReleaseLock {
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const owner = await readOwner(name);
      if (owner?.token === token) removeQuietly(name);
    };
  }
}

const LOCK_FILE_READ = { maxBytes: 64 * 1024 };

async function readOwner(path: string): Promise<LockOwner | undefined> {
  try {
    // A lock file is a few hundred bytes; a link or FIFO put at its name reads as unreadable.
    return JSON.parse(readOwn(path, LOCK_FILE_READ)?.toString('utf8') ?? '') as LockOwner;
  } catch {
    return undefined;
  }
}

async function readLockFile(path: string): Promise<LockFileState | undefined> {
  const s = lstatSync(path, { throwIfNoEntry: false });
  if (!s) return undefined;
  const owner = await readOwner(path);
  return { owner: owner && typeof owner.token === 'string' && typeof owner.pid === 'number' ? owner : undefined, ino: s.ino, mtimeMs: s.mtimeMs };
}

/**
 * Removes a stale lock file only if it is still the one judged stale: the same owner token,
 * or (when unreadable) the same inode and mtime. Called only while holding the recovery
 * guard, so a lock taken by somebody else in the meantime is never removed.
 */
async function unlinkIfSame(path: string, seen: LockFileState): Promise<void> {
  const now = await readLockFile(path);
  if (!now) return;
  const same = seen.owner ? now.owner?.token === seen.owner.token : !now.owner && now.ino === seen.ino && now.mtimeMs === seen.mtimeMs;
  if (same) removeQuietly(path);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone (or never ours to remove): nothing to do.
  }
}

/** The owner's pid now belongs to a process started after the lock was taken (Linux). */
function pidReused(owner: LockOwner): boolean {
  const started = processStartMs(owner.pid);
  return started !== undefined && started > owner.at + PID_REUSE_SLACK_MS;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
