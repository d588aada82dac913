import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { TERMINAL_STATUSES } from '../../domain/tracker/config.js';
import type { FileSignature } from '../../ports/file-system.js';
import type {
  FileComparison,
  IndexBuild,
  IndexChange,
  IndexedFile,
  IndexedItem,
  IndexOpening,
  IndexOverview,
  IndexPage,
  IndexPageQuery,
  IndexProblem,
  ItemIndexStore,
  Readiness,
  ReadinessQuery,
  ScannedFile,
  SearchCandidate,
  SearchCandidatesQuery,
  SearchTop,
  SearchTopQuery,
} from '../../ports/item-index-store.js';
import { CORRUPT_CODES, SQLITE_INDEX_COUNTS_DDL, SQLITE_INDEX_DDL, SQLITE_INDEX_SCHEMA, SQLITE_INDEX_TABLES } from './sqlite-index-schema.js';
import { SqliteIndexCounts } from './sqlite-index-counts.js';
import { sqliteOpener, type SqliteDatabase, type SqliteOpener, type SqliteStatement } from './sqlite-driver.js';
import { filterSql, type SqlCondition, ITEM_COLUMNS, ITEM_INSERT_COLUMNS, ITEM_INSERT_COUNT, ITEM_SOURCE, itemValues, rowToItem, sortColumns, type ItemRow } from './sqlite-index-sql.js';
import { SqliteWordSearch, type PostingKeys } from './sqlite-index-search.js';
import type { PostingWord } from './sqlite-index-words.js';
import { SqliteIndexBuild, takeBuildLock } from './sqlite-index-build.js';

type Database = SqliteDatabase;
type Statement = SqliteStatement;

/**
 * How {@link SqliteItemIndex.page} finds a page. With at least `sortBelow` matches it walks the
 * sort's index, testing at most `walk` rows; otherwise (or when the walk found too few) it
 * sorts the matching rowids. `keptCounts` (default true) takes totals and next's counts from
 * the kept counts where they cover the filter (sqlite-index-counts.ts); false counts every
 * match. Either way the answer is the same; only the cost differs.
 */
export interface PageTuning {
  readonly sortBelow: number;
  readonly walk: number;
  readonly keptCounts?: boolean;
  /**
   * Sum searches over posting columns read into memory (sqlite-index-columns.ts; default true);
   * false: in SQL. The columns pay off in a long-lived process that searches again; a one-shot
   * process reads each word's postings once, and copying them costs it more memory than summing
   * them in SQL (docs/TRACKER.md "The derived index"), so the composition turns them off there.
   */
  readonly postingColumns?: boolean;
}

/** The tuning {@link SqliteItemIndex} uses unless given another. */
export const DEFAULT_TUNING: PageTuning = { sortBelow: 2000, walk: 5000, keptCounts: true, postingColumns: true };

/** The index that holds the items in each list order (the sort fields, id last). */
const SORT_INDEXES: Readonly<Record<string, string>> = {
  'priority,created,id': 'items_priority',
  'created,id': 'items_created',
  'updated,id': 'items_updated',
  'titleText,id': 'items_title',
  id: 'sqlite_autoindex_items_1',
};

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
/** How long a statement waits for another process's write to the database (ms). */
const BUSY_TIMEOUT_MS = 15_000;

/**
 * The ItemIndexStore port over SQLite (better-sqlite3, or bun:sqlite under Bun: sqlite-driver.ts), in the tracker's git-ignored runtime
 * area, shared by every pm process of the tracker. WAL mode: readers never wait for a writer
 * and each read sees one committed state; commits are not fsynced (synchronous=NORMAL), since
 * the index is derived and a damaged one is rebuilt from the item files.
 *
 * The native module is loaded on the first {@link open}, so a command that never queries the
 * index (pm get) does not pay for it.
 */
export class SqliteItemIndex implements ItemIndexStore {
  private db: Database | undefined;
  private ino: number | undefined;
  private readonly statements = new Map<string, Statement>();
  /** Commits of this connection (its own commits leave SQLite's data_version as it was). */
  private commits = 0;
  private readonly words = new SqliteWordSearch(
    (sql) => this.stmt(sql),
    () => (this.tuning.postingColumns === false ? undefined : `${this.stmt('PRAGMA data_version').pluck().get() as number}:${this.commits}`),
  );
  private readonly counts = new SqliteIndexCounts((sql) => this.stmt(sql));

