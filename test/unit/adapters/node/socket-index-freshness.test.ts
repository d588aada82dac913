import { mkdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { IndexWatcherServer, type IndexWatcherServerOptions } from '../../../../src/adapters/node/index-watcher-server.js';
import { watcherSocketPath, type WatcherIdentity } from '../../../../src/adapters/node/index-watcher-protocol.js';
import { askWatcher, SocketIndexFreshness } from '../../../../src/adapters/node/socket-index-freshness.js';
import { describeIndexFreshnessContract } from '../index-freshness-contract.js';
import { useTempDir } from '../../../support/temp-dir.js';

const temp = useTempDir('pm-watcher-');
const servers: IndexWatcherServer[] = [];
const runs: Promise<unknown>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) server.stop();
  await Promise.all(runs.splice(0));
});

const identity = (root: string): WatcherIdentity => ({ root, build: 'test-build' });

async function startServer(overrides: Partial<IndexWatcherServerOptions> = {}) {
  const root = `${temp()}/.agents/pm`;
  mkdirSync(`${root}/.runtime`, { recursive: true });
  const socketPath = watcherSocketPath(`${root}/.runtime`);
  const server = new IndexWatcherServer({ socketPath, runtimeDir: `${root}/.runtime`, identity: identity(root), refresh: () => Promise.resolve(), counters: () => ({ events: 0, sweeps: 0, lastSweepAt: undefined }), idleMs: 60_000, checkEveryMs: 20, trackerDir: root, ...overrides });
  const bound = await server.bind();
  let run: Promise<string> | undefined;
  if (bound === 'bound') {
    servers.push(server);
    run = server.run();
    runs.push(run);
  }
  return { root, socketPath, server, bound, run };
}

const client = (socketPath: string, root: string, timeoutMs = 1000) => new SocketIndexFreshness({ socketPath, identity: identity(root), timeoutMs, startFrom: 0 });

describeIndexFreshnessContract('socket', async () => ({
  witness: async (refresh) => {
    const { socketPath, root } = await startServer({ refresh });
    return client(socketPath, root);
  },
  absent: async () => client(`${temp()}/none.sock`, temp()),
}));

