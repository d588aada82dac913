import type { FileSignature, FileSystem } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import { deepFreeze } from '../util/canonical-json.js';
import { digestOf } from './digests.js';
import { parseItem, serializeItem } from './item-codec.js';
import type { Item } from './item.js';
import type { TrackerPaths } from './tracker-paths.js';

/** An item as read from disk, with the digest of its exact bytes. */
export interface StoredItem {
  readonly item: Item;
  readonly text: string;
  readonly digest: string;
}

/** How many parsed items {@link ItemStore.readItem} remembers (by exact file text). */
const PARSED_MEMO_LIMIT = 1024;

/** Reads and writes item files; the files are the source of truth. */
export class ItemStore {
  private readonly parsed = new Map<string, { readonly text: string; readonly item: Item }>();

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
   * Reads an item file and returns the parsed item, deep-frozen. The file is read every time;
   * only the parse is reused, and only when the text is byte-for-byte the one parsed before.
   */
  async readItem(id: string): Promise<Item | undefined> {
    const path = this.paths.itemFile(id);
    const text = await this.fs.readText(path);
    if (text === undefined) return undefined;
    const known = this.parsed.get(id);
    if (known?.text === text) return known.item;
    const item = deepFreeze(parseItem(text, path));
    if (this.parsed.size >= PARSED_MEMO_LIMIT) this.parsed.clear();
    this.parsed.set(id, { text, item });
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
    await this.fs.writeAtomic(path, text);
    return this.fs.stat(path);
  }

  async remove(id: string): Promise<void> {
    await this.fs.remove(this.paths.itemFile(id));
  }
}
