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

/**
 * An index store made at its first use by `choose`: the process composes its graph before it
 * knows whether the index is queried at all (pm get never does), and loading a SQLite driver
 * costs a start milliseconds, so the choice between the SQLite index and the in-memory one
 * (when no driver loads: docs/TRACKER.md "SQLite drivers") waits until a call needs a store.
 */
export class FirstUseItemIndex implements ItemIndexStore {
  private chosen: ItemIndexStore | undefined;

  constructor(private readonly choose: () => ItemIndexStore) {}

  private get store(): ItemIndexStore {
    this.chosen ??= this.choose();
    return this.chosen;
  }

  open(): IndexOpening {
    return this.store.open();
  }

  startBuild(): IndexBuild | 'busy' | 'replaced' {
    return this.store.startBuild();
  }

  keepOwnUntilBuilt(reason: string): void {
    this.store.keepOwnUntilBuilt(reason);
  }

  apply(changes: readonly IndexChange[]): number {
    return this.store.apply(changes);
  }

  digest(): number {
    return this.store.digest();
  }

  recomputeDigest(): number {
    return this.store.recomputeDigest();
  }

  files(): Map<string, IndexedFile> {
    return this.store.files();
  }

  compareFiles(scanned: ScannedFiles): FileComparison {
    return this.store.compareFiles(scanned);
  }

  fileOf(id: string): IndexedFile | undefined {
    return this.store.fileOf(id);
  }

  racy(): string[] {
    return this.store.racy();
  }

  note(key: string): string | undefined {
    return this.store.note(key);
  }

  setNote(key: string, value: string): void {
    this.store.setNote(key, value);
  }

  get(id: string): IndexedItem | undefined {
    return this.store.get(id);
  }

  getMany(ids: readonly string[]): IndexedItem[] {
    return this.store.getMany(ids);
  }

  size(): number {
    return this.store.size();
  }

  page(query: IndexPageQuery): IndexPage {
    return this.store.page(query);
  }

  readiness(query: ReadinessQuery): Readiness {
    return this.store.readiness(query);
  }

  searchCandidates(query: SearchCandidatesQuery): Iterable<SearchCandidate> {
    return this.store.searchCandidates(query);
  }

  searchTop(query: SearchTopQuery): SearchTop {
    return this.store.searchTop(query);
  }

  referrers(id: string): string[] {
    return this.store.referrers(id);
  }

  overview(nowIso: string): IndexOverview {
    return this.store.overview(nowIso);
  }

  problems(): IndexProblem[] {
    return this.store.problems();
  }

  /** Closes the chosen store; one never chosen is not made just to be closed. */
  close(): void {
    this.chosen?.close();
  }
}
