/** One posting as the `postings` table stores it: wid, score, priority, status, rid, t, b, c. */
export type PostingRow = [number, number, number, string, number, number, number, number];

/** Postings per block of storage (a power of two): storage grows by blocks, never by copying. */
const BLOCK_BITS = 16;
const BLOCK = 1 << BLOCK_BITS;
/** Counts at or above this are kept aside, exactly ({@link PostingsBuffer.large}). */
const COUNT_LIMIT = 0xffff;

interface Block {
  readonly wid: Int32Array;
  readonly rid: Int32Array;
  readonly score: Uint8Array;
  /** t, b, c of each posting. */
  readonly counts: Uint16Array;
}

/**
 * The postings of a first build (docs/TRACKER.md "The derived index"), kept packed in typed
 * arrays (15 bytes per posting instead of an array object each) and handed out in the
 * `postings` table's key order (word id, score descending, priority, status, item rowid), so
 * they are appended to the keyed table instead of inserted all over it or sorted by SQLite.
 *
 * Items must be added in increasing rowid order: the key order is then made by a stable
 * counting sort by word id, which keeps each word's rowids increasing, and a sort of each word's
 * run by score, priority, status and rowid. The order only decides how fast the rows go in; the table's key
 * decides where they are.
 */
export class PostingsBuffer {
  private size = 0;
  private readonly blocks: Block[] = [];
  /** Per rowid: the index of the item's (priority, status) in {@link pairs}. */
  private pairOf = new Uint32Array(BLOCK);
  private readonly pairs: { priority: number; status: string }[] = [];
  private readonly pairIds = new Map<string, number>();
  /** Postings with a count of {@link COUNT_LIMIT} or more: their exact counts. */
  private readonly large = new Map<number, [number, number, number]>();
  private lastRid = 0;

  get length(): number {
    return this.size;
  }

  /** Starts the postings of the item with this rowid (greater than the last one's). */
  item(rid: number, priority: number, status: string): void {
    if (!Number.isInteger(rid) || rid <= this.lastRid) throw new Error(`postings: rowid ${rid} after ${this.lastRid}`);
    this.lastRid = rid;
    const key = `${priority}\u0000${status}`;
    let pair = this.pairIds.get(key);
    if (pair === undefined) {
      pair = this.pairs.push({ priority, status }) - 1;
      this.pairIds.set(key, pair);
    }
    if (rid >= this.pairOf.length) {
      const grown = new Uint32Array(Math.max(rid + 1, this.pairOf.length * 2));
      grown.set(this.pairOf);
      this.pairOf = grown;
    }
    this.pairOf[rid] = pair;
  }

  /** A posting of the item started last (score: {@link storedScore}, at most 255). */
  add(wid: number, score: number, t: number, b: number, c: number): void {
    if (!Number.isInteger(score) || score < 0 || score > 0xff) throw new Error(`postings: score ${score} out of range`);
    const n = this.size;
    const at = n & (BLOCK - 1);
    if (at === 0) this.blocks.push({ wid: new Int32Array(BLOCK), rid: new Int32Array(BLOCK), score: new Uint8Array(BLOCK), counts: new Uint16Array(BLOCK * 3) });
    const block = this.blocks[n >>> BLOCK_BITS]!;
    block.wid[at] = wid;
    block.rid[at] = this.lastRid;
    block.score[at] = score;
    if (t >= COUNT_LIMIT || b >= COUNT_LIMIT || c >= COUNT_LIMIT) this.large.set(n, [t, b, c]);
    block.counts[at * 3] = Math.min(t, COUNT_LIMIT);
    block.counts[at * 3 + 1] = Math.min(b, COUNT_LIMIT);
    block.counts[at * 3 + 2] = Math.min(c, COUNT_LIMIT);
    this.size = n + 1;
  }

