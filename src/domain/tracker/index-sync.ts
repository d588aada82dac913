import { IndexResetError } from '../errors/index.js';
import type { Clock } from '../../ports/clock.js';
import type { FileSignature, FileSystem } from '../../ports/file-system.js';
import type { IndexFreshness } from '../../ports/index-freshness.js';
import type { IndexChange, ItemIndexStore } from '../../ports/item-index-store.js';
import { toIndexEntry } from './index-entry.js';
import type { Item } from './item.js';
import { IndexFileReader, type StaleFile, type StaleFiles } from './index-file-reader.js';
import { IndexScan } from './index-scan.js';
import type { TrackerPaths } from './tracker-paths.js';

/** Changes applied per index transaction while re-reading many files (fewer, larger transactions rebuild faster). */
const BATCH = 2500;
/**
 * Files handed to a first build at a time (twice the reads in flight). Its transactions are
 * cheap (a file with no journal), and a batch's parsed items and word counts stay live until
 * the batch is in: what outlives a young-generation collection is copied to the old generation,
 * which the garbage collector lets grow to a multiple of what is live, so a small batch lowers
 * the build's peak memory and its collections (250 files cost a fifth more CPU with a one-shot
 * process's small young generation).
 */
const BUILD_BATCH = 32;
/** Re-reads of at least this many files report progress; into an empty index, they build it aside. */
const PROGRESS_FROM = 1000;
/** {@link IndexSyncOptions.watchOverflowAt} when the host names none. */
export const DEFAULT_WATCH_OVERFLOW_AT = 1024;
/** How many times a check or a query starts again after the index was reset under it (IndexResetError). */
const RESETS = 3;
/** How long a process waits before looking again whether another one's build is done (ms). */
const BUILD_WAIT_MS = 200;
/** {@link IndexSyncOptions.waitMs} when the host names none (PM_LOCK_TIMEOUT_MS's default). */
export const DEFAULT_BUILD_WAIT_LIMIT_MS = 10_000;

export interface IndexSyncOptions {
  /**
   * Long-lived hosts (pm-mcp, pm-mcp-http): after the first full check, follow changes through
   * a watch of the items directory instead of checking every file per query.
   */
  readonly watch?: boolean;
  /** Told how far a long re-read has come (the CLI draws a progress bar on a TTY). */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * One-shot processes: asked to bring the index up to date before this process checks every
   * file itself, which it then skips (see {@link IndexFreshness}).
   */
  readonly witness?: IndexFreshness;
  /**
   * Watch mode: a refresh that follows at least this many watch events since the previous one
   * checks every file instead of trusting the events. A watch's kernel queue can overflow and
   * drop events without a word reaching the listener (libuv discards inotify's IN_Q_OVERFLOW);
   * an overflow means the queue held its whole capacity since the last drained refresh, and
   * every one of those events is delivered, so a host sets this to at most the queue's capacity
   * (half of it leaves a margin). Default {@link DEFAULT_WATCH_OVERFLOW_AT}.
   */
  readonly watchOverflowAt?: number;
  /**
   * How long a check waits for another process's build of the index before it answers from the
   * item files instead (the store's keepOwnUntilBuilt): PM_LOCK_TIMEOUT_MS, the bound of every
   * wait for another pm process (docs/TRACKER.md "Waits"). Default {@link DEFAULT_BUILD_WAIT_LIMIT_MS}.
   */
  readonly waitMs?: number;
}

/**
 * Keeps the derived index exact (docs/TRACKER.md "The derived index"). Every pm write updates
 * the index in its own locked write ({@link recordItem}); before every query {@link refresh}
 * finds what changed outside pm:
 *
 * - one-shot processes list the items directory with every file's signature (size,
 *   modification time, inode) and compare the sum of their hashes with the index's: equal sums
 *   prove nothing changed; otherwise the recorded signatures are compared and only the files
 *   that differ are read again, those gone are dropped;
 * - a one-shot process first asks a witness (the index watcher, a long-lived process following
 *   the directory over the same index) to vouch, and lists the directory only when it cannot;
 * - long-lived hosts do that once, then follow a watch of the directory (and re-check the
 *   directory itself, in case it was replaced; after a watch error or as many events as the
 *   watch queue may hold they check every file again);
 * - files marked racy are read again either way.
 *
 * A repair applies only if the index still records what it saw before reading (compare and
 * swap), so a reader never overwrites a concurrent writer's newer record; a writer killed
 * between its file write and its index update left a signature mismatch that the next check
 * repairs.
 *
 * An index reset under a check or a query (the store found its file damaged and made it anew,
 * or now keeps the index in memory: IndexResetError) starts them again over every file
 * (docs/TRACKER.md "When the index is damaged or cannot be written").
 */
