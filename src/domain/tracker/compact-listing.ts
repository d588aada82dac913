import type { DirectoryEntry, FileSignature } from '../../ports/file-system.js';
import { grownTo } from '../util/typed-growth.js';

/**
 * A directory's files and their signatures, held as the names and four typed arrays instead of
 * an object per file: a sweep keeps the listing of 100,000 item files while it sums their
 * hashes, and hands out entries only when the sum differs from the index's (docs/TRACKER.md
 * "The derived index"). About 50 bytes a file besides its name, against ~300 as objects.
 */
export class CompactListing {
  private readonly names: string[] = [];
  private sizes = new Float64Array(1024);
  private times = new Float64Array(1024);
  private inodes = new Float64Array(1024);
  private changes = new Float64Array(1024);

  get length(): number {
    return this.names.length;
  }

  add(name: string, signature: FileSignature): void {
    const at = this.names.length;
    this.sizes = grownTo(this.sizes, at + 1);
    this.times = grownTo(this.times, at + 1);
    this.inodes = grownTo(this.inodes, at + 1);
    this.changes = grownTo(this.changes, at + 1);
    this.names.push(name);
    this.sizes[at] = signature.size;
    this.times[at] = signature.mtimeMs;
    this.inodes[at] = signature.ino;
    this.changes[at] = signature.ctimeMs;
  }

  /** The files as entries, in the order added (each made on the way, none kept here). */
  *entries(): Generator<DirectoryEntry> {
    for (let at = 0; at < this.names.length; at++) yield this.at(at);
  }

  /** The file added `at`-th (0 first), made now; none kept here. */
  at(at: number): DirectoryEntry {
    return { name: this.name(at), signature: { size: this.sizes[at]!, mtimeMs: this.times[at]!, ino: this.inodes[at]!, ctimeMs: this.changes[at]! } };
  }

  /** The name of the file added `at`-th (0 first). */
  name(at: number): string {
    if (!Number.isInteger(at) || at < 0 || at >= this.names.length) throw new RangeError(`no file ${at} in a listing of ${this.names.length}`);
    return this.names[at]!;
  }
}
