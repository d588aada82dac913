import type { FileSignature, FileSystem } from '../../ports/file-system.js';
import { PmError } from '../errors/index.js';
import { BoundedCache } from '../util/bounded-cache.js';
import { utf8Length } from '../util/utf8.js';
import { sameSignature, toIndexEntry, type IndexEntry } from './index-entry.js';
import { parseItem } from './item-codec.js';
import type { Item } from './item.js';
import type { TrackerPaths } from './tracker-paths.js';

/** 2: every entry carries every key (null for an absent optional one), see adoptEntry. */
const SNAPSHOT_VERSION = 2;
/** Rewrite the snapshot when a load had to re-read more than this many files. */
const SNAPSHOT_REPAIR_THRESHOLD = 32;

interface Snapshot {
  readonly version: number;
  readonly entries: IndexEntry[];
}

/** A file the index could not read; `pm validate` reports these in detail. */
export interface UnreadableItem {
  readonly id: string;
  readonly message: string;
}

/**
 * The derived index behind list, next and search (docs/TRACKER.md "The derived index"), so
 * queries over many items scan memory instead of reading every file. The item files are
 * the source of truth: on first use every file's signature (size, mtime, inode) is checked
 * against the snapshot in the runtime area and only changed files are re-parsed; afterwards
 * the changes log written by every pm process and a directory watch (for edits made outside
 * pm) say which files to re-check. A deleted or corrupt snapshot only costs a rebuild.
 */
export class ItemIndex {
  private readonly entries = new Map<string, IndexEntry>();
  private readonly unreadable = new Map<string, UnreadableItem>();
  private readonly dirty = new Set<string>();
  private changesOffset = 0;
  private loaded: Promise<void> | undefined;
  private stopWatch: (() => void) | undefined;
  private rescanNeeded = false;

  /** @param intern the pool that shares the entries' repeated strings (tests pass a small one) */
  constructor(
    private readonly fs: FileSystem,
    private readonly paths: TrackerPaths,
    private readonly intern = new StringPool(),
  ) {}

  /** Brings the index up to date with the files; call before every query. */
  async refresh(): Promise<void> {
    if (!this.loaded) this.loaded = this.load();
    await this.loaded;
    if (this.rescanNeeded) {
      this.rescanNeeded = false;
      await this.sweep();
    }
    await this.followChanges();
    if (this.dirty.size > 0) {
      const ids = [...this.dirty];
      this.dirty.clear();
      for (const id of ids) await this.reload(id);
    }
  }

  values(): IterableIterator<IndexEntry> {
    return this.entries.values();
  }

  get(id: string): IndexEntry | undefined {
    return this.entries.get(id);
  }

  get size(): number {
    return this.entries.size;
  }

  problems(): UnreadableItem[] {
    return [...this.unreadable.values()];
  }

  /** Records an item this process just wrote (so the next query needs no re-read). */
  noteWritten(item: Item, sig: FileSignature | undefined): void {
    if (!this.loaded) return;
    if (sig) this.entries.set(item.id, uniformEntry(toIndexEntry(item, sig), this.intern));
    this.unreadable.delete(item.id);
  }

  noteRemoved(id: string): void {
    this.entries.delete(id);
    this.unreadable.delete(id);
  }

  /** Writes the snapshot now (used on shutdown by long-lived hosts). */
  async persist(): Promise<void> {
    if (!this.loaded) return;
    await this.loaded;
    await this.writeSnapshot();
  }

  private async writeSnapshot(): Promise<void> {
    const snapshot: Snapshot = { version: SNAPSHOT_VERSION, entries: [...this.entries.values()] };
    await this.fs.ensureDir(this.paths.runtime);
    await this.fs.writeAtomic(this.paths.indexSnapshot, JSON.stringify(snapshot, (_key, value: unknown) => (value === undefined ? null : value)));
  }

  close(): void {
    this.stopWatch?.();
    this.stopWatch = undefined;
  }

