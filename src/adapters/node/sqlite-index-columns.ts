import type { SqliteStatement } from './sqlite-driver.js';

type Prepare = (sql: string) => SqliteStatement;

/** One word's postings as typed arrays (any order): rowid and counts per field (at most {@link MAX_COUNT}). */
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
/** Postings held at most; past this the columns are dropped and read again as needed. */
const MAX_POSTINGS = 3_000_000;

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

  items(): ItemColumns {
    if (this.itemColumns) return this.itemColumns;
    const rows = this.stmt('SELECT rid, priority, status FROM items').raw().all() as [number, number, string][];
    let size = 0;
    for (const [rid] of rows) if (rid >= size) size = rid + 1;
    const columns = { priority: new Float64Array(size), status: new Uint16Array(size), size };
    for (const [rid, priority, status] of rows) {
      columns.priority[rid] = priority;
      columns.status[rid] = this.code(status);
    }
    return (this.itemColumns = columns);
  }

  of(wid: number): PostingColumn {
    const known = this.columns.get(wid);
    if (known) return known;
    const rows = this.stmt('SELECT rid, t, b, c FROM postings WHERE wid = ?').raw().all(wid) as [number, number, number, number][];
    if (this.held + rows.length > MAX_POSTINGS) {
      this.columns.clear();
      this.held = 0;
    }
    const n = rows.length;
    const column = { rids: new Int32Array(n), t: new Uint8Array(n), b: new Uint8Array(n), c: new Uint8Array(n) };
    for (let i = 0; i < n; i++) {
      const [rid, t, b, c] = rows[i]!;
      column.rids[i] = rid;
      column.t[i] = Math.min(MAX_COUNT, t);
      column.b[i] = Math.min(MAX_COUNT, b);
      column.c[i] = Math.min(MAX_COUNT, c);
    }
    this.columns.set(wid, column);
    this.held += n;
    return column;
  }
}
