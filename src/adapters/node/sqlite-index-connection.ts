import { lstatSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { IndexBuild, IndexOpening } from '../../ports/item-index-store.js';
import { failureText, indexFailure, indexFileDamage } from './sqlite-index-damage.js';
import { SQLITE_INDEX_COUNTS_DDL, SQLITE_INDEX_DDL, SQLITE_INDEX_SCHEMA, SQLITE_INDEX_TABLES } from './sqlite-index-schema.js';
import { sqliteOpener, type SqliteDatabase, type SqliteOpener, type SqliteStatement } from './sqlite-driver.js';
import { buildLockHeld, SqliteIndexBuild, takeBuildLock } from './sqlite-index-build.js';

/**
 * How long a statement waits for another process's write to the database (ms) unless told: the
 * default of PM_LOCK_TIMEOUT_MS, since both bound a wait for another pm writer (docs/TRACKER.md
 * "The derived index", "When the index is damaged or cannot be written").
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/**
 * The SQLite index's database file and this process's connection to it (docs/TRACKER.md "The
 * derived index"): the index is derived, so a file that is missing or damaged (corrupt, not a
 * database, a directory, truncated: sqlite-index-damage.ts) is made anew — also when this
 * process had it open and valid — and one of another schema version is emptied in place (other
 * processes keep a valid file), and the caller rebuilds it from the item files. WAL mode: readers never wait for a writer; commits
 * are not fsynced (synchronous=NORMAL). A file replaced under the process (another inode) is
 * reopened by the next {@link open}. Prepared statements are kept per connection, and whatever
 * the caller cached about the file is dropped with them (`forget`).
 *
 * The driver is loaded on the first {@link open}, so a command that never queries the index
 * (pm get) does not pay for it.
 */
export class SqliteIndexConnection {
  private db: SqliteDatabase | undefined;
  private ino: number | undefined;
  private readonly statements = new Map<string, SqliteStatement>();

  /**
   * @param path the database file (created with its directory when missing)
   * @param opener how to open it; default: this runtime's driver, loaded at the first open
   * @param forget drops what the caller cached about the database (called with every reset or close)
   * @param pageCacheKib SQLite's page cache of the connection in KiB (undefined: the driver's default)
   * @param busyTimeoutMs how long a statement waits for another process's write (default {@link DEFAULT_BUSY_TIMEOUT_MS})
   * @param damaged told why a damaged file is being made anew (the process says so once per damage)
   */
  constructor(
    readonly path: string,
    private readonly opener: SqliteOpener | undefined,
    private readonly forget: () => void,
    private readonly pageCacheKib?: number,
    private readonly busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS,
    private readonly damaged: (reason: string) => void = () => undefined,
  ) {}

  /**
   * Opens the database, checking first that the file at the path can still be it (the header,
   * not a directory, not truncated: one read of 16 bytes), so a process that holds a connection
   * notices a file damaged under it instead of answering from its cached pages or waiting on the
   * locks of a log that belongs to no database any more.
   */
  open(): IndexOpening {
    refuseLinkedRuntime(dirname(this.path));
    const sig = lstatSync(this.path, { throwIfNoEntry: false });
    const held = this.db !== undefined && sig !== undefined && sig.ino === this.ino;
    const damage = indexFileDamage(this.path, held);
    if (damage) return this.heal(damage);
    if (held) return { created: false };
    const replaced = this.db !== undefined;
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
      return replaced ? { created: false, replaced: true } : { created: false };
    } catch (error) {
      if (indexFailure(error) !== 'damage') throw error;
      return this.heal(failureText(error));
    }
  }

  /**
   * Drops a database found damaged by a statement (docs/TRACKER.md "When the index is damaged or
   * cannot be written"): the connection is closed and the files removed, so the next
   * {@link open} makes it anew and the caller rebuilds it.
   */
  discard(reason: string): void {
    this.damaged(reason);
    this.closeDb();
    this.removeFiles();
  }

  /**
   * A first build (docs/TRACKER.md "The derived index", "The first build"): the build file and
   * its lock sit next to the database, and one process builds at a time. 'replaced' when the
   * index holds items by the time the lock is taken (another process built it meanwhile).
   * `committed` runs once the build has committed to the database, or given up.
   */
  startBuild(committed: () => void): IndexBuild | 'busy' | 'replaced' {
    const db = this.database();
    const lock = `${this.path}.build.lock`;
    if (!takeBuildLock(lock)) return 'busy';
    if (statSync(this.path, { throwIfNoEntry: false })?.ino !== this.ino || (this.stmt('SELECT count(*) FROM items').pluck().get() as number) > 0) {
      rmSync(lock, { force: true });
      return 'replaced';
    }
    return new SqliteIndexBuild(db, `${this.path}.build`, this.opener ?? sqliteOpener(), () => {
      committed();
      rmSync(lock, { force: true });
    });
  }

  /** Whether another process (or this one) is building the index now: a live process holds the build lock. */
  building(): boolean {
    return buildLockHeld(`${this.path}.build.lock`);
  }

  /** The open database (opened first when it is not). */
  database(): SqliteDatabase {
    if (!this.db) this.open();
    return this.db!;
  }

  /** The prepared statement of `sql`, prepared once per connection. */
  stmt(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.database().prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    this.closeDb();
  }

  /** Removes a damaged file (whatever it is) with its log and makes the database anew. */
  private heal(reason: string): IndexOpening {
    this.discard(reason);
    return this.create('corrupt');
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
  private reset(db: SqliteDatabase): void {
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) === SQLITE_INDEX_SCHEMA) return;
      for (const table of SQLITE_INDEX_TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`);
      db.exec(SQLITE_INDEX_DDL);
      db.exec(SQLITE_INDEX_COUNTS_DDL);
      db.pragma(`user_version = ${SQLITE_INDEX_SCHEMA}`);
    }).immediate();
    this.statements.clear();
    this.forget();
  }

  private connect(): SqliteDatabase {
    const db = (this.opener ?? sqliteOpener())(this.path, this.busyTimeoutMs);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      if (this.pageCacheKib !== undefined) db.pragma(`cache_size = ${-Math.max(1, Math.floor(this.pageCacheKib))}`);
      this.ino = statSync(this.path).ino;
    } catch (error) {
      db.close();
      throw error;
    }
    this.db = db;
    return db;
  }

  private closeDb(): void {
    this.statements.clear();
    this.forget();
    this.db?.close();
    this.db = undefined;
    this.ino = undefined;
  }

  private removeFiles(): void {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${this.path}${suffix}`, { force: true, recursive: true });
  }
}

/**
 * A runtime area that is a link is one the index is never written into (docs/TRACKER.md "What
 * pm reads and writes"): thrown as the `unwritable` failure ELOOP, so the process keeps its
 * index in memory with one warning instead of writing the database elsewhere. (A file in its
 * place fails SQLite's own open with ENOTDIR, unwritable too.)
 */
function refuseLinkedRuntime(dir: string): void {
  if (!lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink()) return;
  throw Object.assign(new Error(`${dir} is a symbolic link; pm writes no index below it`), { code: 'ELOOP' });
}
