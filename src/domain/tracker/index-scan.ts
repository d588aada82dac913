import type { Clock } from '../../ports/clock.js';
import type { FileSystem } from '../../ports/file-system.js';
import type { FileComparison, ItemIndexStore } from '../../ports/item-index-store.js';
import { CompactListing } from './compact-listing.js';
import { addHash, fileHash } from './file-hash.js';
import type { StaleFile, StaleFiles } from './index-file-reader.js';
import type { TrackerPaths } from './tracker-paths.js';

/** What one scan of the items directory found (docs/TRACKER.md "The derived index"). */
export interface ScanResult {
  /** The item files listed. */
  readonly itemFiles: number;
  /** When the signatures were taken. */
  readonly statAt: number;
  /** The files to read again and the records whose file is gone; absent when the sums matched or `everyFile` is given. */
  readonly differences?: { readonly stale: StaleFile[]; readonly gone: FileComparison['gone'] };
  /** Every item file, for a first build into an empty index. */
  readonly everyFile?: StaleFiles;
}

/**
 * One full check of the items directory against the index, for {@link IndexSync}'s sweeps:
 * lists the directory in one pass ({@link CompactListing}: names and typed arrays, no object
 * per file) summing its files' hashes, and, unless the sum matches the index's, compares the
 * listing with the index. Into an empty index, `buildFrom` files or more are handed on as the
 * listing itself (`everyFile`, each file's entry made as it is read): nothing to compare, and no
 * list of 100,000 entries held while every file is read. Otherwise the listing dies here.
 */
export class IndexScan {
  constructor(
    private readonly fs: FileSystem,
    private readonly clock: Clock,
    private readonly paths: TrackerPaths,
    private readonly store: ItemIndexStore,
    private readonly buildFrom: number,
  ) {}

  async scan(): Promise<ScanResult> {
    const items = this.paths.items;
    const statAt = this.clock.now();
    const listing = new CompactListing();
    const others: string[] = [];
    let sum = 0;
    await this.fs.visitFiles(items, (name, signature) => {
      // A directory is no temp file of an atomic write (nor anything the index lists).
      if (!name.endsWith('.md')) {
        if (signature.kind !== 'directory') others.push(name);
      }
      else {
        listing.add(name, signature);
        sum = addHash(sum, fileHash(name.slice(0, -3), signature));
      }
    });
    if (others.length > 0) await this.fs.removeAbandonedTemps?.(items, others);
    if (sum === this.store.digest()) return { itemFiles: listing.length, statAt };
    if (listing.length >= this.buildFrom && this.store.size() === 0) return { itemFiles: listing.length, everyFile: listedFiles(listing), statAt };
    return { itemFiles: listing.length, differences: this.compare(listing), statAt };
  }

  /**
   * The listed item files whose record differs from the index (to read again) and the records
   * whose file is gone. Only the files that differ become objects, each one plain object
   * literal (an object spread would give each its own hidden class: tens of MB when 100,000
   * files differ, which the garbage collector's heap limit then multiplies).
   */
  private compare(listing: CompactListing): NonNullable<ScanResult['differences']> {
    const { changed, gone } = this.store.compareFiles({
      length: listing.length,
      id: (index) => listing.name(index).slice(0, -3),
      hash: (index) => {
        const { name, signature } = listing.at(index);
        return fileHash(name.slice(0, -3), signature);
      },
    });
    const stale = changed.map(({ index, expected }) => {
      const { name, signature } = listing.at(index);
      return { id: name.slice(0, -3), signature, expected };
    });
    return { stale, gone };
  }
}

/** Every item file of a listing as a file to read into an empty index (no record expected). */
function listedFiles(listing: CompactListing): StaleFiles {
  return {
    length: listing.length,
    at(index) {
      const { name, signature } = listing.at(index);
      return { id: name.slice(0, -3), expected: null, signature };
    },
  };
}
