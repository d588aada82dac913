import type { FileSignature, FileSystem } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import { BoundedCache } from '../util/bounded-cache.js';
import { deepFreeze } from '../util/canonical-json.js';
import { ListPrefixCache } from '../util/list-prefix-cache.js';
import { digestOf } from './digests.js';
import { ITEM_FILE_READ } from './file-caps.js';
import { sameSignature } from './index-entry.js';
import { inParseOrder, KEPT_LIST_ENTRIES, parseItem, serializeItem } from './item-codec.js';
import type { Item } from './item.js';
import type { TrackerPaths } from './tracker-paths.js';

/** An item as read from disk, with the digest of its exact bytes. */
export interface StoredItem {
  readonly item: Item;
  readonly text: string;
  readonly digest: string;
}

/** A parse kept by {@link ItemStore.readItem}, with the file signature and text it was read under. */
export interface ParsedItem {
  readonly signature: FileSignature;
  readonly text: string;
  readonly item: Item;
  /** The digest of `text`, once computed. */
  readonly digest?: string;
}

/**
 * How many parsed items {@link ItemStore.readItem} keeps: the items a session works on,
 * without holding a large tracker's every item in memory beside its index.
 */
export const PARSED_ITEMS_LIMIT = 1024;
/**
 * The characters of item files those parses hold at most (their items take a few times more):
 * 1,024 items of a few KB fit, a few very large ones (an item with 5,000 comments is 600 KB)
 * do not push a long-lived server's memory up (docs/TRACKER.md "Memory").
 */
export const PARSED_ITEMS_CHARS = 16_777_216;

/** Reads and writes item files; the files are the source of truth. */
export class ItemStore {
  /**
   * The read of an item started in the current turn, shared by the reads that join it (see
   * {@link readItem}). Not a {@link BoundedCache}: it is not a speed-up that may forget or be
   * bypassed but the rule that one turn's reads of an item share one signature. It holds only
   * the reads in flight in one turn (emptied by a microtask at the end of the turn, and per item
   * by this store's own writes), so it is bounded by the turn itself and has nothing to evict.
   */
  private readonly readsThisTurn = new Map<string, Promise<Item | undefined>>();
  private readonly endTurn = (): void => this.readsThisTurn.clear();

  /**
   * @param parsedItems the latest parse of each recently read item, by id. A speed-up only: a
   *   forgotten or bypassed parse is read and parsed again from the file, so results never
   *   depend on it (tests pass a small one to check its bound).
   */
  constructor(
    private readonly fs: FileSystem,
    private readonly hasher: Hasher,
    private readonly paths: TrackerPaths,
    private readonly parsedItems = new BoundedCache<string, ParsedItem>('parsed items', PARSED_ITEMS_LIMIT, { max: PARSED_ITEMS_CHARS, of: (parsed) => parsed.text.length }),
  ) {}

  /**
   * Reads and parses an item file (CorruptDataError when it does not parse). The file is always
   * read; when its text is the one of the remembered parse, that parse (and its digest) is
   * reused, so a repeated read of a large item neither parses nor hashes it again.
   */
  async read(id: string): Promise<StoredItem | undefined> {
    const path = this.paths.itemFile(id);
    const signature = await this.fs.stat(path);
    const text = signature ? await this.fs.readText(path, ITEM_FILE_READ) : undefined;
    if (text === undefined || !signature) return undefined;
    const known = this.parsedItems.get(id);
    if (known?.text === text) {
      const digest = known.digest ?? digestOf(this.hasher, text);
      if (known.digest === undefined) this.parsedItems.set(id, { ...known, digest });
      return { item: known.item, text, digest };
    }
    const item = deepFreeze(parseItem(text, path));
    const digest = digestOf(this.hasher, text);
    this.parsedItems.set(id, { signature, text, item, digest });
    return { item, text, digest };
  }

