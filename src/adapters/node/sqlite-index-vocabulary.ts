import { grownTo } from '../../domain/util/typed-growth.js';
import type { SqliteStatement } from './sqlite-driver.js';

type Prepare = (sql: string) => SqliteStatement;

/** The most characters of words held; a larger vocabulary is searched in SQL. */
export const MAX_HELD_CHARS = 8_000_000;

/**
 * The index's vocabulary held in memory by a long-lived process (docs/TRACKER.md "The derived
 * index"), so finding the words that contain a search term is a string search, not a scan of
 * `vocab` in SQL (17,000 words at 100k items of the benchmark: ~1.7 ms in SQL per term, a fifth
 * of a warm search). The words are one string, each after a line feed, with each word's start
 * and id in typed arrays; a term (a word itself, so without a line feed) is found with indexOf
 * and each hit mapped to its word by a binary search. The vocabulary only grows — a word keeps
 * its id while the file lives, and words added by a transaction that rolled back are dropped
 * with {@link clear} — so {@link sync} reads only the words added since.
 */
export class HeldVocabulary {
  private text = '';
  private starts = new Int32Array(1024);
  private wids = new Int32Array(1024);
  private size = 0;
  private upTo = 0;
  private tooLarge = false;

  constructor(
    private readonly stmt: Prepare,
    private readonly maxChars = MAX_HELD_CHARS,
  ) {}

  /** Drops every word (another database file, or a transaction that rolled back). */
  clear(): void {
    this.text = '';
    this.size = 0;
    this.upTo = 0;
    this.tooLarge = false;
  }

  /**
   * The words containing `term`, as [word id, word], in word id order; undefined when the
   * vocabulary is larger than this holds or the term has a line feed (then ask SQL). Call inside
   * a read transaction: the words added since the last call are read first.
   */
  containing(term: string): [number, string][] | undefined {
    if (term.length === 0 || term.includes('\n') || !this.sync()) return undefined;
    const out: [number, string][] = [];
    for (let at = this.text.indexOf(term); at >= 0; ) {
      const k = this.wordAt(at);
      const end = k + 1 < this.size ? this.starts[k + 1]! - 1 : this.text.length;
      out.push([this.wids[k]!, this.text.slice(this.starts[k]!, end)]);
      at = this.text.indexOf(term, end + 1);
    }
    return out;
  }

  /** Reads the words added since the last sync; false when the vocabulary is too large to hold. */
  private sync(): boolean {
    if (this.tooLarge) return false;
    const top = (this.stmt('SELECT max(wid) FROM vocab').pluck().get() as number | null) ?? 0;
    if (top < this.upTo) this.clear();
    if (top === this.upTo) return true;
    const added = this.stmt('SELECT wid, word FROM vocab WHERE wid > ? AND wid <= ? ORDER BY wid').raw().all(this.upTo, top) as [number, string][];
    let text = this.text;
    for (const [wid, word] of added) {
      if (text.length + word.length + 1 > this.maxChars) {
        this.clear();
        this.tooLarge = true;
        return false;
      }
      this.starts = grownTo(this.starts, this.size + 1);
      this.wids = grownTo(this.wids, this.size + 1);
      this.starts[this.size] = text.length + 1;
      this.wids[this.size++] = wid;
      text += `\n${word}`;
    }
    this.text = text;
    this.upTo = top;
    return true;
  }

  /** The word whose characters hold position `at` (the last start at or before it). */
  private wordAt(at: number): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
