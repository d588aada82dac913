import type { SqliteStatement } from './sqlite-driver.js';

type Prepare = (sql: string) => SqliteStatement;

/** One word's postings as typed arrays in rowid order: rowid and counts per field (at most {@link MAX_COUNT}). */
export interface PostingColumn {
  readonly rids: Int32Array;
  readonly t: Uint8Array;
  readonly b: Uint8Array;
  readonly c: Uint8Array;
}

/** Every item's priority and status code, by rowid (`size`: one past the largest rowid). */
export interface ItemColumns {
  readonly priority: Float64Array;
  readonly status: Uint16Array;
  readonly size: number;
}

/**
 * Per-item sums of a search (see {@link PostingColumns.scratch}), one run of `stride` numbers
 * per rowid so an item's sums share a cache line: how many terms the item holds, then per term
 * its counts in the title, the body and the comments.
 */
export interface Scratch {
  readonly data: Uint32Array;
  readonly stride: number;
}

/** Counts are kept up to this value: a search capping counts at most here gets the same capped sums. */
export const MAX_COUNT = 255;
/** The packing factor of a posting's rowid (rowids stay below 2^29, so a packed posting is an exact double). */
const PACK = 16_777_216;
/** A posting packed as one number (rowid, then the three capped counts a byte each), as SQL over `postings`. */
export const PACKED = `rid * ${PACK} + min(${MAX_COUNT}, t) * 65536 + min(${MAX_COUNT}, b) * 256 + min(${MAX_COUNT}, c)`;
/** Postings held at most (7 bytes each); past this the columns used longest ago are dropped, and read again when needed. */
const MAX_POSTINGS = 4_000_000;
/** A word with fewer postings than one per this many rowids (up to its largest) is sorted, not swept. */
const SPARSE = 16;
/** Rowid slots {@link inRowidOrder} allocates at most (4 bytes each). */
const MAX_SLOTS = 1 << 24;

/**
 * The postings of the words a search reads, copied into typed arrays in this process, with
 * every item's priority and status (docs/TRACKER.md "The derived index"), so a search of
 * frequent words sums their counts in memory instead of grouping every posting in SQL. The copy
 * is a second form of the tables, not a cache of answers: it is dropped as a whole whenever the
 * database changed since it was read (any commit, by this connection or another: `version`),
 * so every search counts from the committed postings.
 */
export class PostingColumns {
  private readonly columns = new Map<number, PostingColumn>();
  private readonly codes = new Map<string, number>();
  private itemColumns: ItemColumns | undefined;
  private held = 0;
  private spare: Scratch | undefined;
  /** The zeroed rowid slots {@link inRowidOrder} reuses from word to word. */
  private slots: Uint32Array | undefined;
  private seen: string | undefined;

  /** @param version a value that changes with every commit to the database (undefined: columns off) */
  constructor(
    private readonly stmt: Prepare,
    private readonly version: () => string | undefined,
  ) {}

  /** Drops every column (another database file, or a transaction that rolled back). */
  clear(): void {
    this.columns.clear();
    this.itemColumns = undefined;
    this.held = 0;
    this.seen = undefined;
  }

  /**
   * Drops the columns when the database changed since they were read. Call once per search,
   * before reading any; false when the columns are not to be used (no version).
   */
  sync(): boolean {
    const now = this.version();
    if (now === undefined) return false;
    if (now !== this.seen) this.clear();
    this.seen = now;
    return true;
  }

  /** The number a status is coded as in {@link ItemColumns.status} (a new one for a status never seen). */
  code(status: string): number {
    let code = this.codes.get(status);
    if (code === undefined) this.codes.set(status, (code = this.codes.size));
    return code;
  }

  /** The status codes a filter of statuses lets through (undefined: every status); call after {@link items}. */
  allowed(statuses: readonly string[] | undefined, excluded: readonly string[] | undefined): Set<number> | undefined {
    if (statuses === undefined && !excluded?.length) return undefined;
    const out = new Set<number>();
    for (const [status, code] of this.codes) if ((statuses === undefined || statuses.includes(status)) && !excluded?.includes(status)) out.add(code);
    return out;
  }

  /**
   * Zeroed per-item sums for `terms` terms over `size` rowids, reused across searches: give
   * them back with {@link release}.
   */
  scratch(terms: number, size: number): Scratch {
    const stride = 1 + 3 * terms;
    const spare = this.spare;
    this.spare = undefined;
    if (spare && spare.data.length >= stride * size) return { data: spare.data, stride };
    return { data: new Uint32Array(stride * size), stride };
  }

  /** Takes back sums from {@link scratch}, zeroing the rowids written. */
  release(sums: Scratch, touched: readonly number[]): void {
    const { data, stride } = sums;
    for (const rid of touched) for (let at = rid * stride; at < (rid + 1) * stride; at++) data[at] = 0;
    this.spare = sums;
  }

  /** Every item's priority and status code, read once per state of the database: a list of rowids and one of priorities per status. */
  items(): ItemColumns {
    if (this.itemColumns) return this.itemColumns;
    const groups = (this.stmt('SELECT status, group_concat(rid), group_concat(priority) FROM items GROUP BY status').raw().all() as [string, string, string][])
      .map(([status, rids, priorities]) => {
        const list: number[] = [];
        eachPacked(rids, (rid) => list.push(rid));
        return { code: this.code(status), rids: list, priorities: priorities.split(',').map(Number) };
      });
    let size = 0;
    for (const { rids } of groups) for (const rid of rids) if (rid >= size) size = rid + 1;
    const columns = { priority: new Float64Array(size), status: new Uint16Array(size), size };
    for (const { code, rids, priorities } of groups) {
      rids.forEach((rid, k) => {
        columns.priority[rid] = priorities[k]!;
        columns.status[rid] = code;
      });
    }
    return (this.itemColumns = columns);
  }

