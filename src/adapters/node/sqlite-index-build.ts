import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { TERMINAL_STATUSES } from '../../domain/tracker/config.js';
import type { IndexBuild, IndexChange, IndexedItem } from '../../ports/item-index-store.js';
import type { SqliteDatabase, SqliteOpener, SqliteStatement } from './sqlite-driver.js';
import { PostingsSpill } from './sqlite-index-postings.js';
import { SQLITE_INDEX_DDL } from './sqlite-index-schema.js';
import { copyUncounted } from './sqlite-index-counts.js';
import { ITEM_INSERT_COLUMNS, ITEM_INSERT_COUNT, itemValues } from './sqlite-index-sql.js';
import { wordCounts, type PostingWord, type WordCounts } from './sqlite-index-words.js';

const DIGEST_MODULUS = 2 ** 48;
/**
 * Page caches (negative: KiB) of the build file and of the live database during the copy. Both
 * are small on purpose: the build file is only appended to (its one index, on item ids, is a few
 * MB), and the copy appends records in key order and makes each secondary index from one sort;
 * a larger cache only fills with pages written once, and it adds to the build's peak memory.
 */
const BUILD_CACHE_KIB = -2048;
const COPY_CACHE_KIB = -4096;
/** The build file's cache while it is copied from (attached; each page is read once, in order). */
const ATTACHED_CACHE_KIB = -1024;

const STATEMENTS = SQLITE_INDEX_DDL.split(';').map((statement) => statement.trim()).filter(Boolean);
/** The schema's secondary indexes: dropped for the copy and made again after it, from the sorted rows. */
const SECONDARY_INDEXES = STATEMENTS.filter((statement) => statement.startsWith('CREATE INDEX IF NOT EXISTS '))
  .map((statement) => statement.replace('CREATE INDEX IF NOT EXISTS ', 'CREATE INDEX IF NOT EXISTS main.'));
const INDEX_NAMES = SECONDARY_INDEXES.map((statement) => /^CREATE INDEX IF NOT EXISTS main\.(\w+)/.exec(statement)![1]!);
/** The build file's tables: the schema's (so the copy moves their records as they are), without secondary indexes and the word tables. */
const BUILD_DDL = STATEMENTS
  .filter((statement) => !statement.startsWith('CREATE INDEX') && !/^CREATE TABLE IF NOT EXISTS (vocab|word_columns|word_changes)\(/.test(statement))
  .join(';\n');

/** The tables copied from the build file as they are (their rowids kept). */
const COPIED = ['files', 'items', 'texts', 'tags', 'links'] as const;
/** The terminal statuses as an SQL list of literals (a fixed set of plain words). */
const TERMINAL_SQL = [...TERMINAL_STATUSES].map((status) => `'${status.replaceAll("'", "''")}'`).join(', ');

/**
 * Takes the build lock: a file created exclusively, holding the builder's pid. A lock whose
 * process is gone (killed mid-build) is taken over. False while a live process holds it.
 */
export function takeBuildLock(lockPath: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = Number(readFileSync(lockPath, { encoding: 'utf8', flag: 'r' }).trim() || 'NaN');
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) return false;
    rmSync(lockPath, { force: true });
  }
  return false;
}

