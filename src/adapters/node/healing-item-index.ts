import { IndexResetError, LockTimeoutError } from '../../domain/errors/index.js';
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
import { failureText, indexFailure, indexFileDamage } from './sqlite-index-damage.js';

/** The SQLite index as {@link HealingItemIndex} uses it: the store, its file, dropping a damaged file, and whether a build runs. */
export interface DiscardableItemIndex extends ItemIndexStore {
  readonly path: string;
  discard(reason: string): void;
  /** Whether a live process is building the index now. */
  building(): boolean;
}

/** How many times in a row {@link HealingItemIndex.open} makes a damaged file anew before keeping the index in memory. */
const HEALS_PER_OPEN = 2;

/**
 * The SQLite index that heals itself and never lets a read depend on writing it (docs/TRACKER.md
 * "When the index is damaged or cannot be written"). Every call goes to the SQLite index; a
 * failure is classified (sqlite-index-damage.ts):
 *
 * - damage (corrupt, not a database, a directory, truncated, an I/O error; a busy database whose
 *   file is damaged — nobody can be writing a database that is not one): the file is removed and
 *   made anew, and the index sync rebuilds it from the item files (aside, when large);
 * - unwritable (a read-only file system, file or directory, no permission, a full disk): this
 *   process keeps the index in memory from then on, read from the item files (correct, slower
 *   on large trackers), and says so once;
 * - busy with a valid file (another process writing for longer than the lock timeout): a
 *   {@link LockTimeoutError}, as for the tracker's write lock.
 *
 * Another process building the index for longer than the lock timeout is no failure: the index
 * sync then asks this process to keep its own index in memory until that build ends
 * ({@link keepOwnUntilBuilt}), and the first open after it returns to the file.
 *
 * A failure inside {@link open} is healed there and the open repeated. A failure in any other
 * call (the database was fine when the sync opened it) throws {@link IndexResetError} after
 * healing: the index sync checks every file again and repeats the query (index-sync.ts).
 */
export class HealingItemIndex implements ItemIndexStore {
  private memory: ItemIndexStore | undefined;
  /** The index in memory is kept only until another process's build ends ({@link keepOwnUntilBuilt}). */
  private untilBuilt = false;

  /**
   * @param sqlite the SQLite index
   * @param inMemory makes the in-memory index kept when the file cannot be written
   * @param say one line for the process's log (stderr)
   */
  constructor(
    private readonly sqlite: DiscardableItemIndex,
    private readonly inMemory: () => ItemIndexStore,
    private readonly say: (text: string) => void,
  ) {}

  /** Whether this process keeps its index in memory (the file could not be written, or another process builds it). */
  get keptInMemory(): boolean {
    return this.memory !== undefined;
  }

  open(): IndexOpening {
    const back = this.untilBuilt && !this.stillBuilding();
    if (back) {
      this.memory?.close();
      this.memory = undefined;
      this.untilBuilt = false;
    }
    for (let heals = 0; !this.memory; heals++) {
      try {
        const opening = this.sqlite.open();
        // What this process followed in memory says nothing of the shared index: the caller checks every file.
        return back ? { ...opening, replaced: true } : opening;
      } catch (error) {
        // Made anew and still failing (a directory SQLite cannot create files in, say): keep it in memory; a bug is passed on.
        if (heals >= HEALS_PER_OPEN && indexFailure(error) !== 'other') this.keepInMemory(error);
        else this.heal(error);
      }
    }
    return { ...this.memory.open(), own: true };
  }

  startBuild(): IndexBuild | 'busy' | 'replaced' {
    const build = this.use((store) => store.startBuild());
    if (typeof build === 'string' || this.memory) return build;
    return {
      add: (changes) => this.use(() => build.add(changes)),
      finish: () => this.use(() => build.finish()),
      abort: () => {
        try {
          build.abort();
        } catch {
          // The build file goes with the next build; the live index is healed by the failure that aborted it.
        }
      },
    };
  }

  /**
   * Another process has been building the index for longer than this one waits
   * (PM_LOCK_TIMEOUT_MS): until its build ends, this process answers from an index in its
   * memory, read from the item files like the one kept when the file cannot be written
   * (docs/TRACKER.md "Waits"), and says so once.
   */
  keepOwnUntilBuilt(reason: string): void {
    if (this.memory) return;
    this.memory = this.inMemory();
    this.untilBuilt = true;
    this.say(`${reason}, so this process reads every item file until that build is done (correct, but slower on large trackers)`);
  }

