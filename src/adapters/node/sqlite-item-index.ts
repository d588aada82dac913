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
  ScannedFiles,
  SearchCandidate,
  SearchCandidatesQuery,
  SearchTop,
  SearchTopQuery,
} from '../../ports/item-index-store.js';
import { LockTimeoutError } from '../../domain/errors/index.js';
import { scanJson } from './sqlite-index-scan-json.js';
import { SqliteIndexCounts } from './sqlite-index-counts.js';
import { correctCounts, LAPSED_SQL, lapsedGroups, lapsedReady, mergeLapsed } from './sqlite-index-lapsed.js';
import type { SqliteDatabase, SqliteOpener, SqliteStatement } from './sqlite-driver.js';
import { filterSql, type SqlCondition, ITEM_COLUMNS, ITEM_SOURCE, rowToItem, sortColumns, type ItemRow } from './sqlite-index-sql.js';
import { SqliteWordSearch } from './sqlite-index-search.js';
import { SqliteIndexApply } from './sqlite-index-apply.js';
import { SqliteIndexConnection } from './sqlite-index-connection.js';

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
   * Hold the posting columns a search read for the next search while the database stays as it
   * was (sqlite-index-columns.ts; default true). A long-lived process searches again over them;
   * a one-shot process reads each word's column once, so the composition turns holding off there.
   */
  readonly postingColumns?: boolean;
  /** A word's changed postings kept before its column is written again (default CHANGES_PER_COLUMN of sqlite-index-search.ts). */
  readonly changesPerColumn?: number;
  /**
   * SQLite's page cache per connection, in KiB (default the driver's: 16 MB with better-sqlite3).
   * Pages it holds count in the process's memory; the file's pages stay in the OS's cache either way.
   */
  readonly pageCacheKib?: number;
  /**
   * How long a statement waits for another process's write, in ms (default
   * DEFAULT_BUSY_TIMEOUT_MS of sqlite-index-connection.ts); the composition gives PM_LOCK_TIMEOUT_MS.
   */
  readonly busyTimeoutMs?: number;
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

/**
 * The ItemIndexStore port over SQLite (better-sqlite3, or bun:sqlite under Bun: sqlite-driver.ts), in the tracker's git-ignored runtime
 * area, shared by every pm process of the tracker. WAL mode: readers never wait for a writer
 * and each read sees one committed state; commits are not fsynced (synchronous=NORMAL), since
 * the index is derived and a damaged one is rebuilt from the item files (docs/TRACKER.md "The
 * derived index"). This class answers the reads; the database file's lifecycle is
 * sqlite-index-connection.ts, the applied changes sqlite-index-apply.ts, search
 * sqlite-index-search.ts.
 *
 * The native module is loaded on the first {@link open}, so a command that never queries the
 * index (pm get) does not pay for it.
 */
export class SqliteItemIndex implements ItemIndexStore {
  private readonly connection: SqliteIndexConnection;
  private readonly writes: SqliteIndexApply;
  /** Commits of this connection (its own commits leave SQLite's data_version as it was). */
  private commits = 0;
  private readonly words: SqliteWordSearch;
  private readonly counts = new SqliteIndexCounts((sql) => this.stmt(sql));

  /**
   * @param path the database file (created with its directory when missing)
   * @param opener how to open it; default: this runtime's driver, loaded at the first open
   * @param tuning when a page walks the sort's index instead of sorting the matches
   * @param damaged told why a damaged database file is being made anew
   */
  constructor(
    path: string,
    opener?: SqliteOpener,
    private readonly tuning: PageTuning = DEFAULT_TUNING,
    damaged?: (reason: string) => void,
  ) {
    this.words = new SqliteWordSearch(
      (sql) => this.stmt(sql),
      () => (this.tuning.postingColumns === false ? undefined : `${this.stmt('PRAGMA data_version').pluck().get() as number}:${this.commits}`),
      this.tuning.changesPerColumn,
    );
    this.connection = new SqliteIndexConnection(path, opener, () => this.words.forget(), this.tuning.pageCacheKib, this.tuning.busyTimeoutMs, damaged);
    this.writes = new SqliteIndexApply(this.connection, this.words, () => {
      this.commits++;
    });
  }

  open(): IndexOpening {
    return this.connection.open();
  }

  /** The database file's path. */
  get path(): string {
    return this.connection.path;
  }

  /** Closes and removes a database a statement found damaged; the next {@link open} makes it anew (sqlite-index-connection.ts). */
  discard(reason: string): void {
    this.connection.discard(reason);
  }

  startBuild(): IndexBuild | 'busy' | 'replaced' {
    return this.connection.startBuild(() => {
      this.commits++;
    });
  }

  /**
   * The SQLite index alone keeps no index of its own (HealingItemIndex does, over it): the wait
   * for another process's build ends as a statement's wait for a writer does, in the lock
   * timeout (docs/TRACKER.md "Waits").
   */
  keepOwnUntilBuilt(reason: string): never {
    throw new LockTimeoutError(`${reason}, and the index ${this.path} keeps no index of its own`, { path: this.path });
  }

  /** Whether a live process is building the index now (holds its build lock: sqlite-index-connection.ts). */
  building(): boolean {
    return this.connection.building();
  }

  apply(changes: readonly IndexChange[]): number {
    return this.writes.apply(changes);
  }

  digest(): number {
    return this.writes.digest();
  }

  recomputeDigest(): number {
    return this.writes.recomputeDigest();
  }