/** Whether a live process holds the build lock (one whose process is gone holds nothing). */
export function buildLockHeld(lockPath: string): boolean {
  let text: string;
  try {
    text = readFileSync(lockPath, { encoding: 'utf8', flag: 'r' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const pid = Number(text.trim() || 'NaN');
  return Number.isInteger(pid) && pid > 0 && isAlive(pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A first build of the SQLite index (docs/TRACKER.md "The derived index"): the rows of every
 * table but the word tables go into a separate file with no secondary index and no journal
 * (journal_mode=OFF, synchronous=OFF: a crash leaves a broken build file, which nobody reads
 * and the next build removes), the readiness marks are set there, and the postings are spilled
 * to a file beside it ({@link PostingsSpill}). {@link finish} then fills the live database in
 * one transaction: the secondary indexes are dropped, the tables copied (same definitions on
 * both sides, so SQLite moves their records as they are), each word's column written as one
 * row, the indexes made again, each from one sort of its rows, and the kept counts computed. Readers see the old (empty)
 * index until the commit and the whole new one after it. The live file is never replaced by a
 * rename: in WAL mode its -wal and -shm files are paired with it by name only, so a database
 * renamed into place could be read with another database's log.
 */
export class SqliteIndexBuild implements IndexBuild {
  private readonly db: SqliteDatabase;
  private readonly wordIds = new Map<string, number>();
  private readonly statements = new Map<string, SqliteStatement>();
  private readonly postings: PostingsSpill;
  private rid = 0;
  private digest = 0;
  private done = false;

  /**
   * @param live the live database (the copy target)
   * @param path the build file (replaced if present)
   * @param release called once the build is finished or aborted (releases the build lock)
   */
  constructor(
    private readonly live: SqliteDatabase,
    private readonly path: string,
    opener: SqliteOpener,
    private readonly release: () => void,
  ) {
    rmSync(path, { force: true });
    this.postings = new PostingsSpill(`${path}.postings`);
    this.db = opener(path, 1000);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = ${BUILD_CACHE_KIB}`);
    this.db.exec(BUILD_DDL);
  }

  add(changes: readonly IndexChange[]): void {
    const counted = changes.map((change) => (change.kind === 'item' ? wordCounts(change.item.text) : undefined));
    this.numberWords(counted);
    this.db.transaction(() => {
      changes.forEach((change, n) => {
        if (change.kind === 'gone') return;
        const id = change.kind === 'item' ? change.item.id : change.problem.id;
        const { signature, hash, racy } = change.file;
        const problem = change.kind === 'problem' ? change.problem.message : null;
        this.stmt('INSERT OR REPLACE INTO files(id, size, mtime, ino, ctime, hash, racy, problem) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(id, signature.size, signature.mtimeMs, signature.ino, signature.ctimeMs, hash, racy ? 1 : 0, problem);
        this.digest = (this.digest + hash) % DIGEST_MODULUS;
        if (change.kind === 'item') this.insertItem(change.item, counted[n]!);
      });
    })();
  }

  /**
   * Word ids come from the live database's vocabulary (new words added to it now): ids never
   * change there, so every process may keep the ids it has seen (sqlite-index-search.ts).
   */
  private numberWords(counted: readonly (WordCounts | undefined)[]): void {
    const fresh = new Set<string>();
    for (const counts of counted) for (const word of counts?.keys() ?? []) if (!this.wordIds.has(word)) fresh.add(word);
    if (fresh.size === 0) return;
    const words = JSON.stringify([...fresh]);
    this.live.transaction(() => {
      this.live.prepare('INSERT OR IGNORE INTO vocab(word) SELECT value FROM json_each(?)').run(words);
      for (const [wid, word] of this.live.prepare('SELECT v.wid, v.word FROM vocab v JOIN json_each(?) j ON v.word = j.value').raw().all(words) as [number, string][]) this.wordIds.set(word, wid);
    }).immediate();
  }

  finish(): void {
    this.markReadiness();
    this.statements.clear();
    this.db.close();
    const live = this.live;
    live.exec(`ATTACH DATABASE '${this.path.replaceAll("'", "''")}' AS build`);
    try {
      const cache = live.pragma('cache_size', { simple: true }) as number;
      live.pragma(`cache_size = ${COPY_CACHE_KIB}`);
      live.pragma(`build.cache_size = ${ATTACHED_CACHE_KIB}`);
      live.transaction(() => {
        copyUncounted(live, () => {
          for (const table of [...COPIED, 'word_columns', 'word_changes']) live.exec(`DELETE FROM main.${table}`);
          for (const name of INDEX_NAMES) live.exec(`DROP INDEX IF EXISTS main.${name}`);
          for (const table of COPIED) live.exec(`INSERT INTO main.${table} SELECT * FROM build.${table}`);
          this.insertColumns();
          for (const statement of SECONDARY_INDEXES) live.exec(statement);
        });
        live.prepare("INSERT OR REPLACE INTO main.meta(key, value) VALUES ('digest', ?)").run(String(this.digest));
      }).immediate();
      live.pragma(`cache_size = ${cache}`);
      // The copy went through the log (as large as the database): write it back and give the space back.
      live.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      live.exec('DETACH DATABASE build');
      this.cleanUp();
    }
  }

  abort(): void {
    try {
      this.statements.clear();
      this.db.close();
    } finally {
      this.cleanUp();
    }
  }

  private cleanUp(): void {
    if (this.done) return;
    this.done = true;
    this.postings.close();
    rmSync(this.path, { force: true });
    this.release();
  }

  private insertItem(item: IndexedItem, counted: WordCounts): void {
    const rid = ++this.rid;
    this.stmt(`INSERT INTO items(rid, ${ITEM_INSERT_COLUMNS}) VALUES (?, ${Array(ITEM_INSERT_COUNT).fill('?').join(', ')})`).run(rid, ...itemValues(item));
    const words: PostingWord[] = [];
    this.postings.item(rid);
    for (const [word, counts] of counted) {
      const wid = this.wordIds.get(word)!;
      words.push([wid, counts[0], counts[1], counts[2]]);
      this.postings.add(wid, counts[0], counts[1], counts[2]);
    }
    this.stmt('INSERT INTO texts(rid, body_lc, comments_lc, words) VALUES (?, ?, ?, ?)').run(rid, item.text.body, item.text.comments, JSON.stringify(words));
    for (const tag of new Set(item.tags)) this.stmt('INSERT INTO tags(rid, tag) VALUES (?, ?)').run(rid, tag);
    for (const target of new Set(item.blockedBy)) this.stmt('INSERT INTO links(rid, kind, target) VALUES (?, 0, ?)').run(rid, target);
    for (const target of new Set(item.related)) this.stmt('INSERT INTO links(rid, kind, target) VALUES (?, 1, ?)').run(rid, target);
  }

  /**
   * The readiness marks, set in the build file once every item is there (both start at 0):
   * blocked when a blocker is missing or not in a terminal status, busy when a child is not.
   */
  private markReadiness(): void {
    this.db.transaction(() => {
      this.db.exec(`UPDATE items SET blocked = 1 WHERE rid IN (SELECT l.rid FROM links l LEFT JOIN items b ON b.id = l.target WHERE l.kind = 0 AND (b.status IS NULL OR b.status NOT IN (${TERMINAL_SQL})))`);
      this.db.exec(`UPDATE items SET busy = 1 WHERE id IN (SELECT parent FROM items WHERE parent IS NOT NULL AND status NOT IN (${TERMINAL_SQL}))`);
    })();
  }

  /** Each word's column as one row, in word id order (the table's key order: appended, never inserted all over it). */
  private insertColumns(): void {
    const insert = this.live.prepare('INSERT INTO main.word_columns(wid, data) VALUES (?, ?)');
    for (const [wid, data] of this.postings.columns()) insert.run(wid, data);
  }

  private stmt(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}
