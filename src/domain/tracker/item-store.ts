import type { FileSignature, FileSystem } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import { deepFreeze } from '../util/canonical-json.js';
import { digestOf } from './digests.js';
import { sameSignature } from './index-entry.js';
import { parseItem, serializeItem } from './item-codec.js';
import type { Item } from './item.js';
import type { TrackerPaths } from './tracker-paths.js';

/** An item as read from disk, with the digest of its exact bytes. */
export interface StoredItem {
  readonly item: Item;
  readonly text: string;
  readonly digest: string;
}

/** How many parsed items {@link ItemStore.readItem} remembers (by file signature and text). */
const PARSED_MEMO_LIMIT = 1024;

/** Reads and writes item files; the files are the source of truth. */
export class ItemStore {
  private readonly parsed = new Map<string, { readonly signature: FileSignature; readonly text: string; readonly item: Item }>();
  /** The read of an item started in the current turn, shared by the reads that join it (see {@link readItem}). */
  private readonly readsThisTurn = new Map<string, Promise<Item | undefined>>();
  private readonly endTurn = (): void => this.readsThisTurn.clear();

  constructor(
    private readonly fs: FileSystem,
    private readonly hasher: Hasher,
    private readonly paths: TrackerPaths,
  ) {}

  /** Reads and parses an item file (CorruptDataError when it does not parse). */
  async read(id: string): Promise<StoredItem | undefined> {
    const path = this.paths.itemFile(id);
    const text = await this.fs.readText(path);
    if (text === undefined) return undefined;
    const item = parseItem(text, path);
    return { item, text, digest: digestOf(this.hasher, text) };
  }

  /**
   * Reads an item file and returns the parsed item, deep-frozen. The file stays the source of
   * truth: its signature (size, mtime, inode; the same test the index uses to see edits made
   * outside pm) is checked, and the text is read again whenever it differs from the one the
   * remembered parse was read under. pm replaces item files by rename, so each of its writes
   * changes the inode. The signature is taken before the read, so a file replaced while it is
   * being read is read again on the next call rather than remembered stale.
   *
   * One read serves every read of the same item that starts before the current turn's
   * microtasks have run (coalescing concurrent reads, as a pipelined client's burst of calls for
   * one item): new requests only arrive in a later event-loop task, so every read answered from
   * a shared one began before its signature was taken, and a request always sees a write another
   * process made before the request arrived. This store's own writes drop the shared read at once.
   */
  readItem(id: string): Promise<Item | undefined> {
    let read = this.readsThisTurn.get(id);
    if (read === undefined) {
      if (this.readsThisTurn.size === 0) queueMicrotask(this.endTurn);
      read = this.load(id);
      this.readsThisTurn.set(id, read);
    }
    return read;
  }

  private async load(id: string): Promise<Item | undefined> {
    const path = this.paths.itemFile(id);
    const signature = await this.fs.stat(path);
    if (signature === undefined) return undefined;
    const known = this.parsed.get(id);
    if (known && sameSignature(known.signature, signature)) return known.item;
    const text = await this.fs.readText(path);
    if (text === undefined) return undefined;
    const item = known?.text === text ? known.item : deepFreeze(parseItem(text, path));
    if (this.parsed.size >= PARSED_MEMO_LIMIT) this.parsed.clear();
    this.parsed.set(id, { signature, text, item });
    return item;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.fs.stat(this.paths.itemFile(id))) !== undefined;
  }

  encode(item: Item): string {
    return serializeItem(item);
  }

  /** Atomically replaces the item file; returns its new signature for the index. */
  async writeText(id: string, text: string): Promise<FileSignature | undefined> {
    const path = this.paths.itemFile(id);
    this.readsThisTurn.delete(id);
    await this.fs.writeAtomic(path, text);
    this.readsThisTurn.delete(id);
    return this.fs.stat(path);
  }

  async remove(id: string): Promise<void> {
    this.readsThisTurn.delete(id);
    await this.fs.remove(this.paths.itemFile(id));
    this.readsThisTurn.delete(id);
  }
}