  private async load(): Promise<void> {
    const sig = await this.fs.stat(this.paths.changesLog);
    this.changesOffset = sig?.size ?? 0;
    for (const entry of await this.readSnapshot()) this.entries.set(entry.id, entry);
    this.stopWatch = this.fs.watch(this.paths.items, (name) => {
      if (name === undefined) this.rescanNeeded = true;
      else if (name.endsWith('.md')) this.dirty.add(name.slice(0, -3));
    });
    const repaired = await this.sweep();
    if (repaired > SNAPSHOT_REPAIR_THRESHOLD || !(await this.fs.stat(this.paths.indexSnapshot))) {
      await this.writeSnapshot().catch(() => undefined);
    }
  }

  /** Checks every item file's signature; re-reads changed ones. Returns how many it re-read. */
  private async sweep(): Promise<number> {
    const seen = new Set<string>();
    let repaired = 0;
    for (const { name, signature } of await this.fs.scan(this.paths.items)) {
      if (!name.endsWith('.md')) continue;
      const id = name.slice(0, -3);
      seen.add(id);
      const entry = this.entries.get(id);
      if (entry && sameSignature(entry.sig, signature)) continue;
      await this.reload(id);
      repaired++;
    }
    for (const id of [...this.entries.keys()]) if (!seen.has(id)) this.entries.delete(id);
    for (const id of [...this.unreadable.keys()]) if (!seen.has(id)) this.unreadable.delete(id);
    return repaired;
  }

  private async followChanges(): Promise<void> {
    const sig = await this.fs.stat(this.paths.changesLog);
    const size = sig?.size ?? 0;
    if (size < this.changesOffset) {
      this.changesOffset = size;
      await this.sweep();
      return;
    }
    if (size === this.changesOffset) return;
    const text = await this.fs.readTextRange(this.paths.changesLog, this.changesOffset, size);
    const complete = text.lastIndexOf('\n') + 1;
    this.changesOffset += utf8Length(text.slice(0, complete));
    const ids = new Set(text.slice(0, complete).split('\n').filter(Boolean));
    for (const id of ids) await this.reload(id);
  }

  private async reload(id: string): Promise<void> {
    const path = this.paths.itemFile(id);
    const sig = await this.fs.stat(path);
    if (!sig) {
      this.noteRemoved(id);
      return;
    }
    const current = this.entries.get(id);
    if (current && sameSignature(current.sig, sig)) return;
    const text = await this.fs.readText(path);
    if (text === undefined) {
      this.noteRemoved(id);
      return;
    }
    try {
      const item = parseItem(text, path);
      if (item.id !== id) throw new Error(`front matter id ${item.id} does not match the file name`);
      this.entries.set(id, uniformEntry(toIndexEntry(item, sig), this.intern));
      this.unreadable.delete(id);
    } catch (error) {
      this.entries.delete(id);
      this.unreadable.set(id, { id, message: error instanceof PmError || error instanceof Error ? error.message : String(error) });
    }
  }

  private async readSnapshot(): Promise<IndexEntry[]> {
    const text = await this.fs.readText(this.paths.indexSnapshot);
    if (!text) return [];
    try {
      const snapshot = JSON.parse(text) as Snapshot;
      return snapshot.version === SNAPSHOT_VERSION && Array.isArray(snapshot.entries) ? snapshot.entries.map((e) => adoptEntry(e, this.intern)) : [];
    } catch {
      return [];
    }
  }
}

/**
 * One shared copy of each repeated string value (statuses, types, people, tags, referenced
 * ids). A scan of 100k entries is bound by memory latency: comparing `status` against 'open'
 * in 100k entries reads 100k separate string objects unless they are one object that stays in
 * the CPU cache, so sharing makes filtered lists faster and saves memory (docs/BENCHMARKS.md,
 * "Before and after the performance work"). A speed-up only: a string the pool forgot, or every
 * string while caches are bypassed, is kept as its own equal copy, so results never change.
 */
export class StringPool {
  /**
   * @param strings the shared copy of each value, keyed by the value itself; a value it forgot
   *   is shared anew from its next use (entries keep the copies they have)
   */
  constructor(private readonly strings = new BoundedCache<string, string>('index strings', MAX_POOLED_STRINGS)) {}

  readonly one = (value: string): string => this.strings.getOrCreate(value, itself);

