import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { nodeCrypto } from './lazy-crypto.js';
import type { IndexWatcherState } from '../cli/command.js';

/**
 * The index watcher's wire protocol (docs/TRACKER.md "The derived index"): one JSON line from
 * the client, one JSON line back, over a Unix domain socket (never a TCP port: only processes
 * of this user on this machine can reach it). `identity` names the tracker's `.agents/pm`
 * directory and the build (package version and index schema): a watcher asked about another
 * tracker, or by another build of pm, does not vouch.
 */
export const WATCHER_PROTOCOL = 1;

export interface WatcherIdentity {
  readonly root: string;
  readonly build: string;
}

export type WatcherOp = 'refresh' | 'status' | 'stop';

export interface WatcherRequest extends WatcherIdentity {
  readonly pm: 'index-watcher';
  readonly v: number;
  readonly op: WatcherOp;
}

/** What `status` reports about a running watcher: what `pm index status` shows. */
export type WatcherStatus = IndexWatcherState;

export type WatcherReply =
  | { readonly ok: true; readonly status?: WatcherStatus }
  | { readonly ok: false; readonly reason: 'mismatch' | 'bad-request' | 'failed'; readonly message: string };

/** Requests and replies are small; a longer line is refused rather than buffered. */
export const MAX_LINE = 16 * 1024;

/** The longest socket path Linux accepts (sun_path is 108 bytes, one for the terminating NUL). */
const MAX_SOCKET_PATH = 107;

/**
 * Where the watcher of the tracker whose runtime directory is `runtime` listens: a socket in
 * that (git-ignored) directory when its path fits sun_path, else in a private directory under
 * the system temp dir named by a hash of the runtime path. {@link ensurePrivateSocketDir}
 * creates that directory before a watcher binds there.
 */
export function watcherSocketPath(runtime: string, tempDir: string = tmpdir()): string {
  const local = `${runtime}/index-watcher.sock`;
  if (Buffer.byteLength(local) <= MAX_SOCKET_PATH) return local;
  const digest = nodeCrypto().createHash('sha256').update(runtime).digest('hex').slice(0, 24);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return join(tempDir, `pm-index-watchers-${uid}`, `${digest}.sock`);
}

/**
 * Creates the directory of a socket path outside the tracker with mode 0700 and refuses one
 * that another user owns or others may write to (a socket there could be impersonated).
 * Throws when the directory cannot be used.
 */
export function ensurePrivateSocketDir(socketPath: string, runtime: string): void {
  const dir = dirname(socketPath);
  if (dir === runtime) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = lstatSync(dir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : info.uid;
  if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o077) !== 0) throw new Error(`${dir} is not a private directory of this user`);
}

/** Parses one request line; undefined when it is not a request of this protocol. */
export function parseRequest(line: string): WatcherRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  if (r.pm !== 'index-watcher' || typeof r.v !== 'number' || typeof r.root !== 'string' || typeof r.build !== 'string') return undefined;
  if (r.op !== 'refresh' && r.op !== 'status' && r.op !== 'stop') return undefined;
  return { pm: 'index-watcher', v: r.v, op: r.op, root: r.root, build: r.build };
}