  /**
   * @param path the database file (created with its directory when missing)
   * @param opener how to open it; default: this runtime's driver, loaded at the first open
   * @param tuning when a page walks the sort's index instead of sorting the matches
   */
  constructor(
    private readonly path: string,
    private readonly opener?: SqliteOpener,
    private readonly tuning: PageTuning = DEFAULT_TUNING,
  ) {}

  open(): IndexOpening {
    const sig = statSync(this.path, { throwIfNoEntry: false });
    if (this.db && sig && sig.ino === this.ino) return { created: false };
    this.closeDb();
    if (!sig) return this.create('missing');
    try {
      const db = this.connect();
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version !== SQLITE_INDEX_SCHEMA) {
        this.reset(db);
        return { created: true, reason: 'schema' };
      }
      db.prepare('SELECT count(*) FROM files').get();
      return { created: false };
    } catch (error) {
      if (!isCorruption(error)) throw error;
      this.closeDb();
      this.removeFiles();
      return this.create('corrupt');
    }
  }

  /**
   * The build file and its lock sit next to the database. 'replaced' when the index holds items
   * by the time the lock is taken (another process built it meanwhile).
   */
  startBuild(): IndexBuild | 'busy' | 'replaced' {
    const db = this.requireDb();
    const lock = `${this.path}.build.lock`;
    if (!takeBuildLock(lock)) return 'busy';
    if (statSync(this.path, { throwIfNoEntry: false })?.ino !== this.ino || this.size() > 0) {
      rmSync(lock, { force: true });
      return 'replaced';
    }
    return new SqliteIndexBuild(db, `${this.path}.build`, this.opener ?? sqliteOpener(), () => {
      this.commits++;
      rmSync(lock, { force: true });
    });
  }

  apply(changes: readonly IndexChange[]): number {
    if (changes.length === 0) return 0;
    const db = this.requireDb();
    const run = db.transaction((list: readonly IndexChange[]) => {
      let digest = this.digest();
      let applied = 0;
      const touched = new Set<string>();
      const related = new Set<string>();
      for (const change of list) {
        const id = change.kind === 'item' ? change.item.id : change.kind === 'problem' ? change.problem.id : change.id;
        const current = this.stmt('SELECT size, mtime, ino, hash FROM files WHERE id = ?').get(id) as { size: number; mtime: number; ino: number; hash: number } | undefined;
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
          this.stmt('INSERT OR REPLACE INTO files(id, size, mtime, ino, hash, racy, problem) VALUES (?, ?, ?, ?, ?, ?, ?)').run(id, signature.size, signature.mtimeMs, signature.ino, hash, racy ? 1 : 0, problem);
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
  private truncatingLargeLog(db: Database, applied: number): number {
    if ((statSync(`${this.path}-wal`, { throwIfNoEntry: false })?.size ?? 0) > WAL_TRUNCATE_BYTES) db.pragma('wal_checkpoint(TRUNCATE)');
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
      this.commits++;
    }
  }

  digest(): number {
    const row = this.stmt("SELECT value FROM meta WHERE key = 'digest'").pluck().get() as string | undefined;
    return row === undefined ? 0 : Number(row);
  }

  recomputeDigest(): number {
    const run = this.requireDb().transaction(() => {
      // Summed in two halves: the plain sum of 100k 48-bit hashes overflows SQLite's 64-bit integers.
      const [low, high] = this.stmt('SELECT coalesce(sum(hash % 16777216), 0), coalesce(sum(hash / 16777216), 0) FROM files').raw().get() as [number, number];
      const digest = ((high % 16777216) * 16777216 + (low % DIGEST_MODULUS)) % DIGEST_MODULUS;
      this.stmt("INSERT OR REPLACE INTO meta(key, value) VALUES ('digest', ?)").run(String(digest));
      return digest;
    });
    return run.immediate();
  }

  files(): Map<string, IndexedFile> {
    const out = new Map<string, IndexedFile>();
    for (const [id, size, mtimeMs, ino, hash, racy] of this.stmt('SELECT id, size, mtime, ino, hash, racy FROM files').raw().iterate() as IterableIterator<[string, number, number, number, number, number]>) {
      out.set(id, { signature: { size, mtimeMs, ino }, hash, racy: racy === 1 });
    }
    return out;
  }

  /** The comparison runs in SQL over the scan passed as one JSON array, so 100k recorded files never become JavaScript objects. */
  compareFiles(scanned: readonly ScannedFile[]): FileComparison {
    const json = JSON.stringify(scanned.map(({ id, hash }) => [id, hash]));
    const read = this.requireDb().transaction(() => {
      const changed = (this.stmt("WITH scan(i, id, hash) AS (SELECT key, value ->> 0, value ->> 1 FROM json_each(?)) SELECT s.i, f.size, f.mtime, f.ino FROM scan s LEFT JOIN files f ON f.id = s.id WHERE f.id IS NULL OR f.hash <> s.hash").raw().all(json) as [number, number | null, number | null, number | null][])
        .map(([index, size, mtimeMs, ino]) => ({ index, expected: size === null ? null : { size, mtimeMs: mtimeMs!, ino: ino! } }));
      const gone = (this.stmt('SELECT id, size, mtime, ino FROM files WHERE id NOT IN (SELECT value ->> 0 FROM json_each(?))').raw().all(json) as [string, number, number, number][])
        .map(([id, size, mtimeMs, ino]) => ({ id, expected: { size, mtimeMs, ino } }));
      return { changed, gone };
    });
    return read.deferred();
  }

  fileOf(id: string): IndexedFile | undefined {
    const row = this.stmt('SELECT size, mtime, ino, hash, racy FROM files WHERE id = ?').raw().get(id) as [number, number, number, number, number] | undefined;
    return row ? { signature: { size: row[0], mtimeMs: row[1], ino: row[2] }, hash: row[3], racy: row[4] === 1 } : undefined;
  }

  racy(): string[] {
    return this.stmt('SELECT id FROM files WHERE racy = 1 ORDER BY id').pluck().all() as string[];
  }

  note(key: string): string | undefined {
    return this.stmt('SELECT value FROM meta WHERE key = ?').pluck().get(`note:${key}`) as string | undefined;
  }

  setNote(key: string, value: string): void {
    this.stmt('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(`note:${key}`, value);
  }

  get(id: string): IndexedItem | undefined {
    const row = this.stmt(`SELECT ${ITEM_COLUMNS} FROM ${ITEM_SOURCE} WHERE i.id = ?`).raw().get(id) as ItemRow | undefined;
    return row ? rowToItem(row) : undefined;
  }

  getMany(ids: readonly string[]): IndexedItem[] {
    return ids.map((id) => this.get(id)).filter((item): item is IndexedItem => item !== undefined);
  }

  size(): number {
    return this.stmt('SELECT count(*) FROM items').pluck().get() as number;
  }

  /**
   * A page in two steps: the rowids first, then the rows of just those (sorting rowids and
   * keys, never the texts). When many items match, the sort's index is walked in order with
   * the filter tested per row, at most {@link PageTuning.walk} rows; a walk that finds too few
   * (the matches lie far down the order) and small match sets are sorted instead.
   */
  page(query: IndexPageQuery): IndexPage {
    const where = filterSql(query.filter);
    const columns = sortColumns(query.sort);
    const direction = query.descending ? 'DESC' : 'ASC';
    const order = columns.map((column) => `${column} ${direction}`).join(', ');
    const after = query.after ? ` AND (${columns.join(', ')}) ${query.descending ? '<' : '>'} (${columns.map(() => '?').join(', ')})` : '';
    const afterParams = query.after ?? [];
    const read = this.requireDb().transaction(() => {
      const total = (this.tuning.keptCounts !== false ? this.counts.total(query.filter) : undefined)
        ?? (this.stmt(`SELECT count(*) FROM items i WHERE ${where.sql}`).pluck().get(...where.params) as number);
      let rids: number[] | undefined;
      const index = SORT_INDEXES[query.sort.join(',')];
      if (index && total >= this.tuning.sortBelow) {
        const walked = this.stmt(`SELECT rid, ok FROM (SELECT i.rid AS rid, (${where.sql}) AS ok FROM items i INDEXED BY ${index} WHERE 1${after} ORDER BY ${order} LIMIT ?) WHERE ok LIMIT ?`)
          .raw().all(...where.params, ...afterParams, this.tuning.walk, query.limit) as [number, number][];
        if (walked.length === query.limit) rids = walked.map(([rid]) => rid);
      }
      rids ??= this.stmt(`SELECT i.rid FROM items i WHERE ${where.sql}${after} ORDER BY ${order} LIMIT ?`).pluck().all(...where.params, ...afterParams, query.limit) as number[];
      return { items: this.rowsOf(rids), total };
    });
    return read.deferred();
  }

  /**
   * The counts come from the kept counts (sqlite-index-counts.ts) or, for a tag filter, one pass
   * over the covering index items_next (the marks are kept by {@link apply}); the ready items from items_queue, which holds the unblocked open items in
   * next's order, so only the rows returned and the claimed or assigned ones before them are read.
   */
  readiness(query: ReadinessQuery): Readiness {
    const where = filterSql({ statuses: [query.status], ...(query.types?.length ? { types: query.types } : {}), ...(query.tagsAll?.length ? { tagsAll: query.tagsAll } : {}) });
    const assignee = query.assignee ?? null;
    const claimed = `((i.claim_holder IS NOT NULL AND coalesce(i.claim_expires, '') > ? AND (? IS NULL OR i.claim_holder <> ?)) OR (i.assignee IS NOT NULL AND ? IS NOT NULL AND i.assignee <> ?))`;
    const claimedParams = [query.nowIso, assignee, assignee, assignee, assignee];
    const read = this.requireDb().transaction(() => {
      const counts = (this.tuning.keptCounts !== false ? this.counts.readiness(query) : undefined) ?? this.countReadiness(where, claimed, claimedParams);
      const rids = this.stmt(`SELECT i.rid FROM items i INDEXED BY items_queue WHERE ${where.sql} AND i.blocked = 0 AND i.busy = 0 AND NOT ${claimed} ORDER BY i.priority, i.created, i.id LIMIT ?`).pluck().all(...where.params, ...claimedParams, query.limit) as number[];
      return { counts, ready: this.rowsOf(rids) };
    });
    return read.deferred();
  }

  /** Next's counts the plain way: one pass over the covering index items_next. */
  private countReadiness(where: SqlCondition, claimed: string, claimedParams: readonly unknown[]): Readiness['counts'] {
    const counts = { open: 0, ready: 0, blocked: 0, claimed: 0, containers: 0 };
    const category = `CASE WHEN i.blocked = 1 THEN 1 WHEN ${claimed} THEN 2 WHEN i.busy = 1 THEN 3 ELSE 0 END`;
    for (const [kind, count] of this.stmt(`SELECT ${category} AS category, count(*) FROM items i INDEXED BY items_next WHERE ${where.sql} GROUP BY category`).raw().all(...claimedParams, ...where.params) as [number, number][]) {
      counts.open += count;
      if (kind === 0) counts.ready += count;
      else if (kind === 1) counts.blocked += count;
      else if (kind === 2) counts.claimed += count;
      else counts.containers += count;
    }
    return counts;
  }

  searchCandidates(query: SearchCandidatesQuery): Iterable<SearchCandidate> {
    return this.read(() => this.words.candidates(query));
  }

  searchTop(query: SearchTopQuery): SearchTop {
    return this.read(() => this.words.top(query));
  }

  referrers(id: string): string[] {
    return this.stmt('SELECT id FROM items WHERE parent = ? UNION SELECT i.id FROM links l JOIN items i ON i.rid = l.rid WHERE l.target = ? ORDER BY 1').pluck().all(id, id) as string[];
  }

  overview(nowIso: string): IndexOverview {
    const read = this.requireDb().transaction(() => {
      const byStatus = Object.fromEntries(this.stmt('SELECT status, count(*) FROM items GROUP BY status ORDER BY status').raw().all() as [string, number][]);
      const byType = Object.fromEntries(this.stmt('SELECT type, count(*) FROM items GROUP BY type ORDER BY type').raw().all() as [string, number][]);
      const claims = (this.stmt('SELECT id, title, claim_holder, claim_expires FROM items WHERE claim_holder IS NOT NULL AND claim_expires > ? ORDER BY claim_expires, id').raw().all(nowIso) as [string, string, string, string][])
        .map(([id, title, holder, expiresAt]) => ({ id, title, holder, expiresAt }));
      return { total: this.size(), byStatus, byType, claims };
    });
    return read.deferred();
  }

  problems(): IndexProblem[] {
    return (this.stmt('SELECT id, problem FROM files WHERE problem IS NOT NULL ORDER BY id').raw().all() as [string, string][]).map(([id, message]) => ({ id, message }));
  }

  close(): void {
    this.closeDb();
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

  /** The items of these rowids, in the order given. */
  private rowsOf(rids: readonly number[]): IndexedItem[] {
    if (rids.length === 0) return [];
    const rows = this.stmt(`SELECT i.rid, ${ITEM_COLUMNS} FROM ${ITEM_SOURCE} WHERE i.rid IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(rids)) as [number, ...ItemRow][];
    const byRid = new Map(rows.map(([rid, ...row]) => [rid, rowToItem(row as ItemRow)]));
    return rids.map((rid) => byRid.get(rid)!);
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
    this.writeTexts(rid, item, { words: JSON.parse(words) as PostingWord[], priority: old[ITEM_COLUMN_INDEX.get('priority')!] as number, status: old[ITEM_COLUMN_INDEX.get('status')!] as string });
    this.insertLists(rid, item, { tags, links });
    return changed.includes('status') || changed.includes('parent') || changed.includes('blocked_by');
  }

  private writeTexts(rid: number, item: IndexedItem, previous: PostingKeys | undefined): void {
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
    const row = this.stmt('SELECT i.rid, t.words, i.priority, i.status FROM items i JOIN texts t ON t.rid = i.rid WHERE i.id = ?').raw().get(id) as [number, string, number, string] | undefined;
    if (row === undefined) return;
    const [rid, words, priority, status] = row;
    this.stmt('DELETE FROM tags WHERE rid = ?').run(rid);
    this.stmt('DELETE FROM links WHERE rid = ?').run(rid);
    this.words.remove(rid, { words: JSON.parse(words) as PostingWord[], priority, status });
    this.stmt('DELETE FROM texts WHERE rid = ?').run(rid);
    this.stmt('DELETE FROM items WHERE rid = ?').run(rid);
  }

  private create(reason: 'missing' | 'corrupt'): IndexOpening {
    mkdirSync(dirname(this.path), { recursive: true });
    const db = this.connect();
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) === SQLITE_INDEX_SCHEMA) return;
      db.exec(SQLITE_INDEX_DDL);
      db.exec(SQLITE_INDEX_COUNTS_DDL);
      db.pragma(`user_version = ${SQLITE_INDEX_SCHEMA}`);
    }).immediate();
    return { created: true, reason };
  }

  /** Empties a database of another schema in place (other processes keep a valid file). */
  private reset(db: Database): void {
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) === SQLITE_INDEX_SCHEMA) return;
      for (const table of SQLITE_INDEX_TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`);
      db.exec(SQLITE_INDEX_DDL);
      db.exec(SQLITE_INDEX_COUNTS_DDL);
      db.pragma(`user_version = ${SQLITE_INDEX_SCHEMA}`);
    }).immediate();
    this.statements.clear();
    this.words.forget();
  }

  private connect(): Database {
    const db = (this.opener ?? sqliteOpener())(this.path, BUSY_TIMEOUT_MS);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      this.ino = statSync(this.path).ino;
    } catch (error) {
      db.close();
      throw error;
    }
    this.db = db;
    return db;
  }

  /** Runs `fn` in one read transaction (one consistent state). */
  private read<T>(fn: () => T): T {
    return this.requireDb().transaction(fn).deferred();
  }

  private requireDb(): Database {
    if (!this.db) this.open();
    return this.db!;
  }

  private stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.requireDb().prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private closeDb(): void {
    this.statements.clear();
    this.words.forget();
    this.db?.close();
    this.db = undefined;
    this.ino = undefined;
  }

  private removeFiles(): void {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${this.path}${suffix}`, { force: true });
  }
}

/** value mod 2^48, for values within ±2^49 (a digest plus or minus one hash). */
function modulo(value: number): number {
  return value < 0 ? value + DIGEST_MODULUS : value >= DIGEST_MODULUS ? value - DIGEST_MODULUS : value;
}

function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && CORRUPT_CODES.has(code);
}

function sameFile(recorded: { size: number; mtime: number; ino: number } | undefined, expected: FileSignature | null): boolean {
  if (expected === null || recorded === undefined) return expected === null && recorded === undefined;
  return recorded.size === expected.size && recorded.mtime === expected.mtimeMs && recorded.ino === expected.ino;
}
