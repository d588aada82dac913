import { statSync } from 'node:fs';
import { TERMINAL_STATUSES } from '../../domain/tracker/config.js';
import type { FileSignature } from '../../ports/file-system.js';
import type { IndexChange, IndexedItem } from '../../ports/item-index-store.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-driver.js';
import type { SqliteIndexConnection } from './sqlite-index-connection.js';
import { ITEM_INSERT_COLUMNS, ITEM_INSERT_COUNT, itemValues } from './sqlite-index-sql.js';
import type { SqliteWordSearch } from './sqlite-index-search.js';
import type { PostingWord } from './sqlite-index-words.js';

/** The columns of an item's row, in {@link itemValues}' order, and each one's position. */
const ITEM_COLUMN_NAMES = ITEM_INSERT_COLUMNS.split(', ');
const ITEM_COLUMN_INDEX = new Map(ITEM_COLUMN_NAMES.map((column, k) => [column, k]));

const DIGEST_MODULUS = 2 ** 48;
/** The terminal statuses as an SQL list of literals (a fixed set of plain words). */
const TERMINAL_SQL = [...TERMINAL_STATUSES].map((status) => `'${status.replaceAll("'", "''")}'`).join(', ');
/** Transactions of at least this many changes run with a page cache of {@link LARGE_BATCH_CACHE_KIB}. */
const LARGE_BATCH = 1000;
/** Negative: KiB (SQLite's convention), 64 MiB. */
const LARGE_BATCH_CACHE_KIB = -65536;
/** A write-ahead log larger than this after a commit is written back and truncated (see truncatingLargeLog). */
const WAL_TRUNCATE_BYTES = 16 * 1024 * 1024;

/**
 * The write side of the SQLite index (docs/TRACKER.md "The derived index"): applies batches of
 * IndexChange in one transaction each, so other processes read the state before or after a
 * batch, never half of it. A change that names the signature it expects is skipped when the
 * index records another one (compare and swap: "Freshness", concurrent repairs). Rows are
 * written by difference (only the columns, tags, links and postings that changed: "What is
 * stored, and what it costs"), the readiness marks of the items a batch may affect are
 * recomputed in the same transaction, and the sum of the file hashes (the digest a freshness
 * check compares first) is kept with the rows. Large batches (a pull, a rebuild in place) run
 * with a larger page cache, and a commit that leaves a large write-ahead log truncates it.
 */
export class SqliteIndexApply {
  /**
   * @param connection the database written
   * @param words the word table's writer (its cached word ids are dropped when a batch rolls back)
   * @param committed counts a commit of this connection (its own commits leave SQLite's data_version as it was)
   */
  constructor(
    private readonly connection: SqliteIndexConnection,
    private readonly words: SqliteWordSearch,
    private readonly committed: () => void,
  ) {}