  optional(value: string | undefined): string | undefined {
    return value === undefined ? undefined : this.one(value);
  }

  list(values: readonly string[]): readonly string[] {
    return values.length === 0 ? EMPTY : values.map(this.one);
  }
}

const itself = (value: string): string => value;
/** Far more distinct values than statuses, types, people and tags ever take, and a bound on memory. */
const MAX_POOLED_STRINGS = 1_000_000;
const EMPTY: readonly string[] = Object.freeze([]);

/**
 * Builds the entry of an item just read or written with every key present, in one fixed order
 * (the snapshot's order), sharing repeated strings. Entries of one shape (one V8 hidden class)
 * keep the property reads in list/next/search monomorphic; entries with absent optional keys
 * come in dozens of shapes, and a scan's property reads over them go polymorphic and slow
 * (docs/BENCHMARKS.md "Before and after the performance work").
 */
function uniformEntry(e: IndexEntry, strings: StringPool): IndexEntry {
  return {
    id: e.id,
    title: e.title,
    type: strings.one(e.type),
    status: strings.one(e.status),
    priority: e.priority,
    tags: strings.list(e.tags),
    parent: strings.optional(e.parent),
    assignee: strings.optional(e.assignee),
    claimHolder: strings.optional(e.claimHolder),
    claimExpiresAt: e.claimExpiresAt,
    blockedBy: strings.list(e.blockedBy),
    related: strings.list(e.related),
    created: e.created,
    updated: e.updated,
    revision: e.revision,
    comments: e.comments,
    text: { title: e.text.title, body: e.text.body, comments: e.text.comments },
    sig: { size: e.sig.size, mtimeMs: e.sig.mtimeMs, ino: e.sig.ino },
  };
}

type SnapshotEntry = { -readonly [K in keyof IndexEntry]: IndexEntry[K] | null };

/**
 * Takes an entry parsed from the snapshot as it is, normalizing it in place: null becomes
 * undefined, repeated strings are shared. Entries in the snapshot all have the same keys in the
 * same order, so JSON.parse already gives them one shape; copying every entry instead (as
 * uniformEntry does) would multiply the garbage collection work of opening a large index
 * (docs/BENCHMARKS.md "Before and after the performance work"). Throws on a malformed entry
 * (the caller then rebuilds from the files).
 */
function adoptEntry(parsed: IndexEntry, strings: StringPool): IndexEntry {
  if (!isWellFormed(parsed)) throw new Error('malformed index entry');
  const e = parsed as unknown as SnapshotEntry;
  e.type = strings.one(parsed.type);
  e.status = strings.one(parsed.status);
  e.tags = strings.list(parsed.tags);
  e.parent = strings.optional(parsed.parent ?? undefined);
  e.assignee = strings.optional(parsed.assignee ?? undefined);
  e.claimHolder = strings.optional(parsed.claimHolder ?? undefined);
  e.claimExpiresAt = parsed.claimExpiresAt ?? undefined;
  e.blockedBy = strings.list(parsed.blockedBy);
  e.related = strings.list(parsed.related);
  return parsed;
}

const isOptionalString = (v: unknown) => v === undefined || v === null || typeof v === 'string';

/** Type checks of a snapshot entry, written out so checking 100k entries allocates nothing. */
function isWellFormed(e: IndexEntry): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { text, sig } = e;
  return typeof e.id === 'string' && typeof e.title === 'string' && typeof e.type === 'string' && typeof e.status === 'string'
    && isOptionalString(e.parent) && isOptionalString(e.assignee) && isOptionalString(e.claimHolder) && isOptionalString(e.claimExpiresAt)
    && typeof e.created === 'string' && typeof e.updated === 'string' && typeof e.priority === 'number' && typeof e.revision === 'number'
    && typeof e.comments === 'number' && Array.isArray(e.tags) && Array.isArray(e.blockedBy) && Array.isArray(e.related)
    && typeof text === 'object' && text !== null && typeof text.title === 'string' && typeof text.body === 'string' && typeof text.comments === 'string'
    && typeof sig === 'object' && sig !== null && typeof sig.size === 'number' && typeof sig.mtimeMs === 'number' && typeof sig.ino === 'number';
}
