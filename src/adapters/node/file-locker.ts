import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LockOptions, Locker, ReleaseLock } from '../../ports/locker.js';
import { LockTimeoutError } from '../../domain/errors/index.js';

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
  readonly at: number;
}

export interface FileLockerOptions {
  /** A lock held longer than this by a holder we cannot check (another host) is stale. */
  readonly staleMs?: number;
  /** Poll interval while waiting. */
  readonly retryMs?: number;
}

/**
 * A cross-process lock: the lock file is created with O_EXCL and names its owner (pid, host,
 * random token). A lock whose owner process is gone (same host) or that is older than staleMs
 * (other hosts) is stale. Recovery is serialized through a second O_EXCL "recovery" file and
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
    const owner: LockOwner = { pid: process.pid, host: this.host, token: randomBytes(8).toString('hex'), at: Date.now() };
    await mkdir(dirname(name), { recursive: true });
    let delay = this.retryMs;
    for (;;) {
      if (await this.tryCreate(name, owner)) return this.releaser(name, owner.token);
      await this.recoverIfStale(name);
      if (Date.now() >= deadline) {
        const holder = await readOwner(name);
        throw new LockTimeoutError(`the tracker is locked${holder ? ` by process ${holder.pid} on ${holder.host}` : ''}; gave up after ${options.timeoutMs} ms`, { lock: name, holder: holder ?? null });
      }
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 50);
    }
  }

  private async tryCreate(name: string, owner: LockOwner): Promise<boolean> {
    try {
      await writeFile(name, JSON.stringify({ ...owner, at: Date.now() }), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  private isStale(owner: LockOwner | undefined, ageMs: number): boolean {
    if (!owner) return ageMs > 1000;
    if (owner.host === this.host) return !processAlive(owner.pid);
    return ageMs > this.staleMs;
  }

  private async recoverIfStale(name: string): Promise<void> {
    const seen = await readOwner(name);
    if (!this.isStale(seen, seen ? Date.now() - seen.at : Infinity)) return;
    const guard = `${name}.recover`;
    const guardOwner: LockOwner = { pid: process.pid, host: this.host, token: randomBytes(8).toString('hex'), at: Date.now() };
    if (!(await this.tryCreate(guard, guardOwner))) {
      const other = await readOwner(guard);
      if (this.isStale(other, other ? Date.now() - other.at : Infinity)) await unlink(guard).catch(() => undefined);
      return;
    }
    try {
      const now = await readOwner(name);
      if (now && seen && now.token === seen.token) await unlink(name).catch(() => undefined);
    } finally {
      await unlink(guard).catch(() => undefined);
    }
  }

  private releaser(name: string, token: string): ReleaseLock {
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const owner = await readOwner(name);
      if (owner?.token === token) await unlink(name).catch(() => undefined);
    };
  }
}

async function readOwner(path: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