  /** Applies `changes` in one transaction; returns how many were applied (the others expected another signature). */
  apply(changes: readonly IndexChange[]): number {
    if (changes.length === 0) return 0;
    const db = this.connection.database();
    const run = db.transaction((list: readonly IndexChange[]) => {
      let digest = this.digest();
      let applied = 0;
      const touched = new Set<string>();
      const related = new Set<string>();
      for (const change of list) {
        const id = change.kind === 'item' ? change.item.id : change.kind === 'problem' ? change.problem.id : change.id;
        const current = this.stmt('SELECT size, mtime, ino, ctime, hash FROM files WHERE id = ?').get(id) as { size: number; mtime: number; ino: number; ctime: number; hash: number } | undefined;
        if (change.expected !== undefined && !sameFile(current, change.expected)) continue;
        const parent = this.stmt('SELECT parent FROM items WHERE id = ?').pluck().get(id) as string | null | undefined;
        if (parent) related.add(parent);
        if (change.kind === 'item' && change.item.parent !== undefined) related.add(change.item.parent);
        if (current) digest = modulo(digest - current.hash);
        if (change.kind !== 'item') {
          this.removeItem(id);
          touched.add(id);
        }
        if (change.kind === 'gone') this.stmt('DELETE FROM files WHERE id = ?').run(id);
        else {
          const { signature, hash, racy } = change.file;
          const problem = change.kind === 'problem' ? change.problem.message : null;
          this.stmt('INSERT OR REPLACE INTO files(id, size, mtime, ino, ctime, hash, racy, problem) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(id, signature.size, signature.mtimeMs, signature.ino, signature.ctimeMs, hash, racy ? 1 : 0, problem);
          if (change.kind === 'item' && this.upsertItem(change.item)) touched.add(id);
          digest = modulo(digest + hash);
        }
        applied++;
      }
      if (touched.size > 0) this.refreshMarks(touched, related);
      this.stmt("INSERT OR REPLACE INTO meta(key, value) VALUES ('digest', ?)").run(String(digest));
      return applied;
    });
    if (changes.length < LARGE_BATCH) return this.truncatingLargeLog(db, this.forgettingOnFailure(() => run.immediate(changes)));
    // A large batch (a rebuild, a pull) touches pages all over every B-tree: keep them in memory
    // for the transaction instead of re-reading them from the file, then give the memory back.
    const cache = db.pragma('cache_size', { simple: true }) as number;
    db.pragma(`cache_size = ${LARGE_BATCH_CACHE_KIB}`);
    try {
      return this.truncatingLargeLog(db, this.forgettingOnFailure(() => run.immediate(changes)));
    } finally {
      db.pragma(`cache_size = ${cache}`);
    }
  }

  /**
   * After a commit that left the write-ahead log larger than {@link WAL_TRUNCATE_BYTES} (a pull
   * applied by a one-shot process), writes it back and truncates it: a process that exits
   * without closing the database leaves its log behind, and the next one to open the database
   * reads all of it first (its recovery). SQLite's own checkpoints reuse the log but never
   * shrink it. A checkpoint that readers hold up is left to SQLite's next one. Returns `applied`.
   */
  private truncatingLargeLog(db: SqliteDatabase, applied: number): number {
    if ((statSync(`${this.connection.path}-wal`, { throwIfNoEntry: false })?.size ?? 0) > WAL_TRUNCATE_BYTES) db.pragma('wal_checkpoint(TRUNCATE)');
    return applied;
  }

  /** A transaction that fails rolls back the words it numbered: their cached ids are forgotten. */
  private forgettingOnFailure<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      this.words.forget();
      throw error;
    } finally {
      this.committed();
    }
  }

  /** The sum of the recorded files' hashes, mod 2^48 (0 for an empty index). */
  digest(): number {
    const row = this.stmt("SELECT value FROM meta WHERE key = 'digest'").pluck().get() as string | undefined;
    return row === undefined ? 0 : Number(row);
  }

  /** Sums the recorded hashes again and stores the sum as the digest. */
  recomputeDigest(): number {
    const run = this.connection.database().transaction(() => {
      // Summed in two halves: the plain sum of 100k 48-bit hashes overflows SQLite's 64-bit integers.
      const [low, high] = this.stmt('SELECT coalesce(sum(hash % 16777216), 0), coalesce(sum(hash / 16777216), 0) FROM files').raw().get() as [number, number];
      const digest = ((high % 16777216) * 16777216 + (low % DIGEST_MODULUS)) % DIGEST_MODULUS;
      this.stmt("INSERT OR REPLACE INTO meta(key, value) VALUES ('digest', ?)").run(String(digest));
      return digest;
    });
    return run.immediate();
  }

  /**
   * Recomputes the readiness marks of the items a transaction may have changed them for: the
   * changed items themselves, their parents before and after (`related`), and every item that
   * names a changed item as a blocker.
   */
  private refreshMarks(touched: ReadonlySet<string>, related: ReadonlySet<string>): void {
    const terminal = TERMINAL_SQL;
    // Only rows whose marks change are written (each write also rewrites their entries in items_next and items_queue).
    this.stmt(`WITH target(rid) AS (SELECT rid FROM items WHERE id IN (SELECT value FROM json_each(?)) UNION SELECT rid FROM links WHERE kind = 0 AND target IN (SELECT value FROM json_each(?))),
      marks(rid, blocked, busy) AS (SELECT i.rid,
        EXISTS (SELECT 1 FROM links l LEFT JOIN items b ON b.id = l.target WHERE l.rid = i.rid AND l.kind = 0 AND (b.status IS NULL OR b.status NOT IN (${terminal}))),
        EXISTS (SELECT 1 FROM items c WHERE c.parent = i.id AND c.status NOT IN (${terminal}))
        FROM target t JOIN items i ON i.rid = t.rid)
      UPDATE items SET blocked = m.blocked, busy = m.busy FROM marks m WHERE items.rid = m.rid AND (items.blocked <> m.blocked OR items.busy <> m.busy)`)
      .run(JSON.stringify([...touched, ...related]), JSON.stringify([...touched]));
  }

  /**
   * Inserts or replaces an item's rows, keeping its rowid. Of an indexed item only what differs
   * is written: the changed columns of its row (an UPDATE naming a column rewrites the entries
   * of every index holding it, so naming all of them would rewrite all nine indexes), its tags
   * and links when they changed, its postings by difference (SqliteWordSearch.write). Returns
   * whether the change can move readiness marks: a new item, or another status, parent or
   * blockers.
   */
  private upsertItem(item: IndexedItem): boolean {
    const previous = this.stmt(`SELECT i.rid, t.words, ${ITEM_INSERT_COLUMNS} FROM items i JOIN texts t ON t.rid = i.rid WHERE i.id = ?`).raw().get(item.id) as [number, string, ...unknown[]] | undefined;
    const values = itemValues(item);
    if (!previous) {
      const marks = Array(ITEM_INSERT_COUNT).fill('?').join(', ');
      const rid = Number(this.stmt(`INSERT INTO items(${ITEM_INSERT_COLUMNS}) VALUES (${marks})`).run(...values).lastInsertRowid);
      this.writeTexts(rid, item, undefined);
      this.insertLists(rid, item, { tags: true, links: true });
      return true;
    }
    const [rid, words, ...old] = previous;
    const changed = ITEM_COLUMN_NAMES.filter((_, k) => old[k] !== values[k]);
    if (changed.length > 0) {
      this.stmt(`UPDATE items SET ${changed.map((column) => `${column} = ?`).join(', ')} WHERE rid = ?`).run(...changed.map((column) => values[ITEM_COLUMN_INDEX.get(column)!]), rid);
    }
    const tags = changed.includes('tags');
    const links = changed.includes('blocked_by') || changed.includes('related');
    if (tags) this.stmt('DELETE FROM tags WHERE rid = ?').run(rid);
    if (links) this.stmt('DELETE FROM links WHERE rid = ?').run(rid);
    this.writeTexts(rid, item, JSON.parse(words) as PostingWord[]);
    this.insertLists(rid, item, { tags, links });
    return changed.includes('status') || changed.includes('parent') || changed.includes('blocked_by');
  }

  private writeTexts(rid: number, item: IndexedItem, previous: readonly PostingWord[] | undefined): void {
    const words = this.words.write(rid, item, previous);
    this.stmt('INSERT OR REPLACE INTO texts(rid, body_lc, comments_lc, words) VALUES (?, ?, ?, ?)').run(rid, item.text.body, item.text.comments, JSON.stringify(words));
  }

  private insertLists(rid: number, item: IndexedItem, which: { tags: boolean; links: boolean }): void {
    if (which.tags) for (const tag of new Set(item.tags)) this.stmt('INSERT INTO tags(rid, tag) VALUES (?, ?)').run(rid, tag);
    if (!which.links) return;
    for (const target of new Set(item.blockedBy)) this.stmt('INSERT INTO links(rid, kind, target) VALUES (?, 0, ?)').run(rid, target);
    for (const target of new Set(item.related)) this.stmt('INSERT INTO links(rid, kind, target) VALUES (?, 1, ?)').run(rid, target);
  }

  private removeItem(id: string): void {
    const row = this.stmt('SELECT i.rid, t.words FROM items i JOIN texts t ON t.rid = i.rid WHERE i.id = ?').raw().get(id) as [number, string] | undefined;
    if (row === undefined) return;
    const [rid, words] = row;
    this.stmt('DELETE FROM tags WHERE rid = ?').run(rid);
    this.stmt('DELETE FROM links WHERE rid = ?').run(rid);
    this.words.remove(rid, JSON.parse(words) as PostingWord[]);
    this.stmt('DELETE FROM texts WHERE rid = ?').run(rid);
    this.stmt('DELETE FROM items WHERE rid = ?').run(rid);
  }

  private stmt(sql: string): SqliteStatement {
    return this.connection.stmt(sql);
  }
}

/** value mod 2^48, for values within ±2^49 (a digest plus or minus one hash). */
function modulo(value: number): number {
  return value < 0 ? value + DIGEST_MODULUS : value >= DIGEST_MODULUS ? value - DIGEST_MODULUS : value;
}

function sameFile(recorded: { size: number; mtime: number; ino: number; ctime: number } | undefined, expected: FileSignature | null): boolean {
  if (expected === null || recorded === undefined) return expected === null && recorded === undefined;
  return recorded.size === expected.size && recorded.mtime === expected.mtimeMs && recorded.ino === expected.ino && recorded.ctime === expected.ctimeMs;
}