  files(): Map<string, IndexedFile> {
    const out = new Map<string, IndexedFile>();
    for (const [id, size, mtimeMs, ino, ctimeMs, hash, racy] of this.stmt('SELECT id, size, mtime, ino, ctime, hash, racy FROM files').raw().iterate() as IterableIterator<[string, number, number, number, number, number, number]>) {
      out.set(id, { signature: { size, mtimeMs, ino, ctimeMs }, hash, racy: racy === 1 });
    }
    return out;
  }

  /**
   * The comparison runs in SQL over the scan passed as one JSON array of [id, hash] pairs,
   * written straight from the scan into bytes ({@link scanJson}; bound as a blob, read as text),
   * so 100k scanned and recorded files never become JavaScript objects or strings.
   */
  compareFiles(scanned: ScannedFiles): FileComparison {
    const json = scanJson(scanned);
    const read = this.requireDb().transaction(() => {
      const changed = (this.stmt("WITH scan(i, id, hash) AS (SELECT key, value ->> 0, value ->> 1 FROM json_each(CAST(? AS TEXT))) SELECT s.i, f.size, f.mtime, f.ino, f.ctime FROM scan s LEFT JOIN files f ON f.id = s.id WHERE f.id IS NULL OR f.hash <> s.hash").raw().all(json) as [number, number | null, number | null, number | null, number | null][])
        .map(([index, size, mtimeMs, ino, ctimeMs]) => ({ index, expected: size === null ? null : { size, mtimeMs: mtimeMs!, ino: ino!, ctimeMs: ctimeMs! } }));
      const gone = (this.stmt('SELECT id, size, mtime, ino, ctime FROM files WHERE id NOT IN (SELECT value ->> 0 FROM json_each(CAST(? AS TEXT)))').raw().all(json) as [string, number, number, number, number][])
        .map(([id, size, mtimeMs, ino, ctimeMs]) => ({ id, expected: { size, mtimeMs, ino, ctimeMs } }));
      return { changed, gone };
    });
    return read.deferred();
  }

  fileOf(id: string): IndexedFile | undefined {
    const row = this.stmt('SELECT size, mtime, ino, ctime, hash, racy FROM files WHERE id = ?').raw().get(id) as [number, number, number, number, number, number] | undefined;
    return row ? { signature: { size: row[0], mtimeMs: row[1], ino: row[2], ctimeMs: row[3] }, hash: row[4], racy: row[5] === 1 } : undefined;
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
    const textRids = query.filter.text === undefined ? undefined : this.words.textFilter();
    const where = filterSql(query.filter, { textRids });
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
        const row = filterSql(query.filter, { perRow: true, textRids });
        const walked = this.stmt(`SELECT rid, ok FROM (SELECT i.rid AS rid, (${row.sql}) AS ok FROM items i INDEXED BY ${index} WHERE 1${after} ORDER BY ${order} LIMIT ?) WHERE ok LIMIT ?`)
          .raw().all(...row.params, ...afterParams, this.tuning.walk, query.limit) as [number, number][];
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
      const plain = (this.tuning.keptCounts !== false ? this.counts.readiness(query) : undefined) ?? this.countReadiness(where, claimed, claimedParams);
      const lapsed = lapsedGroups((sql) => this.stmt(sql), query);
      const rids = this.stmt(`SELECT i.rid FROM items i INDEXED BY items_queue WHERE ${where.sql} AND i.blocked = 0 AND i.busy = 0 AND NOT ${claimed} AND NOT ${LAPSED_SQL} ORDER BY i.priority, i.created, i.id LIMIT ?`)
        .pluck().all(...where.params, ...claimedParams, query.nowIso, query.limit) as number[];
      const rows = this.rowsOf(rids);
      const merged = mergeLapsed(rids, rows, lapsedReady((sql) => this.stmt(sql), query, lapsed, query.limit), query.limit);
      return { counts: correctCounts(plain, lapsed), ready: merged ? this.rowsOf(merged) : rows };
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
      const expiredClaims = (this.stmt(`SELECT i.id, i.title, i.claim_holder, i.claim_expires FROM items i WHERE ${LAPSED_SQL} AND i.status NOT IN ('closed', 'canceled') ORDER BY i.claim_expires, i.id`).raw().all(nowIso) as [string, string, string, string][])
        .map(([id, title, holder, expiresAt]) => ({ id, title, holder, expiresAt }));
      return { total: this.size(), byStatus, byType, claims, expiredClaims };
    });
    return read.deferred();
  }

  problems(): IndexProblem[] {
    return (this.stmt('SELECT id, problem FROM files WHERE problem IS NOT NULL ORDER BY id').raw().all() as [string, string][]).map(([id, message]) => ({ id, message }));
  }

  close(): void {
    this.connection.close();
  }

  /** The items of these rowids, in the order given. */
  private rowsOf(rids: readonly number[]): IndexedItem[] {
    if (rids.length === 0) return [];
    const rows = this.stmt(`SELECT i.rid, ${ITEM_COLUMNS} FROM ${ITEM_SOURCE} WHERE i.rid IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(rids)) as [number, ...ItemRow][];
    const byRid = new Map(rows.map(([rid, ...row]) => [rid, rowToItem(row as ItemRow)]));
    return rids.map((rid) => byRid.get(rid)!);
  }

  /** Runs `fn` in one read transaction (one consistent state). */
  private read<T>(fn: () => T): T {
    return this.requireDb().transaction(fn).deferred();
  }

  private requireDb(): Database {
    return this.connection.database();
  }

  private stmt(sql: string): Statement {
    return this.connection.stmt(sql);
  }
}


