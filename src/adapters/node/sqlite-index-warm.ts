import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { PACKED, type PostingColumn, type PostingColumns } from './sqlite-index-columns.js';

/** How much the warm-up reads. */
export interface WarmTuning {
  /** Postings read at most per state of the database (7 bytes each when held). */
  readonly postings: number;
  /** Words with fewer postings are left to their first search (cheap to read then). */
  readonly minPostings: number;
  /** Time between the starts of two warm-ups at least, in ms: a burst of writes (each commit drops the columns) starts one, not one per write. */
  readonly intervalMs: number;
}

export const DEFAULT_WARM: WarmTuning = { postings: 2_500_000, minPostings: 500, intervalMs: 10_000 };

/** The worker's heap: small (it holds one word's text at a time), so the process's peak memory stays low. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16, codeRangeSizeMb: 8 };

/** What the worker posts: one word's column, then `done`. */
type WarmMessage = { wid: number; buffers: [ArrayBuffer, ArrayBuffer, ArrayBuffer, ArrayBuffer] } | { done: true; error?: string };

/**
 * The worker's code (CommonJS, evaluated: the bundles and the compiled sources hold no separate
 * file for it). In one read transaction, so every column is of one committed state: counts each
 * word's postings, then reads the words with most postings first, each as the text
 * PostingColumns.of reads, sorted by packed value (rowid first: rowid order, as of gives).
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { driver, path, packed, postings, minPostings } = workerData;
let db;
try {
  // Linux nice values are per thread: this one yields to the thread answering requests.
  try { require('node:os').setPriority(19); } catch {}
  db = new (require(driver))(path, { readonly: true, fileMustExist: true });
  db.pragma('cache_size = -512');
  db.exec('BEGIN');
  const counts = db.prepare('SELECT wid, count(*) FROM postings GROUP BY wid').raw().all().filter(([, n]) => n >= minPostings).sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  const read = db.prepare('SELECT group_concat(' + packed + ') FROM postings WHERE wid = ?').pluck();
  let left = postings;
  for (const [wid, n] of counts) {
    if (n > left) break;
    left -= n;
    const text = read.get(wid) || '';
    const values = new Float64Array(n);
    let k = 0, value = 0;
    for (let at = 0; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code !== 44) value = value * 10 + code - 48;
      else { values[k++] = value; value = 0; }
    }
    if (text.length > 0) values[k++] = value;
    const sorted = values.subarray(0, k).sort();
    const rids = new Int32Array(k), t = new Uint8Array(k), b = new Uint8Array(k), c = new Uint8Array(k);
    for (let i = 0; i < k; i++) {
      const rid = Math.floor(sorted[i] / 16777216);
      const counts = sorted[i] - rid * 16777216;
      rids[i] = rid; t[i] = counts >> 16; b[i] = (counts >> 8) & 255; c[i] = counts & 255;
    }
    const buffers = [rids.buffer, t.buffer, b.buffer, c.buffer];
    parentPort.postMessage({ wid, buffers }, buffers);
  }
  parentPort.postMessage({ done: true });
} catch (error) {
  parentPort.postMessage({ done: true, error: String(error && error.message || error) });
} finally {
  if (db) db.close();
}
`;

/**
 * Reads the posting columns of the most frequent words ahead of their first search in a
 * long-lived process (docs/TRACKER.md "The derived index"): the first read of a frequent word
 * is a pass over tens of thousands of postings, which the search needing it would pay. A worker
 * thread reads them over its own read-only connection, so no request waits for it; the columns
 * arrive as transferred typed arrays and {@link PostingColumns.adopt} takes each only while the
 * database is still at the state the warm-up began at, so a warmed column is the one
 * {@link PostingColumns.of} would read. A commit drops the columns; the next {@link start}
 * (after a query) reads them again. Under Bun (no better-sqlite3) there is no warm-up.
 */
export class PostingWarmer {
  private worker: Worker | undefined;
  /** The state of the database warmed last (or being warmed). */
  private warmed: string | undefined;
  private startedAt = -Infinity;

  /**
   * @param path the database file
   * @param onDone called when a warm-up ends (tests wait for it)
   */
  constructor(
    private readonly path: string,
    private readonly columns: PostingColumns,
    private readonly tuning: WarmTuning = DEFAULT_WARM,
    private readonly onDone: (adopted: number, error?: string) => void = () => {},
  ) {}

  /** Whether a warm-up is under way. */
  get busy(): boolean {
    return this.worker !== undefined;
  }

  /** Starts warming the current state of the database, unless it is warm or being warmed. */
  start(): void {
    if (this.worker || (process.versions as { bun?: string }).bun || !this.columns.sync()) return;
    const state = this.columns.state!;
    if (state === this.warmed || performance.now() - this.startedAt < this.tuning.intervalMs) return;
    this.warmed = state;
    this.startedAt = performance.now();
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER, { eval: true, workerData: { driver, path: this.path, packed: PACKED, postings: this.tuning.postings, minPostings: this.tuning.minPostings }, resourceLimits: WORKER_LIMITS });
    this.worker = worker;
    worker.unref();
    let adopted = 0;
    const end = (error?: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.onDone(adopted, error);
    };
    worker.on('message', (message: WarmMessage) => {
      if ('done' in message) return end(message.error);
      // Views made here, on the buffers only: typed arrays as the message brings them make the sums several times slower.
      const [rids, t, b, c] = message.buffers;
      const column: PostingColumn = { rids: new Int32Array(rids), t: new Uint8Array(t), b: new Uint8Array(b), c: new Uint8Array(c) };
      const { wid } = message;
      if (this.columns.adopt(wid, column, state)) adopted++;
    });
    worker.on('error', (error) => end(error.message));
    worker.on('exit', () => end());
  }

  /** Stops a warm-up under way and forgets the state warmed (another database file, or a transaction that rolled back). */
  forget(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.warmed = undefined;
    if (worker) void worker.terminate();
  }
}