export class IndexSync {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private stopWatch: (() => void) | undefined;
  private readonly dirty = new Set<string>();
  private readonly pending: IndexChange[] = [];
  private rescan = true;
  private directoryIno: number | undefined;
  private events = 0;
  /** The watch reported an error (or an unnamed change): it is set up again before it is trusted. */
  private rewatch = false;
  private totalEvents = 0;
  private sweeps = 0;
  private lastSweepAt: number | undefined;
  /** The last open found the index this process's own (IndexOpening.own). */
  private own = false;
  private readonly reader: IndexFileReader;
  private readonly scan: IndexScan;

  constructor(
    private readonly fs: FileSystem,
    private readonly clock: Clock,
    private readonly paths: TrackerPaths,
    private readonly store: ItemIndexStore,
    private readonly options: IndexSyncOptions = {},
  ) {
    this.reader = new IndexFileReader(fs, paths);
    this.scan = new IndexScan(fs, clock, paths, store, PROGRESS_FROM);
  }

  /**
   * Brings the index up to date with the files. A call made while a check runs waits for it and
   * then runs one more (shared by every call that waited), so each caller's check started after
   * the call.
   */
  refresh(): Promise<void> {
    if (!this.running) {
      this.running = this.checkAgainAfterReset().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.queued ??= this.running.then(
      () => this.afterQueued(),
      () => this.afterQueued(),
    );
    return this.queued;
  }

  /**
   * Refreshes, then answers `read` from the index; when the index is reset under the read
   * (IndexResetError), refreshes again — every file checked — and reads again.
   */
  async query<T>(read: () => T): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      await this.refresh();
      try {
        return read();
      } catch (error) {
        if (!(error instanceof IndexResetError) || attempt >= RESETS) throw error;
        this.rescan = true;
      }
    }
  }

  /**
   * Records an item this process just wrote (under the write lock, right after the file). The
   * record is applied by {@link flushRecords}, which the writer calls before it releases the
   * lock, or by the next {@link refresh} of this process, whichever comes first.
   */
  recordItem(item: Item, signature: FileSignature): void {
    this.pending.push({ kind: 'item', item: toIndexEntry(item), file: this.reader.fileOf(item.id, signature, this.clock.now()) });
  }

  /** Records that this process just removed an item's file (applied like {@link recordItem}). */
  recordRemoval(id: string): void {
    this.pending.push({ kind: 'gone', id });
  }

  /** Applies the pending records of this process's writes in one transaction. */
  flushRecords(): void {
    if (this.pending.length === 0) return;
    const changes = this.pending.splice(0);
    try {
      this.store.open();
      this.store.apply(changes);
    } catch (error) {
      // The records are gone with the failed transaction: every file is checked next time.
      this.markStale();
      throw error;
    }
  }

  /**
   * The records of this process's writes could not be applied (the index file is damaged,
   * unwritable or gone; docs/TRACKER.md "Mutations"): they are dropped, and the next refresh
   * checks every file against the index instead of trusting a watch. The files are the source of
   * truth and the written files' signatures differ from what the index recorded, so that check
   * re-reads them — in this process or in any other — once the index can be written again.
   */
  markStale(): void {
    this.pending.length = 0;
    this.rescan = true;
  }

  /** What this sync has seen: watch events and full checks of the directory (the watcher's status). */
  counters(): { events: number; sweeps: number; lastSweepAt: number | undefined } {
    return { events: this.totalEvents, sweeps: this.sweeps, lastSweepAt: this.lastSweepAt };
  }

  /**
   * Whether the index this sync keeps fresh is this process's own (kept in memory because the
   * shared one cannot be written), as of the last refresh: the index watcher then vouches for
   * nothing (docs/TRACKER.md "When the index is damaged or cannot be written").
   */
  keepsOwnIndex(): boolean {
    return this.own;
  }

  /** Stops the watch (long-lived hosts on exit). */
  close(): void {
    this.stopWatch?.();
    this.stopWatch = undefined;
    this.rescan = true;
  }

  private afterQueued(): Promise<void> {
    this.queued = undefined;
    return this.refresh();
  }

  private async checkAgainAfterReset(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.check();
      } catch (error) {
        if (!(error instanceof IndexResetError) || attempt >= RESETS) throw error;
        this.rescan = true;
      }
    }
  }

  private async check(): Promise<void> {
    this.flushRecords();
    const opening = this.store.open();
    this.own = opening.own === true;
    if (opening.replaced) this.rescan = true;
    if (opening.created) {
      this.rescan = true;
      // The JSON snapshot of earlier versions is never read again; one that cannot be removed
      // (a read-only runtime area) is left where it is.
      await this.fs.remove(`${this.paths.runtime}/index.json`).catch(() => undefined);
    }
    if (!this.options.watch) {
      // A witness keeps the shared index fresh: it can vouch for nothing this process keeps alone.
      const witness = opening.own ? undefined : this.options.witness;
      if (witness && !opening.created && (await witness.vouch())) return;
      const files = await this.sweep();
      // Not when the sweep stopped waiting for another process's build: that index is this process's own.
      if (!this.own) witness?.swept(files);
      return;
    }
    await this.followWatch();
  }

  private async followWatch(): Promise<void> {
    const directory = await this.fs.stat(this.paths.items);
    if (!this.stopWatch || this.rewatch || directory?.ino !== this.directoryIno) {
      this.stopWatch?.();
      this.rewatch = false;
      this.directoryIno = directory?.ino;
      this.stopWatch = this.fs.watch(this.paths.items, (name) => {
        this.events++;
        this.totalEvents++;
        if (name === undefined) this.rescan = this.rewatch = true;
        else if (name.endsWith('.md')) this.dirty.add(name.slice(0, -3));
      });
      this.rescan = true;
    }
    await this.fs.settleWatch?.();
    if (this.events >= (this.options.watchOverflowAt ?? DEFAULT_WATCH_OVERFLOW_AT)) this.rescan = true;
    this.events = 0;
    if (this.rescan) {
      this.rescan = false;
      this.dirty.clear();
      await this.sweep();
      return;
    }
    const ids = new Set([...this.dirty, ...this.store.racy()]);
    this.dirty.clear();
    await this.recheck([...ids]);
  }

  /** Compares the whole directory with the index; re-reads what differs. Resolves to the number of item files. */
  private async sweep(): Promise<number> {
    this.sweeps++;
    const { itemFiles, differences, everyFile, statAt } = await this.scan.scan();
    this.lastSweepAt = statAt;
    if (everyFile) {
      // Built by another process meanwhile: check the built index instead.
      if (!(await this.build(everyFile, statAt))) return this.sweep();
      return itemFiles;
    }
    const reread = new Set<string>();
    if (differences) {
      const { stale, gone } = differences;
      this.store.apply(gone.map(({ id, expected }) => ({ kind: 'gone', id, expected })));
      if (stale.length >= PROGRESS_FROM && this.store.size() === 0) {
        // Built by another process meanwhile: check the built index instead.
        if (!(await this.build(stale, statAt))) return this.sweep();
      } else await this.reread(stale, statAt);
      for (const { id } of stale) reread.add(id);
      if (stale.length === 0 && gone.length === 0) this.store.recomputeDigest();
    }
    await this.recheck(this.store.racy().filter((id) => !reread.has(id)));
    return itemFiles;
  }

  /** Re-reads files whose signature the scan already took (at `statAt`). */
  private async reread(stale: readonly StaleFile[], statAt: number): Promise<void> {
    await this.reader.readBatches(stale, statAt, (batch) => this.store.apply(batch), BATCH, this.progressOf(stale));
  }

  /**
   * Reads every file into an index built aside, one process at a time (the others wait for it);
   * false when another process built the index meanwhile, or when it has been building for
   * longer than {@link IndexSyncOptions.waitMs}: the store then keeps an index of this process's
   * own until that build ends, and the caller sweeps again into it (docs/TRACKER.md "Waits").
   */
  private async build(stale: StaleFiles, statAt: number): Promise<boolean> {
    const limit = this.options.waitMs ?? DEFAULT_BUILD_WAIT_LIMIT_MS;
    const deadline = this.clock.now() + limit;
    for (;;) {
      const build = this.store.startBuild();
      if (build === 'replaced') return false;
      if (build === 'busy') {
        const left = deadline - this.clock.now();
        if (left > 0) {
          await this.clock.sleep(Math.min(BUILD_WAIT_MS, left));
          continue;
        }
        this.store.keepOwnUntilBuilt(`another process has been building the index for longer than PM_LOCK_TIMEOUT_MS (${limit} ms)`);
        this.own = true;
        return false;
      }
      try {
        await this.reader.readBatches(stale, statAt, (batch) => build.add(batch), BUILD_BATCH, this.progressOf(stale));
        build.finish();
        return true;
      } catch (error) {
        build.abort();
        throw error;
      }
    }
  }

  /** Takes each file's signature anew and re-reads it (watch events, racy files). */
  private async recheck(ids: readonly string[]): Promise<void> {
    const changes: IndexChange[] = [];
    for (const id of ids) {
      const expected = this.store.fileOf(id)?.signature ?? null;
      const statAt = this.clock.now();
      const signature = await this.fs.stat(this.paths.itemFile(id));
      if (!signature) {
        if (expected) changes.push({ kind: 'gone', id, expected });
        continue;
      }
      changes.push(await this.reader.read(id, expected, signature, statAt));
    }
    this.store.apply(changes);
  }

  /** Where a long re-read reports its progress ({@link PROGRESS_FROM} files or more). */
  private progressOf(stale: StaleFiles): ((done: number, total: number) => void) | undefined {
    return stale.length >= PROGRESS_FROM ? this.options.onProgress : undefined;
  }
}

