import type { FileSystem } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import { CorruptDataError, StorageError } from '../errors/index.js';
import { utf8Length } from '../util/utf8.js';
import { BoundedCache } from '../util/bounded-cache.js';
import { digestOf } from './digests.js';
import { HISTORY_FILE_READ, refuseUnlessRegular } from './file-caps.js';
import { encodeHistoryLine, splitInterruptedAppend, verifyHistoryChain, type ChainFault, type HistoryEntry } from './history.js';
import type { TrackerPaths } from './tracker-paths.js';

/** The last line of an item's history, as seen at one file size and inode. */
export interface HistoryHead {
  readonly size: number;
  readonly ino: number;
  readonly seq: number;
  readonly digest: string | null;
  readonly last: HistoryEntry | undefined;
  /** What verifying the whole chain at this size found (empty: intact); undefined until verified. */
  readonly faults?: readonly ChainFault[];
  /**
   * Set when the file ends in a line without its newline: an append that did not finish (a
   * full disk, a killed writer). `keep` is the size of the complete lines before it, `text` the
   * torn line. The other fields describe the complete lines. The next write settles it
   * ({@link HistoryLog.settleTail}).
   */
  readonly torn?: { readonly keep: number; readonly text: string };
}

const TAIL_BYTES = 64 * 1024;
/**
 * How many heads a {@link HistoryLog} keeps: a mutation reads its item's head and appends to it
 * at once, so a few would do; more keep repeated changes of the items a session works on cheap.
 */
export const HISTORY_HEADS_LIMIT = 1024;
const EMPTY: HistoryHead = { size: 0, ino: -1, seq: 0, digest: null, last: undefined };

/**
 * Appends to and reads the per-item history files. Appends happen only under the tracker's
 * write lock; the head (last line and its digest) is cached by file size and inode so an
 * append costs one stat and one write, not a read of the chain's tail.
 *
 * A line counts once its newline is on disk (docs/TRACKER.md "What reaches the disk when"): an
 * append that fails is cut back to the size the file had, and a final line without its newline
 * (left by a writer killed mid-append, or a cut that failed too) is an interrupted append —
 * readers skip it, and the next write completes it when it is a whole line that continues the
 * chain, or cuts it off otherwise ({@link settleTail}).
 */
export class HistoryLog {
  /**
   * @param heads the head of each recently read or appended history, by item id, checked
   *   against the file's size and inode on every use. A speed-up only: a forgotten or bypassed
   *   head is read again from the file's tail (tests pass a small one to check its bound).
   */
  constructor(
    private readonly fs: FileSystem,
    private readonly hasher: Hasher,
    private readonly paths: TrackerPaths,
    private readonly heads = new BoundedCache<string, HistoryHead>('history heads', HISTORY_HEADS_LIMIT),
  ) {}

  /** The last entry of an item's history (undefined when it has none). */
  async last(itemId: string): Promise<HistoryEntry | undefined> {
    return (await this.head(itemId)).last;
  }

  /** Appends one entry, filling in seq and the chain link; returns the entry as written. */
  async append(itemId: string, entry: Omit<HistoryEntry, 'seq' | 'prev'>): Promise<HistoryEntry> {
    const prepared = this.prepare(await this.head(itemId), entry);
    await this.appendPrepared(itemId, [prepared.line], prepared.head);
    return prepared.entry;
  }

  /**
   * The line that would follow `head` (seq and chain link filled in) and the head it would make,
   * without writing anything: a write batch links several lines of one item in memory and
   * appends them with one {@link appendPrepared}.
   */
  prepare(head: HistoryHead, entry: Omit<HistoryEntry, 'seq' | 'prev'>): { entry: HistoryEntry; line: string; head: HistoryHead } {
    const full: HistoryEntry = { ...entry, seq: head.seq + 1, prev: head.digest };
    const line = encodeHistoryLine(full);
    // A line linked to the verified head keeps the chain's verdict: appending cannot repair or break it.
    return { entry: full, line, head: { size: head.size, ino: head.ino, seq: full.seq, digest: digestOf(this.hasher, line), last: full, ...(head.faults ? { faults: head.faults } : {}) } };
  }

