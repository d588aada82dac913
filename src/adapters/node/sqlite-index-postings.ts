import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { grownTo } from '../../domain/util/typed-growth.js';
import { encodeColumn, MAX_COUNT, type PostingColumn } from './sqlite-index-column-codec.js';

/** Postings per block: what is written to the spill file at once, and read back at once. */
const BLOCK = 1 << 16;
/**
 * Postings gathered per pass over the spill file at the end (a word with more gets a pass of
 * its own): 7 bytes each, so ~7 MB of columns in memory at a time.
 */
export const PASS_POSTINGS = 1 << 20;

/** One block of postings as three typed arrays (written and read back as they are). */
class Block {
  readonly wid = new Int32Array(BLOCK);
  readonly rid = new Int32Array(BLOCK);
  /** t, b, c of each posting, capped at {@link MAX_COUNT}. */
  readonly counts = new Uint8Array(BLOCK * 3);

  /** The block's first `n` postings as the file holds them: the word ids, the rowids, the counts. */
  parts(n: number): Uint8Array[] {
    return [new Uint8Array(this.wid.buffer, 0, 4 * n), new Uint8Array(this.rid.buffer, 0, 4 * n), this.counts.subarray(0, 3 * n)];
  }
}

/**
 * The postings of a first build (docs/TRACKER.md "The first build"), spilled to a file next to
 * the build file as they come, item by item, and handed out at the end as each word's stored
 * column (`word_columns`), in word id order. Memory stays small whatever the tracker's size:
 * one block being written, a count per word id, and at the end the columns of the words of one
 * pass ({@link PASS_POSTINGS}); each pass reads the file once, in order (from the page cache:
 * it was just written), and keeps the postings of its range of word ids. Items are added in
 * increasing rowid order, so each word's postings come back in rowid order, the column's order.
 */
export class PostingsSpill {
  private readonly fd: number;
  private readonly block = new Block();
  private filled = 0;
  private size = 0;
  private lastRid = 0;
  private perWord = new Int32Array(1024);
  private maxWid = -1;
  private closed = false;

  /**
   * @param path the spill file (replaced if present; removed by {@link close})
   * @param passPostings postings gathered per pass at the end ({@link PASS_POSTINGS})
   */
  constructor(
    private readonly path: string,
    private readonly passPostings = PASS_POSTINGS,
  ) {
    rmSync(path, { force: true });
    this.fd = openSync(path, 'w+');
  }

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
    if (!Number.isInteger(wid) || wid < 0) throw new Error(`postings: word id ${wid}`);
    const at = this.filled;
    const block = this.block;
    block.wid[at] = wid;
    block.rid[at] = this.lastRid;
    block.counts[at * 3] = Math.min(t, MAX_COUNT);
    block.counts[at * 3 + 1] = Math.min(b, MAX_COUNT);
    block.counts[at * 3 + 2] = Math.min(c, MAX_COUNT);
    this.count(wid);
    this.size++;
    if (++this.filled === BLOCK) this.flush();
  }

  /**
   * Every word's column in `word_columns`' stored form, in word id order: [word id, bytes]. The
   * bytes are valid until the next column is asked for (one buffer serves every column).
   */
  *columns(): Generator<[number, Uint8Array]> {
    this.flush();
    const scratch = { bytes: new Uint8Array(0) };
    const passes = [...this.passes()];
    // One set of arrays for every pass: a pass's arrays are garbage the moment the next starts,
    // and typed arrays are freed only by a full collection (tens of MB at 100,000 items).
    const room = emptyColumn(Math.max(0, ...passes.map(([, , total]) => total)));
    for (const [lo, hi, total] of passes) {
      const pass = this.gather(lo, hi, slice(room, 0, total));
      for (let wid = lo, from = 0; wid < hi; wid++) {
        const n = this.perWord[wid]!;
        if (n === 0) continue;
        yield [wid, encodeInto(slice(pass, from, from + n), scratch)];
        from += n;
      }
    }
  }

  /** Closes and removes the spill file (once; also after a failed build). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    rmSync(this.path, { force: true });
  }

  private count(wid: number): void {
    this.perWord = grownTo(this.perWord, wid + 1);
    this.perWord[wid]!++;
    if (wid > this.maxWid) this.maxWid = wid;
  }

  private flush(): void {
    if (this.filled === 0) return;
    for (const part of this.block.parts(this.filled)) writeSync(this.fd, part);
    this.filled = 0;
  }

  /** Ranges [lo, hi) of word ids whose postings add up to at most the pass's size (or one word's), with that sum. */
  private *passes(): Generator<[number, number, number]> {
    let lo = 0;
    let total = 0;
    for (let wid = 0; wid <= this.maxWid; wid++) {
      const n = this.perWord[wid]!;
      if (total > 0 && total + n > this.passPostings) {
        yield [lo, wid, total];
        lo = wid;
        total = 0;
      }
      total += n;
    }
    if (total > 0) yield [lo, this.maxWid + 1, total];
  }

  /** The postings of the words in [lo, hi) into `out` (exactly their number), word by word, each word's in file (rowid) order. */
  private gather(lo: number, hi: number, out: PostingColumn): PostingColumn {
    const next = new Int32Array(hi - lo);
    for (let wid = lo, at = 0; wid < hi; wid++) {
      next[wid - lo] = at;
      at += this.perWord[wid]!;
    }
    const { wid, rid, counts } = this.block;
    let position = 0;
    for (let from = 0; from < this.size; from += BLOCK) {
      const n = Math.min(BLOCK, this.size - from);
      for (const part of this.block.parts(n)) position += readFully(this.fd, part, position);
      for (let i = 0; i < n; i++) {
        const w = wid[i]! - lo;
        if (w < 0 || w >= next.length) continue;
        const k = next[w]!++;
        out.rids[k] = rid[i]!;
        out.t[k] = counts[i * 3]!;
        out.b[k] = counts[i * 3 + 1]!;
        out.c[k] = counts[i * 3 + 2]!;
      }
    }
    return out;
  }
}

function emptyColumn(n: number): PostingColumn {
  return { rids: new Int32Array(n), t: new Uint8Array(n), b: new Uint8Array(n), c: new Uint8Array(n) };
}

function slice(column: PostingColumn, from: number, to: number): PostingColumn {
  return { rids: column.rids.subarray(from, to), t: column.t.subarray(from, to), b: column.b.subarray(from, to), c: column.c.subarray(from, to) };
}

/** {@link encodeColumn} into a buffer kept across columns (grown when a column needs more). */
function encodeInto(column: PostingColumn, scratch: { bytes: Uint8Array }): Uint8Array {
  const size = 7 * column.rids.length;
  if (scratch.bytes.length < size) scratch.bytes = new Uint8Array(Math.max(size, 2 * scratch.bytes.length));
  return encodeColumn(column, scratch.bytes.subarray(0, size));
}

/** Reads `into.length` bytes at `position`; the spill file was written by this process, so a short read is an error. */
function readFully(fd: number, into: Uint8Array, position: number): number {
  let done = 0;
  while (done < into.length) {
    const read = readSync(fd, into, done, into.length - done, position + done);
    if (read === 0) throw new Error(`postings: the spill file ended at byte ${position + done}`);
    done += read;
  }
  return done;
}