describe('the index watcher socket', () => {
  it('does not vouch for another tracker or another build, and another build supersedes the watcher', async () => {
    const { socketPath, root, run } = await startServer();
    expect(await client(socketPath, `${root}-other`).vouch()).toBe(false);
    const other = await askWatcher(socketPath, { root, build: 'newer' }, 'refresh', 1000);
    expect(other).toMatchObject({ kind: 'reply', reply: { ok: false, reason: 'mismatch' } });
    expect(await run).toBe('superseded');
  });

  it('gives up after its timeout when the watcher does not answer, and starts a watcher only when none listens', async () => {
    const dir = temp();
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(`${dir}/silent.sock`, resolve));
    try {
      let starts = 0;
      const slow = new SocketIndexFreshness({ socketPath: `${dir}/silent.sock`, identity: identity(dir), timeoutMs: 100, startFrom: 5, start: () => starts++ });
      const began = Date.now();
      expect(await slow.vouch()).toBe(false);
      expect(Date.now() - began).toBeLessThan(5000);
      slow.swept(10);
      expect(starts).toBe(0);
      const none = new SocketIndexFreshness({ socketPath: `${dir}/none.sock`, identity: identity(dir), timeoutMs: 100, startFrom: 5, start: () => starts++ });
      expect(await none.vouch()).toBe(false);
      none.swept(4);
      expect(starts).toBe(0);
      none.swept(5);
      none.swept(5);
      expect(starts).toBe(1);
    } finally {
      silent.close();
    }
  });

  it('in mode off it neither asks nor starts; in mode on it starts after any sweep', async () => {
    const { socketPath, root } = await startServer();
    let starts = 0;
    const requests = async () => {
      const answer = await askWatcher(socketPath, identity(root), 'status', 1000);
      return answer.kind === 'reply' && answer.reply.ok ? answer.reply.status!.requests : -1;
    };
    const before = await requests();
    const off = new SocketIndexFreshness({ socketPath, identity: identity(root), timeoutMs: 1000, startFrom: 5000, mode: async () => 'off', start: () => starts++ });
    expect(await off.vouch()).toBe(false);
    off.swept(10_000);
    expect(await requests()).toBe(before + 1);
    const on = new SocketIndexFreshness({ socketPath: `${temp()}/none.sock`, identity: identity(root), timeoutMs: 1000, startFrom: 5000, mode: async () => 'on', start: () => starts++ });
    expect(await on.vouch()).toBe(false);
    on.swept(1);
    expect(starts).toBe(1);
  });

  it('one watcher per socket: a second bind loses; a stale file is replaced', async () => {
    const first = await startServer();
    const second = new IndexWatcherServer({ socketPath: first.socketPath, runtimeDir: `${first.root}/.runtime`, identity: identity(first.root), refresh: () => Promise.resolve(), counters: () => ({ events: 0, sweeps: 0, lastSweepAt: undefined }), idleMs: 60_000, checkEveryMs: 20, trackerDir: first.root });
    expect(await second.bind()).toBe('already-running');
    first.server.stop();
    expect(await first.run).toBe('stopped');
    // A file nobody accepts on (as a killed watcher leaves behind).
    writeFileSync(first.socketPath, '');
    expect(await client(first.socketPath, first.root).vouch()).toBe(false);
    expect(await second.bind()).toBe('bound');
    servers.push(second);
    runs.push(second.run());
    expect(await client(first.socketPath, first.root).vouch()).toBe(true);
  });

  it('ends when its socket file is removed, when the tracker directory goes, and when idle', async () => {
    const lost = await startServer();
    unlinkSync(lost.socketPath);
    expect(await lost.run).toBe('socket-lost');
    const gone = await startServer();
    rmSync(gone.root, { recursive: true, force: true });
    expect(await gone.run).toBe('tracker-gone');
    const idle = await startServer({ idleMs: 50 });
    expect(await idle.run).toBe('idle');
  });

  it('reports its status', async () => {
    const { socketPath, root } = await startServer({ counters: () => ({ events: 7, sweeps: 2, lastSweepAt: Date.UTC(2026, 0, 1) }) });
    const answer = await askWatcher(socketPath, identity(root), 'status', 1000);
    expect(answer).toMatchObject({ kind: 'reply', reply: { ok: true, status: { pid: process.pid, socket: socketPath, events: 7, sweeps: 2, lastSweepAt: '2026-01-01T00:00:00.000Z', requests: 1 } } });
  });

  it('puts the socket of a deep tracker in a private directory under the temp dir', () => {
    const deep = `${temp()}/${'d'.repeat(120)}/.agents/pm/.runtime`;
    const path = watcherSocketPath(deep, temp());
    expect(path.startsWith(`${temp()}/pm-index-watchers-`)).toBe(true);
    expect(Buffer.byteLength(path)).toBeLessThanOrEqual(107);
    expect(watcherSocketPath(deep, temp())).toBe(path);
    expect(watcherSocketPath(deep).startsWith(tmpdir())).toBe(true);
    expect(watcherSocketPath(`${temp()}/.agents/pm/.runtime`)).toBe(`${temp()}/.agents/pm/.runtime/index-watcher.sock`);
  });

  it('binds in that private directory with mode 0700', async () => {
    const root = `${temp()}/${'e'.repeat(120)}/.agents/pm`;
    mkdirSync(`${root}/.runtime`, { recursive: true });
    const socketPath = watcherSocketPath(`${root}/.runtime`, temp());
    const server = new IndexWatcherServer({ socketPath, runtimeDir: `${root}/.runtime`, identity: identity(root), refresh: () => Promise.resolve(), counters: () => ({ events: 0, sweeps: 0, lastSweepAt: undefined }), idleMs: 60_000, checkEveryMs: 20, trackerDir: root });
    expect(await server.bind()).toBe('bound');
    servers.push(server);
    runs.push(server.run());
    expect(statSync(socketPath.slice(0, socketPath.lastIndexOf('/'))).mode & 0o777).toBe(0o700);
    expect(await client(socketPath, root).vouch()).toBe(true);
  });
});
