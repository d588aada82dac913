import { existsSync, statSync, unlinkSync } from 'node:fs';
import type { Server, Socket } from 'node:net';
import { askWatcher, nodeNet } from './socket-index-freshness.js';
import { ensurePrivateSocketDir, MAX_LINE, parseRequest, WATCHER_PROTOCOL, type WatcherIdentity, type WatcherReply, type WatcherRequest, type WatcherStatus } from './index-watcher-protocol.js';

/** What the watcher counts, for `pm index status`. */
export interface WatcherCounters {
  readonly events: number;
  readonly sweeps: number;
  readonly lastSweepAt: number | undefined;
}

export interface IndexWatcherServerOptions {
  readonly socketPath: string;
  /** The tracker's runtime directory (a socket elsewhere gets a private directory of its own). */
  readonly runtimeDir: string;
  readonly identity: WatcherIdentity;
  /** Brings the index up to date (IndexSync.refresh in watch mode). */
  readonly refresh: () => Promise<void>;
  readonly counters: () => WatcherCounters;
  /** Exits after this long without a request. */
  readonly idleMs: number;
  /** How often it checks that the tracker and its socket are still there. */
  readonly checkEveryMs: number;
  /** The directory whose disappearance ends the watcher (the tracker's `.agents/pm`). */
  readonly trackerDir: string;
  /** End on SIGTERM and SIGINT (the watcher process; not a server embedded in a test). */
  readonly handleSignals?: boolean;
}

/** Why a watcher ended. */
export type WatcherExit = 'stopped' | 'idle' | 'tracker-gone' | 'socket-lost' | 'superseded' | 'already-running' | 'signal';

/**
 * The index watcher's socket server: binds the socket (one watcher per tracker: a bind that
 * finds a live watcher loses and exits; a socket file nobody accepts on is stale and is
 * replaced), answers refresh, status and stop requests one line each, and resolves when it
 * ends: stopped, idle, the tracker directory gone, its socket file removed or replaced (two
 * starters racing over a stale socket: the one whose file was replaced exits), or asked by
 * another build of pm (which then starts its own). It never writes item files.
 */
export class IndexWatcherServer {
  private server: Server | undefined;
  private ino: number | undefined;
  private lastRequest = Date.now();
  private requests = 0;
  private readonly startedAt = Date.now();
  private end: ((exit: WatcherExit) => void) | undefined;
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly options: IndexWatcherServerOptions) {}

  /** Binds the socket; 'already-running' when another watcher answers there. */
  async bind(): Promise<'bound' | 'already-running'> {
    ensurePrivateSocketDir(this.options.socketPath, this.options.runtimeDir);
    for (let attempt = 0; attempt < 2; attempt++) {
      const server = nodeNet().createServer((socket) => this.serve(socket));
      const result = await new Promise<'bound' | 'in-use'>((resolve, reject) => {
        server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve('in-use') : reject(error)));
        server.listen(this.options.socketPath, () => resolve('bound'));
      });
      if (result === 'bound') {
        this.server = server;
        this.ino = statSync(this.options.socketPath).ino;
        return 'bound';
      }
      const answer = await askWatcher(this.options.socketPath, this.options.identity, 'status', 1000);
      if (answer.kind !== 'absent') return 'already-running';
      try {
        unlinkSync(this.options.socketPath);
      } catch {
        // Another starter removed it first; the next bind decides.
      }
    }
    return 'already-running';
  }

  /** Serves until the watcher ends; resolves with why. */
  run(): Promise<WatcherExit> {
    return new Promise((resolve) => {
      this.end = (exit) => {
        this.end = undefined;
        this.close();
        resolve(exit);
      };
      this.ticker = setInterval(() => this.check(), this.options.checkEveryMs);
      if (this.options.handleSignals) {
        const stop = () => this.end?.('signal');
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      }
    });
  }

  /** Ends {@link run} as `pm index stop` would. */
  stop(): void {
    this.end?.('stopped');
  }

  private check(): void {
    if (!existsSync(this.options.trackerDir)) return this.end?.('tracker-gone');
    const ino = statSync(this.options.socketPath, { throwIfNoEntry: false })?.ino;
    if (ino !== this.ino) return this.end?.('socket-lost');
    if (Date.now() - this.lastRequest >= this.options.idleMs) this.end?.('idle');
  }

  private close(): void {
    clearInterval(this.ticker);
    this.server?.close();
    // Remove the socket file only if it is still this watcher's.
    if (this.ino !== undefined && statSync(this.options.socketPath, { throwIfNoEntry: false })?.ino === this.ino) {
      try {
        unlinkSync(this.options.socketPath);
      } catch {
        // already gone
      }
    }
    this.ino = undefined;
  }

  private serve(socket: Socket): void {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end < 0) {
        if (buffer.length > MAX_LINE) this.reply(socket, { ok: false, reason: 'bad-request', message: 'request too long' });
        return;
      }
      socket.removeAllListeners('data');
      void this.answer(socket, buffer.slice(0, end));
    });
  }

  private async answer(socket: Socket, line: string): Promise<void> {
    this.lastRequest = Date.now();
    this.requests++;
    const request = parseRequest(line);
    if (!request) return this.reply(socket, { ok: false, reason: 'bad-request', message: 'not an index watcher request' });
    const mismatch = this.mismatch(request);
    if (mismatch) {
      this.reply(socket, { ok: false, reason: 'mismatch', message: mismatch });
      // Another build of pm over this tracker: it starts a watcher of its own once this one is gone.
      if (request.root === this.options.identity.root) this.end?.('superseded');
      return;
    }
    if (request.op === 'status') return this.reply(socket, { ok: true, status: this.status() });
    if (request.op === 'stop') {
      this.reply(socket, { ok: true, status: this.status() });
      this.end?.('stopped');
      return;
    }
    try {
      await this.options.refresh();
      this.reply(socket, { ok: true });
    } catch (error) {
      this.reply(socket, { ok: false, reason: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }

  private mismatch(request: WatcherRequest): string | undefined {
    if (request.v !== WATCHER_PROTOCOL) return `protocol ${request.v}, this watcher speaks ${WATCHER_PROTOCOL}`;
    if (request.root !== this.options.identity.root) return `this watcher follows ${this.options.identity.root}`;
    if (request.build !== this.options.identity.build) return `this watcher is build ${this.options.identity.build}`;
    return undefined;
  }

  private status(): WatcherStatus {
    const counters = this.options.counters();
    return {
      pid: process.pid,
      socket: this.options.socketPath,
      root: this.options.identity.root,
      build: this.options.identity.build,
      startedAt: new Date(this.startedAt).toISOString(),
      uptimeMs: Date.now() - this.startedAt,
      requests: this.requests,
      events: counters.events,
      sweeps: counters.sweeps,
      lastSweepAt: counters.lastSweepAt === undefined ? null : new Date(counters.lastSweepAt).toISOString(),
      idleTimeoutMs: this.options.idleMs,
    };
  }

  private reply(socket: Socket, reply: WatcherReply): void {
    socket.end(`${JSON.stringify(reply)}\n`);
  }
}
