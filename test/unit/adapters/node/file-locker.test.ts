import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { FileLocker } from '../../../../src/adapters/node/file-locker.js';
import { processStartMs } from '../../../../src/adapters/node/process-start.js';
import { LockTimeoutError } from '../../../../src/domain/errors/index.js';
import { ChildProcesses, deadPid, workerPath } from '../../../support/child-processes.js';
import { useTempDir } from '../../../support/temp-dir.js';

/** One turn of the event loop: timers, I/O callbacks and the other holders' retries run meanwhile. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const exists = (path: string) => stat(path).then(() => true, () => false);

describe('FileLocker', () => {
  const temp = useTempDir('pm-lock-');
  const children = new ChildProcesses();
  afterEach(() => children.killAll());
  const lockPath = () => `${temp()}/.runtime/write.lock`;

  it('lets one holder in at a time within a process and removes the file on release', async () => {
    const locker = new FileLocker();
    const path = lockPath();
    let inside = 0;
    let most = 0;
    let done = 0;
    await Promise.all(Array.from({ length: 6 }, async () => {
      for (let i = 0; i < 8; i++) {
        const release = await locker.acquire(path, { timeoutMs: 20_000 });
        inside++;
        most = Math.max(most, inside);
        await nextTurn(); // hold the lock across a turn of the event loop
        inside--;
        done++;
        await release();
      }
    }));
    expect(most).toBe(1);
    expect(done).toBe(48);
    expect(await exists(path)).toBe(false);
  });

  it('names the holder in the lock file and gives up with LockTimeoutError after the timeout', async () => {
    const locker = new FileLocker();
    const path = lockPath();
    const release = await locker.acquire(path, { timeoutMs: 1000 });
    const owner = JSON.parse(await readFile(path, 'utf8')) as { pid: number; host: string; token: string };
    expect(owner).toMatchObject({ pid: process.pid, host: hostname() });
    const started = Date.now();
    const error = await locker.acquire(path, { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as Error).message).toMatch(new RegExp(`locked by process ${process.pid} on .*gave up after 150 ms`));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await release();
    await release();
    const again = await locker.acquire(path, { timeoutMs: 1000 });
    await again();
  });

  it('never sleeps past the timeout between two tries, however long its poll interval', async () => {
    const path = lockPath();
    const release = await new FileLocker().acquire(path, { timeoutMs: 1000 });
    // A poll of 400-800 ms: a sleep not cut at the deadline would end at least 400 ms in.
    const started = Date.now();
    const error = await new FileLocker({ retryMs: 400 }).acquire(path, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect(Date.now() - started).toBeLessThan(350);
    await release();
  });

  it('never removes a lock that somebody else holds by now when releasing', async () => {
    const locker = new FileLocker();
    const path = lockPath();
    const release = await locker.acquire(path, { timeoutMs: 1000 });
    const other = JSON.stringify({ pid: process.pid, host: hostname(), token: 'someone-else', at: Date.now() });
    await writeFile(path, other);
    await release();
    expect(await readFile(path, 'utf8')).toBe(other);
  });

  it('recovers a lock whose holder process is dead', async () => {
    const path = lockPath();
    await new FileLocker().acquire(path, { timeoutMs: 1000 }).then((release) => release());
    await writeFile(path, JSON.stringify({ pid: await deadPid(), host: hostname(), token: 'dead-holder', at: Date.now() }));
    const release = await new FileLocker().acquire(path, { timeoutMs: 2000 });
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid });
    await release();
  });

  it('recovers a lock whose pid now belongs to a process started after the lock was taken', async () => {
    const path = lockPath();
    // A live process (this one) whose pid the lock names, taken an hour before it started: the
    // holder died and the pid was reused.
    const started = processStartMs(process.pid);
    expect(started).toBeDefined();
    expect(Math.abs(started! - (Date.now() - process.uptime() * 1000))).toBeLessThan(3000);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify({ pid: process.pid, host: hostname(), token: 'before-reuse', at: started! - 3_600_000 }));
    const release = await new FileLocker().acquire(path, { timeoutMs: 2000 });
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid, token: expect.not.stringMatching('before-reuse') });
    await release();
  });

  it('keeps a lock of a live process that started before the lock was taken', async () => {
    const path = lockPath();
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify({ pid: process.pid, host: hostname(), token: 'live-holder', at: Date.now() }));
    await expect(new FileLocker().acquire(path, { timeoutMs: 100 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ token: 'live-holder' });
  });

  it('clears a stale recovery guard left by a dead recoverer', async () => {
    const path = lockPath();
    await new FileLocker().acquire(path, { timeoutMs: 1000 }).then((release) => release());
    const dead = await deadPid();
    await writeFile(path, JSON.stringify({ pid: dead, host: hostname(), token: 'dead-holder', at: Date.now() }));
    await writeFile(`${path}.recover`, JSON.stringify({ pid: dead, host: hostname(), token: 'dead-recoverer', at: Date.now() }));
    const release = await new FileLocker().acquire(path, { timeoutMs: 2000 });
    await release();
    expect(await exists(`${path}.recover`)).toBe(false);
  });

  it('recovers an unreadable lock file only once it is clearly abandoned', async () => {
    const path = lockPath();
    await new FileLocker().acquire(path, { timeoutMs: 1000 }).then((release) => release());
    await writeFile(path, '');
    await expect(new FileLocker().acquire(path, { timeoutMs: 200 })).rejects.toThrow(LockTimeoutError);
    const old = new Date(Date.now() - 5000);
    await utimes(path, old, old);
    const release = await new FileLocker().acquire(path, { timeoutMs: 2000 });
    await release();
  });

  it('treats a lock from another host as live until it is older than staleMs', async () => {
    const path = lockPath();
    const locker = new FileLocker({ staleMs: 300 });
    await locker.acquire(path, { timeoutMs: 1000 }).then((release) => release());
    await writeFile(path, JSON.stringify({ pid: 1, host: `not-${hostname()}`, token: 'remote', at: Date.now() }));
    await expect(locker.acquire(path, { timeoutMs: 100 })).rejects.toThrow(LockTimeoutError);
    await writeFile(path, JSON.stringify({ pid: 1, host: `not-${hostname()}`, token: 'remote', at: Date.now() - 1000 }));
    const release = await locker.acquire(path, { timeoutMs: 1000 });
    await release();
  });

  it('does not steal the lock of a live process and takes it once that process dies', async () => {
    const path = lockPath();
    const holder = children.startNode(workerPath('hold-lock.mjs'), [path]);
    await holder.waitForLine((line) => line === 'locked');
    const owner = JSON.parse(await readFile(path, 'utf8')) as { pid: number; token: string };
    expect(owner.pid).toBe(holder.pid);
    const error = await new FileLocker().acquire(path, { timeoutMs: 400 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as Error).message).toContain(`process ${holder.pid}`);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ token: owner.token });
    await children.kill(holder);
    const release = await new FileLocker().acquire(path, { timeoutMs: 3000 });
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid });
    await release();
  });

  it('hands the lock over between processes when the holder releases it', async () => {
    const path = lockPath();
    const holder = children.startNode(workerPath('hold-lock.mjs'), [path]);
    await holder.waitForLine((line) => line === 'locked');
    const waiting = new FileLocker().acquire(path, { timeoutMs: 10_000 });
    let settled = false;
    void waiting.then(() => (settled = true), () => (settled = true));
    // acquire() makes its first exclusive create before it returns; a turn of the event loop
    // later that attempt has failed and the waiter is between retries, the lock still the holder's.
    await nextTurn();
    expect(settled).toBe(false);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: holder.pid });
    holder.process.stdin!.write('release\n');
    await holder.waitForLine((line) => line === 'released');
    const release = await waiting;
    await release();
    expect((await holder.exited).code).toBe(0);
  });
});
