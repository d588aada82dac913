import type { Clock } from '../../ports/clock.js';
import type { FileSystem } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import type { IdSource } from '../../ports/id-source.js';
import type { IndexFreshness } from '../../ports/index-freshness.js';
import type { ItemIndexStore } from '../../ports/item-index-store.js';
import type { Locker } from '../../ports/locker.js';
import type { TrackerConfig } from './config.js';
import { readTrackerConfig } from './config-file.js';
import type { ConsentProvider } from './consent.js';
import { exportText, exportTrackerItems, type TrackerExport, type TrackerExportFormat, type TrackerExportText } from './export.js';
import type { ChainFault, HistoryEntry } from './history.js';
import { HistoryLog } from './history-log.js';
import { IdempotencyLedger } from './idempotency-ledger.js';
import type { ClaimInput, CloseInput, CreateInput, DependencyInput, MutationOptions, ReleaseInput, UpdateInput } from './inputs.js';
import { IndexSync } from './index-sync.js';
import { ItemStore } from './item-store.js';
import type { Item } from './item.js';
import type { ListQuery, ListResult } from './list-query.js';
import { MutationEngine } from './mutation-engine.js';
import type { NextQuery, NextResult } from './next-query.js';
import type { BlockedResult, ReadyQuery, ReadyResult, TreeResult } from './backlog-views.js';
import type { ClaimNextResult } from './claim-next.js';
import { leaseOf, leaseState, type LeaseState } from './readiness.js';
import type { MutationResult } from './receipt.js';
import type { SearchQuery, SearchResult } from './search-query.js';
import { TrackerMutations } from './tracker-mutations.js';
import { confinedFileSystem } from './confined-file-system.js';
import { TrackerPaths } from './tracker-paths.js';
import { TrackerQueries, type ListOptions, type LiveClaim, type TrackerContext, type Unreadable } from './tracker-queries.js';
import { validateTracker, type ValidationReport } from './validate.js';

export type { LiveClaim, TrackerContext, Unreadable } from './tracker-queries.js';

/** The ports a tracker needs from its host. */
export interface TrackerPorts {
  readonly fs: FileSystem;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly hasher: Hasher;
  readonly locker: Locker;
  /** The derived index behind list, next, search and the dependency checks. */
  readonly index: ItemIndexStore;
}

export interface TrackerOptions {
  /** Actor recorded when a call names none (the CLI passes $PM_ACTOR or the OS user). */
  readonly defaultActor: string;
  /** PM_LOCK_TIMEOUT_MS: the longest a write waits for the tracker's lock and a query for another process's index build. */
  readonly lockTimeoutMs?: number;
  /**
   * Long-lived hosts: after the first full check, follow changes to the item files through a
   * directory watch instead of checking every file's signature before each query.
   */
  readonly watchIndex?: boolean;
  /** Told how far a long rebuild of the index has come (the CLI's progress bar). */
  readonly onIndexProgress?: (done: number, total: number) => void;
  /** One-shot processes: the index watcher asked before checking every file (IndexSyncOptions.witness). */
  readonly indexWitness?: IndexFreshness;
  /** Watch mode: events after which a refresh checks every file (IndexSyncOptions.watchOverflowAt). */
  readonly watchOverflowAt?: number;
}

/**
 * The tracker domain service: every operation the CLI and the MCP tools offer. Reads
 * of single items go to the files; list/next/search go through the derived index; every
 * mutation goes through the MutationEngine (lock, guards, write-ahead history, receipt).
 */
export class Tracker {
  readonly paths: TrackerPaths;
  private readonly index: ItemIndexStore;
  private readonly sync: IndexSync;
  private readonly queries: TrackerQueries;
  private readonly mutations: TrackerMutations;

  private loadedConfig: TrackerConfig | undefined;
  private configLoad: Promise<TrackerConfig> | undefined;

  private readonly ports: TrackerPorts;

