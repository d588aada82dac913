import { chmodSync, lstatSync, mkdirSync, openSync, renameSync, writeFileSync, closeSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MacKey, MacKeyStore } from '../../ports/mac-key-store.js';
import { nodeCrypto } from './lazy-crypto.js';
import { readOwn, refuseLinkedDirectory, refuseNonRegular } from './own-file-io.js';

/** The key file holds a handful of keys: a few KB at most; anything larger is not pm's. */
const KEY_FILE_READ = { maxBytes: 1024 * 1024 };

interface StoredKey {
  readonly id: string;
  readonly secret: string;
  readonly createdAt: number;
  readonly retiredAt?: number;
}

/**
 * The MAC keys in one JSON file of the tracker's git-ignored runtime area
 * (`.agents/pm/.runtime/request-state-keys.json`), readable by its owner only (mode 0600, in a
 * directory created 0700). The first key is created on first use with an exclusive create, so
 * two processes starting together agree on it; a rotation replaces the file atomically (temp
 * file + rename). The file is read again whenever it changed (size, mtime, inode), so a rotation
 * by `pm mcp rotate-key` reaches a running server. Secrets are 32 random bytes (node:crypto).
 */
export class FileMacKeyStore implements MacKeyStore {
  private cached: { readonly signature: string; readonly keys: readonly MacKey[] } | undefined;

  constructor(
    private readonly path: string,
    private readonly clock: { now(): number },
  ) {}

  async current(): Promise<MacKey> {
    return (await this.keys())[0]!;
  }

  async keys(): Promise<readonly MacKey[]> {
    const known = this.read();
    if (known) return known;
    this.createFirst();
    return this.read() ?? [];
  }

  async rotate(now: number, dropRetiredBefore: number): Promise<MacKey> {
    const previous = (await this.keys()).map((key, index) => (index === 0 ? { ...key, retiredAt: now } : key)).filter((key) => key.retiredAt === undefined || key.retiredAt >= dropRetiredBefore);
    const fresh = this.fresh(now);
    this.write([fresh, ...previous]);
    return (await this.keys())[0]!;
  }

  private fresh(now: number): MacKey {
    return { id: nodeCrypto().randomBytes(6).toString('hex'), secret: new Uint8Array(nodeCrypto().randomBytes(32)), createdAt: now };
  }

  private createFirst(): void {
    refuseLinkedDirectory(dirname(this.path));
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    let fd: number;
    try {
      fd = openSync(this.path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return; // another process created it first
      throw error;
    }
    try {
      writeSync(fd, serialize([this.fresh(this.clock.now())]));
    } finally {
      closeSync(fd);
    }
  }

  private write(keys: readonly MacKey[]): void {
    refuseLinkedDirectory(dirname(this.path));
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.tmp-${process.pid}-${nodeCrypto().randomBytes(4).toString('hex')}`;
    writeFileSync(temp, serialize(keys), { mode: 0o600, flag: 'wx' });
    chmodSync(temp, 0o600);
    renameSync(temp, this.path);
    this.cached = undefined;
  }

  private read(): readonly MacKey[] | undefined {
    let signature: string;
    try {
      const stat = lstatSync(this.path);
      refuseNonRegular(this.path, stat, 'read');
      if (stat.size === 0) return undefined; // being created by another process: its key follows
      signature = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    if (this.cached?.signature === signature) return this.cached.keys;
    const parsed = JSON.parse(readOwn(this.path, KEY_FILE_READ)?.toString('utf8') ?? '') as { keys: StoredKey[] };
    if (!Array.isArray(parsed.keys) || !parsed.keys.length) throw new Error(`${this.path} holds no keys`);
    const keys = parsed.keys.map((key) => Object.freeze({ id: key.id, secret: new Uint8Array(Buffer.from(key.secret, 'base64')), createdAt: key.createdAt, ...(key.retiredAt !== undefined ? { retiredAt: key.retiredAt } : {}) }));
    this.cached = { signature, keys };
    return keys;
  }
}

function serialize(keys: readonly MacKey[]): string {
  return `${JSON.stringify({ keys: keys.map((key) => ({ id: key.id, secret: Buffer.from(key.secret).toString('base64'), createdAt: key.createdAt, ...(key.retiredAt !== undefined ? { retiredAt: key.retiredAt } : {}) })) }, null, 2)}\n`;
}