  /** A word's column, read on first use; the words used longest ago make room when more than {@link MAX_POSTINGS} are held. */
  of(wid: number): PostingColumn {
    const known = this.columns.get(wid);
    if (known) {
      // Map order is use order: the first entries are the ones to drop.
      this.columns.delete(wid);
      this.columns.set(wid, known);
      return known;
    }
    // One text of packed numbers (rowid, then the three capped counts a byte each): a row per posting would cost several times more.
    const text = (this.stmt(`SELECT group_concat(${PACKED}) FROM postings WHERE wid = ?`).pluck().get(wid) as string | null) ?? '';
    const { column, slots } = inRowidOrder(text, this.slots ?? new Uint32Array(Math.max(1, this.itemColumns?.size ?? 0)));
    this.slots = slots;
    const n = column.rids.length;
    for (const [old, held] of this.columns) {
      if (this.held + n <= MAX_POSTINGS) break;
      this.columns.delete(old);
      this.held -= held.rids.length;
    }
    this.columns.set(wid, column);
    this.held += n;
    return column;
  }

  /** The version of the database the held columns were read at (set by {@link sync}). */
  get state(): string | undefined {
    return this.seen;
  }

  /** Whether a word's column is held. */
  has(wid: number): boolean {
    return this.columns.has(wid);
  }

  /**
   * Takes a word's column read ahead of its first use (sqlite-index-warm.ts) at the version
   * `read` of the database; false when the database changed since, the word is held already,
   * or it does not fit under {@link MAX_POSTINGS}: it never makes room, what a search read stays.
   */
  adopt(wid: number, column: PostingColumn, read: string): boolean {
    const n = column.rids.length;
    if (read !== this.seen || this.version() !== read || this.columns.has(wid) || this.held + n > MAX_POSTINGS) return false;
    this.columns.set(wid, column);
    this.held += n;
    return true;
  }
}

/**
 * A word's postings, given as {@link PostingColumns.of} reads them (packed numbers in stored
 * order, comma-separated), as a column in rowid order, so a search walks its per-item sums
 * front to back. A word has one posting per item: when its rowids are dense (at least one in
 * {@link SPARSE} of the rowids up to its largest), each rowid's slot of a dense array
 * (`zeroed`, all zeros, grown if need be) takes its counts and a sweep over the slots gives the
 * order without sorting; a sparse word, a rowid met twice, or one past {@link MAX_SLOTS} is
 * sorted instead (a sweep would visit every slot for a few postings). Returns the column and
 * the slots, zeroed again, for the next word.
 */
export function inRowidOrder(text: string, zeroed: Uint32Array): { column: PostingColumn; slots: Uint32Array } {
  const packed = parsePacked(text);
  const n = packed.length;
  let top = -1;
  for (let k = 0; k < n; k++) top = Math.max(top, Math.floor(packed[k]! / PACK));
  if (top >= MAX_SLOTS || n * SPARSE <= top) return { column: columnOf(packed.sort()), slots: zeroed };
  let slots = zeroed;
  if (top >= slots.length) {
    slots = new Uint32Array(Math.min(MAX_SLOTS, Math.max(top + 1, slots.length * 2)));
    slots.set(zeroed);
  }
  let twice = false;
  for (let k = 0; k < n; k++) {
    const rid = Math.floor(packed[k]! / PACK);
    if (slots[rid] !== 0) twice = true;
    // The counts plus one: 0 marks a slot no posting took.
    slots[rid] = packed[k]! - rid * PACK + 1;
  }
  if (twice) {
    slots.fill(0, 0, top + 1);
    return { column: columnOf(packed.sort()), slots };
  }
  let k = 0;
  for (let rid = 0; rid <= top; rid++) {
    if (slots[rid] === 0) continue;
    packed[k++] = rid * PACK + slots[rid]! - 1;
    slots[rid] = 0;
  }
  return { column: columnOf(packed), slots };
}

/** The comma-separated non-negative integers of `text`. */
function parsePacked(text: string): Float64Array {
  if (text.length === 0) return new Float64Array(0);
  let n = 1;
  for (let at = text.indexOf(','); at >= 0; at = text.indexOf(',', at + 1)) n++;
  const packed = new Float64Array(n);
  let k = 0;
  eachPacked(text, (value) => (packed[k++] = value));
  return packed;
}

/** Packed postings (rowid, then the three counts a byte each), in the order given, as a column. */
function columnOf(packed: Float64Array): PostingColumn {
  const n = packed.length;
  const column = { rids: new Int32Array(n), t: new Uint8Array(n), b: new Uint8Array(n), c: new Uint8Array(n) };
  for (let k = 0; k < n; k++) {
    const rid = Math.floor(packed[k]! / PACK);
    const counts = packed[k]! - rid * PACK;
    column.rids[k] = rid;
    column.t[k] = counts >> 16;
    column.b[k] = (counts >> 8) & 255;
    column.c[k] = counts & 255;
  }
  return column;
}

/** Calls `visit` with each number of a comma-separated text of non-negative integers. */
function eachPacked(text: string, visit: (value: number) => void): void {
  let value = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code !== 44) value = value * 10 + code - 48;
    else {
      visit(value);
      value = 0;
    }
  }
  if (text.length > 0) visit(value);
}
