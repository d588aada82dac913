import { RefusedFileError } from '../../domain/errors/index.js';
import type { FileSystem } from '../../ports/file-system.js';
import type { ReplayLedger } from '../../ports/replay-ledger.js';

const TOKEN = /^[A-Za-z0-9._-]{1,128}$/;
/** A marker holds one expiry time: a few bytes. */
const MARKER_READ = Object.freeze({ maxBytes: 64 });

/**
 * Used tokens as one empty-bodied marker file each under the tracker's git-ignored runtime area
 * (`.agents/pm/.runtime/replays/<token>`, holding the expiry), so every process serving one
 * tracker — several pm-mcp-http instances behind one balancer, or a restarted one — refuses a
 * second use. The exclusive create is the decision: of two processes consuming one token at
 * once, exactly one wins. An expired marker is removed and the token taken again (what it
 * guards is refused for its expiry anyway); every `sweepEvery` consumes, expired markers are
 * swept so the directory holds only what is alive.
 */
export class FileReplayLedger implements ReplayLedger {
  private consumes = 0;

  constructor(
    private readonly fs: FileSystem,
    private readonly dir: string,
    private readonly sweepEvery = 64,
  ) {}

  async consume(token: string, expiresAt: number, now: number): Promise<boolean> {
    if (!TOKEN.test(token) || token.startsWith('.')) throw new RangeError(`replay token ${JSON.stringify(token)} is not a safe file name`);
    await this.fs.ensureDir(this.dir);
    if (++this.consumes % this.sweepEvery === 0) await this.sweep(now);
    const path = `${this.dir}/${token}`;
    if (await this.fs.createExclusive(path, `${expiresAt}\n`)) return true;
    if (!this.expired(await this.marker(path), now)) return false;
    await this.fs.remove(path);
    return this.fs.createExclusive(path, `${expiresAt}\n`);
  }

  /** A marker's text; undefined (expired) for a link, special node or file too large to be one. */
  private async marker(path: string): Promise<string | undefined> {
    try {
      return await this.fs.readText(path, MARKER_READ);
    } catch (error) {
      if (error instanceof RefusedFileError) return undefined;
      throw error;
    }
  }

  private expired(text: string | undefined, now: number): boolean {
    if (text === undefined) return true;
    const until = Number(text.trim());
    // A marker being written right now reads empty: it is alive, not expired.
    return text.trim() !== '' && Number.isFinite(until) && until <= now;
  }

  private async sweep(now: number): Promise<void> {
    for (const { name, signature } of await this.fs.scan(this.dir)) {
      if (signature.kind === 'directory') continue; // not a marker, and nothing pm removes
      const path = `${this.dir}/${name}`;
      // Never opened: a link or special node is not a marker pm wrote, and is removed.
      if (signature.kind || this.expired(await this.marker(path), now)) await this.fs.remove(path);
    }
  }
}