  private constructor(
    given: TrackerPorts,
    root: string,
    private readonly options: TrackerOptions,
  ) {
    // Every write of this tracker stays inside it: no link below the root is written through.
    const ports = { ...given, fs: confinedFileSystem(given.fs, root) };
    this.ports = ports;
    this.paths = new TrackerPaths(root);
    const store = new ItemStore(ports.fs, ports.hasher, this.paths);
    const history = new HistoryLog(ports.fs, ports.hasher, this.paths);
    this.index = ports.index;
    this.sync = new IndexSync(ports.fs, ports.clock, this.paths, ports.index, {
      ...(options.watchIndex ? { watch: true } : {}),
      ...(options.onIndexProgress ? { onProgress: options.onIndexProgress } : {}),
      ...(options.indexWitness ? { witness: options.indexWitness } : {}),
      ...(options.watchOverflowAt !== undefined ? { watchOverflowAt: options.watchOverflowAt } : {}),
      ...(options.lockTimeoutMs !== undefined ? { waitMs: options.lockTimeoutMs } : {}),
    });
    const config = () => this.config;
    const engine = new MutationEngine({
      ...ports,
      paths: this.paths,
      store,
      history,
      ledger: new IdempotencyLedger(ports.fs, this.paths),
      index: this.sync,
      get idPrefix() {
        return config().idPrefix;
      },
      lockTimeoutMs: options.lockTimeoutMs ?? 10_000,
    });
    const parts = { paths: this.paths, clock: ports.clock, ids: ports.ids, index: ports.index, sync: this.sync, store, history, engine, defaultActor: options.defaultActor, refreshInMutation: async () => { await engine.settle(); await this.sync.refresh(); }, refreshOutsideBatch: () => this.sync.refresh(), ready: () => this.ready(), config };
    this.queries = new TrackerQueries(parts);
    this.mutations = new TrackerMutations(parts, (id) => this.queries.get(id));
  }

  /** Opens the tracker whose `.agents/pm` directory is `root` (config.yaml must parse). */
  static async open(ports: TrackerPorts, root: string, options: TrackerOptions): Promise<Tracker> {
    const tracker = Tracker.openDeferred(ports, root, options);
    await tracker.ready();
    return tracker;
  }

  /**
   * The tracker at `root` without reading config.yaml yet: the operations that need the
   * configuration read it on first use, and a host calls {@link ready} when it wants it checked
   * (pm-mcp answers `server/discover` before reading it, so its start-up does not wait for
   * the file). Reads of items, lists and history never wait for it.
   */
  static openDeferred(ports: TrackerPorts, root: string, options: TrackerOptions): Tracker {
    return new Tracker(ports, root, options);
  }

  /**
   * Reads and checks config.yaml once (CorruptDataError or NotFoundError when it cannot be
   * used; a later call tries again, so a fixed file is picked up without a restart).
   */
  ready(): Promise<TrackerConfig> {
    if (this.loadedConfig) return Promise.resolve(this.loadedConfig);
    this.configLoad ??= readTrackerConfig(this.ports.fs, this.paths).then(
      (config) => (this.loadedConfig = config),
      (error: unknown) => {
        this.configLoad = undefined;
        throw error;
      },
    );
    return this.configLoad;
  }

  /** The tracker configuration; only after {@link ready} (or {@link open}) has resolved. */
  get config(): TrackerConfig {
    if (!this.loadedConfig) throw new Error('the tracker configuration is read by Tracker.ready(); await it before reading Tracker.config');
    return this.loadedConfig;
  }

  /** Who this tracker records when a call names nobody (`--mine` means items assigned to them). */
  get defaultActor(): string {
    return this.options.defaultActor;
  }

  /** One item, read from its file (NotFoundError when there is none). */
  get(id: string): Promise<Item> {
    return this.queries.get(id);
  }

  /** See {@link TrackerQueries.list}: filters checked, active blockers only, unreadable files named. */
  list(query: ListQuery = {}, options: ListOptions = {}): Promise<ListResult & Unreadable> {
    return this.queries.list(query, options);
  }

  next(query: NextQuery = {}): Promise<NextResult & Unreadable> {
    return this.queries.next(query);
  }

  /** See {@link TrackerQueries.readyItems}: every ready item for the caller, by next's rule and order. */
  readyItems(query: ReadyQuery = {}): Promise<ReadyResult & Unreadable> {
    return this.queries.readyItems(query);
  }

  /** See {@link TrackerQueries.blocked}: items held back by open blockers, with those blockers. */
  blocked(query: ListQuery = {}): Promise<BlockedResult & Unreadable> {
    return this.queries.blocked(query);
  }

  /** See {@link TrackerQueries.tree}: children and their progress. */
  tree(rootId?: string): Promise<TreeResult & Unreadable> {
    return this.queries.tree(rootId);
  }

  search(query: SearchQuery): Promise<SearchResult & Unreadable> {
    return this.queries.search(query);
  }

  historyOf(id: string): Promise<HistoryEntry[]> {
    return this.queries.historyOf(id);
  }

  /** See {@link TrackerQueries.verifiedHistory}: the entries with the faults `pm validate` finds. */
  verifiedHistory(id: string): Promise<{ entries: HistoryEntry[]; faults: readonly ChainFault[] }> {
    return this.queries.verifiedHistory(id);
  }