  apply(changes: readonly IndexChange[]): number {
    return this.use((store) => store.apply(changes));
  }

  digest(): number {
    return this.use((store) => store.digest());
  }

  recomputeDigest(): number {
    return this.use((store) => store.recomputeDigest());
  }

  files(): Map<string, IndexedFile> {
    return this.use((store) => store.files());
  }

  compareFiles(scanned: ScannedFiles): FileComparison {
    return this.use((store) => store.compareFiles(scanned));
  }

  fileOf(id: string): IndexedFile | undefined {
    return this.use((store) => store.fileOf(id));
  }

  racy(): string[] {
    return this.use((store) => store.racy());
  }

  note(key: string): string | undefined {
    return this.use((store) => store.note(key));
  }

  setNote(key: string, value: string): void {
    this.use((store) => store.setNote(key, value));
  }

  get(id: string): IndexedItem | undefined {
    return this.use((store) => store.get(id));
  }

  getMany(ids: readonly string[]): IndexedItem[] {
    return this.use((store) => store.getMany(ids));
  }

  size(): number {
    return this.use((store) => store.size());
  }

  page(query: IndexPageQuery): IndexPage {
    return this.use((store) => store.page(query));
  }

  readiness(query: ReadinessQuery): Readiness {
    return this.use((store) => store.readiness(query));
  }

  searchCandidates(query: SearchCandidatesQuery): Iterable<SearchCandidate> {
    return this.use((store) => [...store.searchCandidates(query)]);
  }

  searchTop(query: SearchTopQuery): SearchTop {
    return this.use((store) => store.searchTop(query));
  }

  referrers(id: string): string[] {
    return this.use((store) => store.referrers(id));
  }

  overview(nowIso: string): IndexOverview {
    return this.use((store) => store.overview(nowIso));
  }

  problems(): IndexProblem[] {
    return this.use((store) => store.problems());
  }

  close(): void {
    this.memory?.close();
    try {
      this.sqlite.close();
    } catch {
      // A damaged database may fail to close; the process is done with it either way.
    }
  }

  /** Runs `fn` on the store in use; after healing a failure of the SQLite index, throws {@link IndexResetError}. */
  private use<T>(fn: (store: ItemIndexStore) => T): T {
    if (this.memory) return fn(this.memory);
    try {
      return fn(this.sqlite);
    } catch (error) {
      this.heal(error);
      throw new IndexResetError(`the index was reset under the call (${failureText(error)}); the item files are read again`, { path: this.sqlite.path });
    }
  }

  /** Heals what `error` says of the SQLite index, or throws it on when it says nothing of the file. */
  private heal(error: unknown): void {
    const failure = indexFailure(error);
    if (failure === 'unwritable') return this.keepInMemory(error);
    let damage: string | undefined;
    try {
      damage = failure === 'damage' ? failureText(error) : failure === 'busy' ? indexFileDamage(this.sqlite.path) : undefined;
    } catch (statError) {
      return this.heal(statError);
    }
    if (damage === undefined) {
      if (failure === 'busy') throw new LockTimeoutError(`the index ${this.sqlite.path} stayed locked by another process for longer than PM_LOCK_TIMEOUT_MS`, { path: this.sqlite.path });
      throw error;
    }
    try {
      this.sqlite.discard(damage);
    } catch (removeError) {
      this.keepInMemory(removeError);
    }
  }

  /** Whether the build this process stopped waiting for still runs (a lock it cannot read: assumed so). */
  private stillBuilding(): boolean {
    try {
      return this.sqlite.building();
    } catch {
      return true;
    }
  }

  /** From now on this process keeps its index in memory, and says why once. */
  private keepInMemory(error: unknown): void {
    if (this.memory) return;
    try {
      this.sqlite.close();
    } catch {
      // Closing a database that cannot be written may fail too; nothing more is asked of it.
    }
    this.memory = this.inMemory();
    this.say(
      `the index ${this.sqlite.path} cannot be written (${failureText(error)}), ` +
        'so this process keeps the index in memory and reads every item file (correct, but slower on large trackers)',
    );
  }
}