  /**
   * Appends prepared lines (in order, one write) and remembers `head`, the head the last of
   * them made, at the file's new size and inode.
   */
  async appendPrepared(itemId: string, lines: readonly string[], head: HistoryHead): Promise<void> {
    if (lines.length === 0) return;
    if (head.torn) throw new Error(`history of ${itemId}: settle its interrupted append before appending`);
    const path = this.paths.historyFile(itemId);
    try {
      await this.fs.append(path, `${lines.join('\n')}\n`);
    } catch (error) {
      // What a full disk took of the lines is cut off again, so the file ends where it did.
      throw (await this.cutBack(itemId, head)) ? error : notCutBack(error);
    }
    const sig = await this.fs.stat(path);
    this.heads.set(itemId, { ...head, size: sig?.size ?? 0, ino: sig?.ino ?? -1 });
  }

  /**
   * Cuts the history back to the size it had at `base` (a head taken before an append; the
   * file is removed when it had none), undoing lines whose item file could not be written.
   * Under the write lock only. False when the cut failed too (the lines stay: see {@link settleTail}).
   */
  async cutBack(itemId: string, base: Pick<HistoryHead, 'size' | 'ino'>): Promise<boolean> {
    const path = this.paths.historyFile(itemId);
    this.heads.delete(itemId);
    try {
      if (base.ino === -1) await this.fs.remove(path);
      else await this.fs.truncate(path, base.size);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Settles an interrupted append at the end of the item's history before a write extends it
   * (under the write lock): a final line without its newline is completed when it is a whole
   * line in canonical form that continues the chain (only its newline was lost), and cut off
   * otherwise — it was never acknowledged, and an idempotent retry finds its receipt missing and
   * runs again. Returns the head after settling.
   */
  async settleTail(itemId: string): Promise<HistoryHead> {
    const head = await this.head(itemId);
    if (!head.torn) return head;
    const path = this.paths.historyFile(itemId);
    const whole = this.continues(head, head.torn.text);
    this.heads.delete(itemId);
    if (whole) await this.fs.append(path, '\n');
    else if (head.torn.keep === 0) await this.fs.remove(path);
    else await this.fs.truncate(path, head.torn.keep);
    return this.head(itemId);
  }

  /** Whether `text` is a whole line in canonical form that follows `head`'s last line. */
  private continues(head: HistoryHead, text: string): boolean {
    let entry: HistoryEntry;
    try {
      entry = JSON.parse(text) as HistoryEntry;
    } catch {
      return false;
    }
    if (!entry || typeof entry !== 'object' || encodeHistoryLine(entry) !== text) return false;
    return entry.op !== 'merge' && entry.prev === head.digest && entry.seq === head.seq + 1;
  }

  /**
   * Verifies the item's whole chain with the check `pm validate` runs ({@link verifyHistoryChain}):
   * the problems found, empty when intact or when there is no history. The verdict is kept with
   * the head (by file size and inode), so a run of mutations of one item reads its chain once.
   */
  async verify(itemId: string): Promise<{ entries: HistoryEntry[]; faults: readonly ChainFault[] }> {
    const path = this.paths.historyFile(itemId);
    const sig = await this.fs.stat(path);
    refuseUnlessRegular(path, sig);
    const read = sig ? await this.fs.readText(path, HISTORY_FILE_READ) : undefined;
    if (!sig || read === undefined) return { entries: [], faults: [] };
    // An interrupted final append is no part of the chain (settleTail completes or cuts it).
    const { complete: text, torn } = splitInterruptedAppend(read);
    const result = verifyHistoryChain(text, itemId, (line) => digestOf(this.hasher, line));
    const lines = text.split('\n').filter((line) => line.length > 0);
    const last = result.entries[result.entries.length - 1];
    // Kept as the head only when it is one: every line parsed and the text is the whole file.
    if (last && torn === undefined && result.entries.length === lines.length && new TextEncoder().encode(text).length === sig.size) {
      this.heads.set(itemId, { size: sig.size, ino: sig.ino, seq: last.seq, digest: digestOf(this.hasher, lines[lines.length - 1]!), last, faults: result.faults });
    }
    return result;
  }

  /** The chain's problems, verified once per head (see {@link verify}). */
  async faults(itemId: string): Promise<readonly ChainFault[]> {
    const head = await this.head(itemId);
    if (head === EMPTY) return [];
    if (head.faults) return head.faults;
    return (await this.verify(itemId)).faults;
  }

  /** Every complete entry of an item's history, oldest first (an interrupted final append is left out). */
  async read(itemId: string): Promise<HistoryEntry[]> {
    const text = await this.fs.readText(this.paths.historyFile(itemId), HISTORY_FILE_READ);
    if (text === undefined) return [];
    return splitInterruptedAppend(text).complete.split('\n').filter((line) => line.length > 0).map((line, index) => this.parse(line, itemId, index + 1));
  }

  /** Whether an item has (or had) a history file; ids are never reused. */
  async exists(itemId: string): Promise<boolean> {
    return (await this.fs.stat(this.paths.historyFile(itemId))) !== undefined;
  }

  /** The item's head as the file holds it now (checked by size and inode); seq 0 and no line when it has no history. */
  async head(itemId: string): Promise<HistoryHead> {
    const path = this.paths.historyFile(itemId);
    const sig = await this.fs.stat(path);
    refuseUnlessRegular(path, sig);
    if (!sig || sig.size === 0) return EMPTY;
    const cached = this.heads.get(itemId);
    if (cached && cached.size === sig.size && cached.ino === sig.ino) return cached;
    const { line, torn } = await this.tail(path, sig.size);
    const last = line === undefined ? undefined : this.parse(line, itemId, undefined);
    const head: HistoryHead = {
      size: sig.size,
      ino: sig.ino,
      seq: last?.seq ?? 0,
      digest: line === undefined ? null : digestOf(this.hasher, line),
      last,
      ...(torn ? { torn } : {}),
    };
    this.heads.set(itemId, head);
    return head;
  }

  /**
   * The last complete line of a file of `size` bytes, and the torn line after it when the file
   * does not end in a newline (then the whole file is read: its complete lines' byte length is
   * counted from the start, never from a window that may begin inside a character).
   */
  private async tail(path: string, size: number): Promise<{ line: string | undefined; torn: HistoryHead['torn'] }> {
    const start = Math.max(0, size - TAIL_BYTES);
    let text = await this.fs.readTextRange(path, start, size, HISTORY_FILE_READ);
    const torn = !text.endsWith('\n');
    if (start > 0 && (torn || text.replace(/\n+$/, '').lastIndexOf('\n') < 0)) text = (await this.fs.readText(path, HISTORY_FILE_READ)) ?? '';
    const end = text.lastIndexOf('\n');
    const trimmed = text.slice(0, end + 1).replace(/\n+$/, '');
    const line = trimmed === '' ? undefined : trimmed.slice(trimmed.lastIndexOf('\n') + 1);
    return { line, torn: torn ? { keep: utf8Length(text.slice(0, end + 1)), text: text.slice(end + 1) } : undefined };
  }

  private parse(line: string, itemId: string, lineNumber: number | undefined): HistoryEntry {
    try {
      return JSON.parse(line) as HistoryEntry;
    } catch {
      const where = lineNumber ? `line ${lineNumber}` : 'last line';
      throw new CorruptDataError(`history of ${itemId}: ${where} is not valid JSON; run 'pm validate'`, { itemId, file: this.paths.historyFile(itemId) });
    }
  }
}

/** A failed append whose partial text could not be cut off either: the next write settles it. */
function notCutBack(error: unknown): unknown {
  return error instanceof StorageError ? error.about('the history line could not be cut back after the failed append; the next write settles it', { cutBack: false }) : error;
}