  /**
   * Every posting in the table's key order, as the flat parameter lists of inserts of at most
   * `chunk` rows ({@link PostingRow}'s columns, row after row). A full list is the same array
   * each time, refilled: the caller uses it before asking for the next.
   */
  *chunks(chunk: number): Generator<unknown[]> {
    const order = this.keyOrder();
    const full: unknown[] = new Array(chunk * 8);
    for (let from = 0; from < order.length; from += chunk) {
      const count = Math.min(chunk, order.length - from);
      const values = count === chunk ? full : new Array(count * 8);
      for (let k = 0; k < count; k++) this.fill(values, k * 8, order[from + k]!);
      yield values;
    }
  }

  /** Posting `n`'s columns into `values` from `at` on. */
  private fill(values: unknown[], at: number, n: number): void {
    const block = this.blocks[n >>> BLOCK_BITS]!;
    const i = n & (BLOCK - 1);
    const rid = block.rid[i]!;
    const { priority, status } = this.pairs[this.pairOf[rid]!]!;
    const large = this.large.size === 0 ? undefined : this.large.get(n);
    values[at] = block.wid[i];
    values[at + 1] = block.score[i];
    values[at + 2] = priority;
    values[at + 3] = status;
    values[at + 4] = rid;
    values[at + 5] = large ? large[0] : block.counts[i * 3];
    values[at + 6] = large ? large[1] : block.counts[i * 3 + 1];
    values[at + 7] = large ? large[2] : block.counts[i * 3 + 2];
  }

  /**
   * Indexes of the postings in key order: by word id (a stable counting sort, so each word's
   * postings stay in rowid order), then each word's run by (score desc, priority, status, index).
   * One array of 4 bytes per posting; each run is sorted as doubles `secondary * 2^32 + index`
   * in a scratch array as long as the longest run (at most one posting per item).
   */
  private keyOrder(): Uint32Array {
    const n = this.size;
    // Rank of each (priority, status) pair: by priority, then status as SQLite compares text (UTF-8 bytes).
    const ranked = this.pairs.map((pair, index) => ({ ...pair, index, bytes: Buffer.from(pair.status, 'utf8') }))
      .sort((a, b) => a.priority - b.priority || Buffer.compare(a.bytes, b.bytes));
    const pairRank = new Uint32Array(this.pairs.length);
    ranked.forEach(({ index }, rank) => (pairRank[index] = rank));
    const pairCount = Math.max(1, this.pairs.length);
    const maxScore = 0xff;
    const secondary = (index: number) => {
      const block = this.blocks[index >>> BLOCK_BITS]!;
      const i = index & (BLOCK - 1);
      return (maxScore - block.score[i]!) * pairCount + pairRank[this.pairOf[block.rid[i]!]!]!;
    };
    const widOf = (index: number) => this.blocks[index >>> BLOCK_BITS]!.wid[index & (BLOCK - 1)]!;
    let maxWid = 0;
    for (const block of this.blocks) for (const wid of block.wid) if (wid > maxWid) maxWid = wid;
    const order = countingOrder(n, (k) => k, widOf, maxWid + 1);
    const runs: [number, number][] = [];
    let longest = 0;
    for (let from = 0; from < n; ) {
      const wid = widOf(order[from]!);
      let to = from + 1;
      while (to < n && widOf(order[to]!) === wid) to++;
      runs.push([from, to]);
      longest = Math.max(longest, to - from);
      from = to;
    }
    const SHIFT = 2 ** 32;
    // secondary * 2^32 + index stays an exact double while secondary < 2^21.
    if ((maxScore + 1) * pairCount > 2 ** 21) throw new Error(`postings: ${pairCount} (priority, status) pairs`);
    const scratch = new Float64Array(longest);
    for (const [from, to] of runs) {
      const run = scratch.subarray(0, to - from);
      for (let k = from; k < to; k++) run[k - from] = secondary(order[k]!) * SHIFT + order[k]!;
      run.sort();
      for (let k = from; k < to; k++) order[k] = run[k - from]! % SHIFT;
    }
    return order;
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
