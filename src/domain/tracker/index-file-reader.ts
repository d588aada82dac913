import type { FileSignature, FileSystem } from '../../ports/file-system.js';
import type { IndexChange, IndexedFile } from '../../ports/item-index-store.js';
import { PmError } from '../errors/index.js';
import { ITEM_FILE_READ } from './file-caps.js';
import { fileHash } from './file-hash.js';
import { toIndexEntry } from './index-entry.js';
import { parseItem } from './item-codec.js';
import type { TrackerPaths } from './tracker-paths.js';

/**
 * A file whose modification time is this close to the moment its signature was taken may still
 * be edited in place within the same timestamp tick, leaving size, time and inode unchanged
 * (git's "racily clean" entries); such a file is read again by later checks until it is older.
 * Linux stamps files from a clock that advances once per scheduler tick (1 to 10 ms); a time
 * that is a whole second suggests a filesystem with coarse timestamps (ext3 and HFS+ 1 s, FAT
 * 2 s), which gets {@link RACY_COARSE_MS}.
 */
export const RACY_MS = 25;
export const RACY_COARSE_MS = 2000;

/** Whether a file with this signature, taken at `statAt`, might change unseen by its signature. */
export function isRacy(signature: FileSignature, statAt: number): boolean {
  // The later of the two times: a write stamps both, and a restored mtime leaves ctime at the write.
  const time = Math.max(signature.mtimeMs, signature.ctimeMs);
  return time > statAt - (time % 1000 === 0 ? RACY_COARSE_MS : RACY_MS);
}

/** Files read at once (reads overlap their I/O waits; parsing stays on this thread). */
const READS_IN_FLIGHT = 16;

/** A file to read again, with the signature the index recorded for it (null: none) and the one just taken. */
export interface StaleFile {
  readonly id: string;
  readonly expected: FileSignature | null;
  readonly signature: FileSignature;
}

/** Files to read by position: an array of them, or a view made on demand (a first build's listing). */
export interface StaleFiles {
  readonly length: number;
  at(index: number): StaleFile | undefined;
}

/**
 * Reads item files into index changes for {@link IndexSync} (docs/TRACKER.md "The derived
 * index"): an item, or the file's problem when it does not parse, with the signature and hash
 * the index records and whether the file is racy.
 */
export class IndexFileReader {
  constructor(
    private readonly fs: FileSystem,
    private readonly paths: TrackerPaths,
  ) {}

  /**
   * Reads the files in batches of `size`, {@link READS_IN_FLIGHT} at a time, handing each batch
   * on; `progress` (when given) is told how far it has come after each batch.
   */
  async readBatches(stale: StaleFiles, statAt: number, take: (batch: IndexChange[]) => void, size: number, progress?: (done: number, total: number) => void): Promise<void> {
    for (let from = 0; from < stale.length || from === 0; from += size) {
      const count = Math.max(0, Math.min(size, stale.length - from));
      const batch: IndexChange[] = new Array(count);
      let next = 0;
      const reader = async () => {
        while (next < count) {
          const n = next++;
          const { id, expected, signature } = stale.at(from + n)!;
          batch[n] = await this.read(id, expected, signature, statAt);
        }
      };
      await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, count) }, reader));
      take(batch);
      if (count > 0) progress?.(from + count, stale.length);
    }
  }

  /** The index change for one file, read after its signature was taken at `statAt`. */
  async read(id: string, expected: FileSignature | null, signature: FileSignature, statAt: number): Promise<IndexChange> {
    const path = this.paths.itemFile(id);
    const file = this.fileOf(id, signature, statAt);
    try {
      // A link, FIFO or device under the item's name, or a file over the cap, is refused
      // (RefusedFileError) and recorded as the file's problem like a parse error.
      const text = await this.fs.readText(path, ITEM_FILE_READ);
      if (text === undefined) return { kind: 'gone', id, expected };
      const item = parseItem(text, path);
      if (item.id !== id) throw new Error(`front matter id ${item.id} does not match the file name`);
      return { kind: 'item', item: toIndexEntry(item), file, expected };
    } catch (error) {
      const message = error instanceof PmError || error instanceof Error ? error.message : String(error);
      return { kind: 'problem', problem: { id, message }, file, expected };
    }
  }

  /** The index's record of a file whose signature was taken at `statAt`. */
  fileOf(id: string, signature: FileSignature, statAt: number): IndexedFile {
    return { signature, hash: fileHash(id, signature), racy: isRacy(signature, statAt) };
  }
}
