import { encodeColumn, MAX_COUNT } from './sqlite-index-column-codec.js';

/** Postings per block of storage (a power of two): storage grows by blocks, never by copying. */
const BLOCK_BITS = 16;
const BLOCK = 1 << BLOCK_BITS;

interface Block {
  readonly wid: Int32Array;
  readonly rid: Int32Array;
  /** t, b, c of each posting, capped at {@link MAX_COUNT}. */
  readonly counts: Uint8Array;
}

/**
 * The postings of a first build (docs/TRACKER.md "The derived index"), kept packed in typed
 * arrays (11 bytes per posting instead of an array object each) and handed out as each word's
 * stored column (`word_columns`), word by word.
 *
 * Items must be added in increasing rowid order: a stable counting sort by word id then keeps
 * each word's rowids increasing, which is the column's order.
 */
export class PostingsBuffer {
  private size = 0;
  private readonly blocks: Block[] = [];
  private lastRid = 0;
  private maxWid = 0;

  get length(): number {
    return this.size;
  }

  /** Starts the postings of the item with this rowid (greater than the last one's). */
  item(rid: number): void {
    if (!Number.isInteger(rid) || rid <= this.lastRid) throw new Error(`postings: rowid ${rid} after ${this.lastRid}`);
    this.lastRid = rid;
  }

  /** A posting of the item started last: the word's counts in the title, the body and the comments. */
  add(wid: number, t: number, b: number, c: number): void {
    const n = this.size;
    const at = n & (BLOCK - 1);
    if (at === 0) this.blocks.push({ wid: new Int32Array(BLOCK), rid: new Int32Array(BLOCK), counts: new Uint8Array(BLOCK * 3) });
    const block = this.blocks[n >>> BLOCK_BITS]!;
    block.wid[at] = wid;
    block.rid[at] = this.lastRid;
    block.counts[at * 3] = Math.min(t, MAX_COUNT);
    block.counts[at * 3 + 1] = Math.min(b, MAX_COUNT);
    block.counts[at * 3 + 2] = Math.min(c, MAX_COUNT);
    if (wid > this.maxWid) this.maxWid = wid;
    this.size = n + 1;
  }

  /** Every word's column in `word_columns`' stored form, in word id order: [word id, bytes]. */
  *columns(): Generator<[number, Uint8Array]> {
    const n = this.size;
    const widOf = (index: number) => this.blocks[index >>> BLOCK_BITS]!.wid[index & (BLOCK - 1)]!;
    const order = countingOrder(n, (k) => k, widOf, this.maxWid + 1);
    for (let from = 0; from < n; ) {
      const wid = widOf(order[from]!);
      let to = from + 1;
      while (to < n && widOf(order[to]!) === wid) to++;
      const column = { rids: new Int32Array(to - from), t: new Uint8Array(to - from), b: new Uint8Array(to - from), c: new Uint8Array(to - from) };
      for (let k = from; k < to; k++) {
        const index = order[k]!;
        const block = this.blocks[index >>> BLOCK_BITS]!;
        const i = index & (BLOCK - 1);
        column.rids[k - from] = block.rid[i]!;
        column.t[k - from] = block.counts[i * 3]!;
        column.b[k - from] = block.counts[i * 3 + 1]!;
        column.c[k - from] = block.counts[i * 3 + 2]!;
      }
      yield [wid, encodeColumn(column)];
      from = to;
    }
  }
}

/**
 * The `length` indexes `input(0)`, `input(1)`, … reordered stably by `key(index)` (each in
 * [0, range)): a counting sort, linear in length and range.
 */
export function countingOrder(length: number, input: (k: number) => number, key: (index: number) => number, range: number): Uint32Array {
  const starts = new Uint32Array(range + 1);
  for (let k = 0; k < length; k++) {
    const slot = key(input(k)) + 1;
    starts[slot] = starts[slot]! + 1;
  }
  for (let v = 0; v < range; v++) starts[v + 1] = starts[v + 1]! + starts[v]!;
  const out = new Uint32Array(length);
  for (let k = 0; k < length; k++) {
    const index = input(k);
    const value = key(index);
    out[starts[value]!] = index;
    starts[value] = starts[value]! + 1;
  }
  return out;
}