  /** A compact picture of the project: counts, what to do next, who holds what. */
  context(): Promise<TrackerContext> {
    return this.queries.context();
  }

  /** See {@link TrackerQueries.claimLeases}: the claims on unfinished items, live and lapsed, earliest expiry first. */
  claimLeases(): Promise<LiveClaim[]> {
    return this.queries.claimLeases();
  }

  /** Writes every item to a new file in the runtime area (export.ts; docs/TRACKER.md "Export"). */
  async export(format: TrackerExportFormat, signal?: AbortSignal): Promise<TrackerExport> {
    return exportTrackerItems({ ...this.ports, paths: this.paths, list: (query) => this.list(query), get: (id) => this.get(id) }, format, signal);
  }

  /** The export document without writing a file (`pm export --stdout`; export.ts). */
  async exportText(format: TrackerExportFormat, signal?: AbortSignal): Promise<TrackerExportText> {
    return exportText({ clock: this.ports.clock, list: (query) => this.list(query), get: (id) => this.get(id) }, format, signal);
  }

  async validate(): Promise<ValidationReport> {
    return validateTracker(this.ports.fs, this.ports.hasher, this.paths, await this.ready());
  }

  /**
   * `pm validate --fix`: settles what interrupted writes left behind (the `interrupted_append`
   * and `interrupted_write` findings), as the next write of each item would, under the write
   * lock; returns the ids it settled (docs/TRACKER.md "What reaches the disk when").
   */
  async repairInterrupted(): Promise<string[]> {
    const report = await this.validate();
    const ids = [...new Set(report.findings.filter((f) => f.code === 'interrupted_append' || f.code === 'interrupted_write').map((f) => f.itemId!))].sort();
    for (const id of ids) await this.mutations.settleInterrupted(id);
    return ids;
  }

  create(input: CreateInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    return this.mutations.create(input, options);
  }

  update(id: string, input: UpdateInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    return this.mutations.update(id, input, options);
  }

  /**
   * Claims an item. Taking over somebody else's live claim (`force`) is destructive to their
   * work and needs consent like a cancel of it (docs/TRACKER.md "Mutations"; the CLI's
   * `--force` is that consent, MCP asks the host).
   */
  claim(id: string, input: ClaimInput = {}, options: MutationOptions & { consent?: ConsentProvider } = {}): Promise<MutationResult<Item>> {
    return this.mutations.claim(id, input, options);
  }

  /** The lease of an item's claim now (readiness.ts): how get shows a claim — live, or expired and offered to others. */
  leaseOf(item: Pick<Item, 'claim'>): LeaseState {
    return leaseState(leaseOf(item.claim), new Date(this.ports.clock.now()).toISOString());
  }

  /** Claim-next: the best ready item for the holder, chosen and claimed in one step (see {@link TrackerMutations.claimNext}). */
  claimNext(query: NextQuery = {}, input: Omit<ClaimInput, 'force' | 'renew'> = {}, options: MutationOptions = {}): Promise<ClaimNextResult> {
    return this.mutations.claimNext(query, input, options);
  }

  release(id: string, input: ReleaseInput = {}, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    return this.mutations.release(id, input, options);
  }

  /**
   * Closes (or cancels) an item with evidence. Canceling an item somebody else holds a live
   * claim on is destructive to their work and needs consent (docs/TRACKER.md "Mutations").
   */
  close(id: string, input: CloseInput, options: MutationOptions & { consent?: ConsentProvider } = {}): Promise<MutationResult<Item>> {
    return this.mutations.close(id, input, options);
  }

  reopen(id: string, reason: string | undefined, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    return this.mutations.reopen(id, reason, options);
  }

  comment(id: string, text: string, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    return this.mutations.comment(id, text, options);
  }

  /**
   * Adds a dependency. `blocks` is stored on the target as blockedBy (one direction on disk,
   * so one file changes per mutation); a blocker edge that would close a cycle is refused.
   */
  addDependency(id: string, input: DependencyInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    return this.mutations.addDependency(id, input, options);
  }

  removeDependency(id: string, input: DependencyInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    return this.mutations.removeDependency(id, input, options);
  }

  /**
   * Deletes an item after explicit consent. Items other items still point at (as parent,
   * blocker or related) are refused with the list of referrers; history is kept, ending in a
   * delete line, and the id is never reused.
   */
  delete(id: string, options: MutationOptions & { consent?: ConsentProvider } = {}): Promise<MutationResult<null>> {
    return this.mutations.delete(id, options);
  }

  /** Stops following the files and closes the index (long-lived hosts call this on exit). */
  async dispose(): Promise<void> {
    this.sync.close();
    this.index.close();
  }
}
