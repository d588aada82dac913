import type { SqliteStatement } from './sqlite-driver.js';
import { decodeColumn, EMPTY_COLUMN, eachPacked, PACKED, parsePacked, withChanges, type PostingColumn } from './sqlite-index-column-codec.js';

type Prepare = (sql: string) => SqliteStatement;

export type { PostingColumn } from './sqlite-index-column-codec.js';
export { MAX_COUNT } from './sqlite-index-column-codec.js';

/** Every item's priority and status code, by rowid (`size`: one past the largest rowid). */
export interface ItemColumns {
  readonly priority: Float64Array;
  readonly status: Uint16Array;
  readonly size: number;
}

/**
 * Per-item sums of a search (see {@link PostingColumns.scratch}), one run of `stride` bytes per
 * rowid so an item's sums share a cache line: how many terms the item holds (fewer than
 * {@link MAX_TERMS}), then per term its counts in the title, the body and the comments, each
 * stopping at MAX_COUNT (a search caps counts at most there, so the capped sums are the same).
 */
export interface Scratch {
  readonly data: Uint8Array;
  readonly stride: number;
  /** The rowids written, in the order first written: the first {@link Scratch.count} entries. */
  readonly touched: Int32Array;
  count: number;
}

/** Terms a search summed over the columns has fewer of (they are counted per item in a byte). */
export const MAX_TERMS = 255;
/** Postings held at most (7 bytes each); past this the columns used longest ago are dropped, and read again when needed. */
const MAX_POSTINGS = 4_000_000;

/**
 * The posting columns of the words a search reads (docs/TRACKER.md "The derived index"): each
 * word's stored column (`word_columns`) with its changed postings since (`word_changes`)
 * applied, and every item's priority and status, so a search sums counts in memory. A
 * long-lived process holds what it read while the database stays as it was (`version`): the
 * held columns are a second form of the tables, not a cache of answers, dropped as a whole at
 * any commit, by this connection or another, so every search counts from the committed
 * postings. Without a version nothing is held from one search to the next.
 */
export class PostingColumns {
  private readonly columns = new Map<number, PostingColumn>();
  private readonly codes = new Map<string, number>();
  private itemColumns: ItemColumns | undefined;
  private held = 0;
  private spare: Scratch | undefined;
  private seen: string | undefined;

  /** @param version a value that changes with every commit to the database (undefined: hold nothing between searches) */
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

  /** Drops the held columns when the database changed since they were read (always, without a version). Call once per search, before reading any. */
  sync(): void {
    const now = this.version();
    if (now === undefined || now !== this.seen) this.clear();
    this.seen = now;
  }

  /** Whether this process holds what it reads from one search to the next (as of the last {@link sync}). */
  get holding(): boolean {
    return this.seen !== undefined;
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
   * Zeroed per-item sums for `terms` terms over `size` rowids, reused across searches (a search
   * allocates no array per item): give them back with {@link release}.
   */
  scratch(terms: number, size: number): Scratch {
    const stride = 1 + 3 * terms;
    const spare = this.spare;
    this.spare = undefined;
    if (spare && spare.data.length >= stride * size && spare.touched.length >= size) return { data: spare.data, stride, touched: spare.touched, count: 0 };
    return { data: new Uint8Array(stride * size), stride, touched: new Int32Array(size), count: 0 };
  }

  /** Takes back sums from {@link scratch}, zeroing the rowids written (all at once when they are many). */
  release(sums: Scratch): void {
    const { data, stride, touched, count } = sums;
    if (count * stride * 8 > data.length) data.fill(0);
    else for (let k = 0; k < count; k++) data.fill(0, touched[k]! * stride, (touched[k]! + 1) * stride);
    this.spare = sums;
  }

  /**
   * Every item's priority and status code, read once per state of the database: per status the
   * rowids and the priorities as two texts, walked side by side straight into the arrays (no
   * array or string per item: 100k of them would grow the heap of a one-shot process).
   */
  items(): ItemColumns {
    if (this.itemColumns) return this.itemColumns;
    const size = ((this.stmt('SELECT max(rid) FROM items').pluck().get() as number | null) ?? -1) + 1;
    const columns = { priority: new Float64Array(size), status: new Uint16Array(size), size };
    for (const [status, rids, priorities] of this.stmt('SELECT status, group_concat(rid), group_concat(priority) FROM items GROUP BY status').raw().all() as [string, string, string][]) {
      const code = this.code(status);
      let at = 0;
      eachPacked(rids, (rid) => {
        let end = at + 1;
        // A priority is one digit (0-4: item.ts); any other number is read as a number.
        if (end < priorities.length && priorities.charCodeAt(end) !== 44) {
          const comma = priorities.indexOf(',', at);
          end = comma < 0 ? priorities.length : comma;
        }
        columns.priority[rid] = end === at + 1 ? priorities.charCodeAt(at) - 48 : Number(priorities.slice(at, end));
        at = end + 1;
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
    const column = this.read(wid);
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

  /** A word's column as the database holds it now: its stored column with its changed postings applied. */
  read(wid: number): PostingColumn {
    const data = this.stmt('SELECT data FROM word_columns WHERE wid = ?').pluck().get(wid) as Uint8Array | undefined;
    const changes = this.stmt(`SELECT group_concat(${PACKED}) FROM word_changes WHERE wid = ?`).pluck().get(wid) as string | null;
    return withChanges(data === undefined ? EMPTY_COLUMN : decodeColumn(data), parsePacked(changes ?? ''));
  }
}