  /**
   * Reads an item file and returns the parsed item, deep-frozen. The file stays the source of
   * truth: its signature (size, mtime, inode, ctime; the same test the index uses to see edits made
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
    const known = this.parsedItems.get(id);
    if (known && sameSignature(known.signature, signature)) return known.item;
    const text = await this.fs.readText(path, ITEM_FILE_READ);
    if (text === undefined) return undefined;
    const item = known?.text === text ? known.item : deepFreeze(parseItem(text, path));
    this.parsedItems.set(id, { signature, text, item });
    return item;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.fs.stat(this.paths.itemFile(id))) !== undefined;
  }

  encode(item: Item): string {
    return serializeItem(item);
  }

  /**
   * Atomically replaces the item file; returns its new signature for the index. `item`, the
   * item `text` encodes, is remembered as the file's parse when it is exactly what parsing the
   * text gives back (see {@link parsesBackAs}), so the next mutation of a large item neither
   * parses it again nor loses the identity of its unchanged list entries.
   */
  async writeText(id: string, text: string, item?: Item): Promise<FileSignature | undefined> {
    const path = this.paths.itemFile(id);
    this.readsThisTurn.delete(id);
    await this.fs.writeAtomic(path, text);
    this.readsThisTurn.delete(id);
    // The file is written: a failed stat only leaves the index to find its signature later.
    const signature = await this.fs.stat(path).catch(() => undefined);
    if (item && signature && parsesBackAs(item)) this.parsedItems.set(id, { signature, text, item: deepFreeze(inParseOrder(item)) });
    return signature;
  }

  /**
   * `item` as a read of `text`, its serialization, would give it back: the item itself in parse
   * order when parsing returns it exactly (see {@link parsesBackAs}), else the parse of the text.
   * A write batch hands this to the item's next mutation in the batch, so that one builds on what
   * the file says, as it would after a read (a body with surrounding blank lines, say).
   */
  asRead(id: string, item: Item, text: string): Item {
    return deepFreeze(parsesBackAs(item) ? inParseOrder(item) : parseItem(text, this.paths.itemFile(id)));
  }

  async remove(id: string): Promise<void> {
    this.readsThisTurn.delete(id);
    await this.fs.remove(this.paths.itemFile(id));
    this.readsThisTurn.delete(id);
  }
}

/**
 * Whether parsing the serialization of `item` gives an equal item: every key of the schema is
 * there (parsing fills in the defaults), no value anywhere is undefined (parsing leaves such keys
 * out), and the body is trimmed and free of carriage returns (the file form trims it and parsing
 * normalizes line ends). Otherwise the written item is not remembered and the next read parses.
 */
export function parsesBackAs(item: Item): boolean {
  if (item.body !== item.body.trim() || item.body.includes('\r')) return false;
  for (const key of PARSED_KEYS) if (item[key] === undefined) return false;
  return !hasUndefined(item);
}

const PARSED_KEYS = ['tags', 'blockedBy', 'related', 'acceptance', 'files', 'tests', 'custom', 'comments'] as const;

function hasUndefined(value: unknown): boolean {
  if (value === undefined) return true;
  if (!value || typeof value !== 'object') return false;
  if (Object.isFrozen(value) && KNOWN_DEFINED.has(value)) return false;
  if (Array.isArray(value)) {
    if (listHasUndefined(value)) return true;
  } else {
    for (const v of Object.values(value)) if (hasUndefined(v)) return true;
  }
  if (Object.isFrozen(value)) KNOWN_DEFINED.add(value);
  return false;
}

/** A list's entries checked after those of a known list it extends (a comment added to 1,000: one entry). */
function listHasUndefined(list: readonly unknown[]): boolean {
  return DEFINED_LISTS.fold('', list, false, (found, entry) => found || hasUndefined(entry));
}

/** Frozen objects already found free of undefined values (a comment checked once stays so). */
const KNOWN_DEFINED = new WeakSet<object>();
/** Whether lists of frozen entries hold an undefined value somewhere, by their entries. */
const DEFINED_LISTS = new ListPrefixCache<boolean>('item lists checked for undefined', 128, KEPT_LIST_ENTRIES);
