import { existsSync } from 'node:fs';
import type * as NodeNet from 'node:net';
import type { IndexFreshness } from '../../ports/index-freshness.js';
import { MAX_LINE, WATCHER_PROTOCOL, type WatcherIdentity, type WatcherOp, type WatcherReply } from './index-watcher-protocol.js';

/** How an exchange with the watcher ended: its reply, or why there was none. */
export type WatcherAnswer = { readonly kind: 'reply'; readonly reply: WatcherReply } | { readonly kind: 'absent' } | { readonly kind: 'unusable'; readonly why: string };

/**
 * One request to the index watcher at `socketPath`. `absent` means nothing listens there (no
 * socket file, or a stale one nobody accepts on); `unusable` covers a timeout, a broken
 * connection and a reply that is not of this protocol. Never rejects.
 */
export function askWatcher(socketPath: string, identity: WatcherIdentity, op: WatcherOp, timeoutMs: number): Promise<WatcherAnswer> {
  // No socket file, no watcher: told without loading node:net (most trackers never have one).
  if (!existsSync(socketPath)) return Promise.resolve({ kind: 'absent' });
  return new Promise((resolve) => {
    let settled = false;
    let buffer = '';
    const socket = nodeNet().connect(socketPath);
    const finish = (answer: WatcherAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish({ kind: 'unusable', why: `no reply within ${timeoutMs} ms` }), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ pm: 'index-watcher', v: WATCHER_PROTOCOL, op, ...identity })}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end >= 0) finish(parseReply(buffer.slice(0, end)));
      else if (buffer.length > MAX_LINE) finish({ kind: 'unusable', why: 'reply too long' });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      finish(code === 'ENOENT' || code === 'ECONNREFUSED' ? { kind: 'absent' } : { kind: 'unusable', why: error.message });
    });
    socket.on('close', () => finish({ kind: 'unusable', why: 'connection closed without a reply' }));
  });
}

/** node:net, loaded on first use (a query of a small tracker with the watcher off never needs it). */
export function nodeNet(): typeof NodeNet {
  return process.getBuiltinModule('node:net');
}

function parseReply(line: string): WatcherAnswer {
  try {
    const reply = JSON.parse(line) as WatcherReply;
    if (typeof reply === 'object' && reply !== null && typeof reply.ok === 'boolean') return { kind: 'reply', reply };
  } catch {
    // fall through
  }
  return { kind: 'unusable', why: 'reply is not of the index watcher protocol' };
}

/** `auto`: use a watcher, start one for large trackers; `on`: start one at any size; `off`: neither ask nor start. */
export type WatcherMode = 'auto' | 'on' | 'off';

export interface SocketIndexFreshnessOptions {
  readonly socketPath: string;
  readonly identity: WatcherIdentity;
  /** How long a refresh may take before this process checks the files itself (~1 s). */
  readonly timeoutMs: number;
  /** Starts a watcher (detached) when a sweep listed enough item files and none answered. */
  readonly start?: () => void;
  /** `auto` starts one from this many item files (`on` from any number). */
  readonly startFrom: number;
  /** The mode in force (the setting, or the tracker's config.yaml); `auto` when absent. */
  readonly mode?: () => Promise<WatcherMode>;
}

/**
 * The IndexFreshness port over the index watcher's socket (see index-watcher-server.ts). The
 * watcher's answer proves freshness because of the order of events: this process made (or
 * saw) its changes before it sent the request, so their inotify events were queued before the
 * watcher read the request, and the watcher's refresh settles its watch (two thread-pool round
 * trips, NodeFileSystem.settleWatch) before it answers, by which time every earlier event has
 * reached its listener. Any failure is "cannot vouch": the caller sweeps.
 */
export class SocketIndexFreshness implements IndexFreshness {
  private absent = false;
  private started = false;
  private current: WatcherMode | undefined;

  constructor(private readonly options: SocketIndexFreshnessOptions) {}

  async vouch(): Promise<boolean> {
    this.current = (await this.options.mode?.().catch(() => undefined)) ?? 'auto';
    if (this.current === 'off') return false;
    const answer = await askWatcher(this.options.socketPath, this.options.identity, 'refresh', this.options.timeoutMs);
    this.absent = answer.kind === 'absent';
    return answer.kind === 'reply' && answer.reply.ok;
  }

  swept(files: number): void {
    // A watcher that answered late or refused this build is running (or being replaced): start
    // one only when nothing listens, once per process.
    // Not asked (a fresh index is built by this very sweep): the watcher starts next time.
    if (this.current === undefined || this.current === 'off') return;
    if (!this.absent || this.started || !this.options.start || files < (this.current === 'on' ? 0 : this.options.startFrom)) return;
    this.started = true;
    try {
      this.options.start();
    } catch {
      // Starting the watcher is an optimisation; the query already has its answer.
    }
  }
}
