import type { Clock } from '../../ports/clock.js';
import { exportTrackerItems, type TrackerExport, type TrackerExportFormat } from './export.js';
import type { FileSystem } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import type { IdSource } from '../../ports/id-source.js';
import type { IndexFreshness } from '../../ports/index-freshness.js';
import type { ItemIndexStore } from '../../ports/item-index-store.js';
import type { Locker } from '../../ports/locker.js';
import { ConflictError, ConsentRequiredError, NotFoundError, ValidationError } from '../errors/index.js';
import type { TrackerConfig } from './config.js';
import { readTrackerConfig } from './config-file.js';
import type { ConsentProvider, ConsentRequest } from './consent.js';
import { withActiveBlockers } from './blockers.js';
import { findPath } from './graph.js';
import type { ChainFault, HistoryEntry } from './history.js';
import { HistoryLog } from './history-log.js';
import { IdempotencyLedger } from './idempotency-ledger.js';
import type { ClaimInput, CloseInput, CreateInput, DependencyInput, MutationOptions, ReleaseInput, UpdateInput } from './inputs.js';
import { IndexSync } from './index-sync.js';
import { applyClaim, applyClose, applyRelease, applyReopen, applyUpdate, buildNewItem, requireItem } from './item-mutations.js';
import { assertKnownFilter } from './item-rules.js';
import { toIndexEntry, toSummary } from './index-entry.js';
import { ItemStore } from './item-store.js';
import { ITEM_ID_PATTERN, type Item } from './item.js';
import { runListQuery, type ListQuery, type ListResult } from './list-query.js';
import { MutationEngine, type ApplyMutation, type MutationRequest } from './mutation-engine.js';
import { runNextQuery, type NextQuery, type NextResult } from './next-query.js';
import type { MutationResult } from './receipt.js';
import { runSearchQuery, searchTerms, snippetIn, type SearchQuery, type SearchResult } from './search-query.js';
import { TrackerPaths } from './tracker-paths.js';
import { validateTracker, type ValidationReport } from './validate.js';

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
  private readonly store: ItemStore;
  private readonly history: HistoryLog;
  private readonly engine: MutationEngine;

  private loadedConfig: TrackerConfig | undefined;
  private configLoad: Promise<TrackerConfig> | undefined;

  private constructor(
    private readonly ports: TrackerPorts,
    root: string,
    private readonly options: TrackerOptions,
  ) {
    this.paths = new TrackerPaths(root);
    this.store = new ItemStore(ports.fs, ports.hasher, this.paths);
    this.history = new HistoryLog(ports.fs, ports.hasher, this.paths);
    this.index = ports.index;
    this.sync = new IndexSync(ports.fs, ports.clock, this.paths, ports.index, {
      ...(options.watchIndex ? { watch: true } : {}),
      ...(options.onIndexProgress ? { onProgress: options.onIndexProgress } : {}),
      ...(options.indexWitness ? { witness: options.indexWitness } : {}),
      ...(options.watchOverflowAt !== undefined ? { watchOverflowAt: options.watchOverflowAt } : {}),
    });
    const config = () => this.config;
    this.engine = new MutationEngine({
      ...ports,
      paths: this.paths,
      store: this.store,
      history: this.history,
      ledger: new IdempotencyLedger(ports.fs, this.paths),
      index: this.sync,
      get idPrefix() {
        return config().idPrefix;
      },
      lockTimeoutMs: options.lockTimeoutMs ?? 10_000,
    });
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

  async get(id: string): Promise<Item> {
    assertId(id);
    const item = await this.store.readItem(id);
    if (!item) throw new NotFoundError(`no item ${id}`, { itemId: id });
    return item;
  }

  /**
   * List, next and search refuse a status or type config.yaml does not declare (a typo is not
   * "no items"), show only the blockers still holding an item back, and name the item files
   * they had to leave out because they do not parse (`unreadable`, absent when there are none).
   */
  async list(query: ListQuery = {}): Promise<ListResult & Unreadable> {
    await this.assertKnownFilters(query.status, query.type);
    await this.sync.refresh();
    const result = runListQuery(this.index, query);
    return { ...result, items: withActiveBlockers(this.index, result.items), ...this.unreadable() };
  }

  async next(query: NextQuery = {}): Promise<NextResult & Unreadable> {
    await this.assertKnownFilters(undefined, query.type);
    await this.sync.refresh();
    const result = runNextQuery(this.index, query, new Date(this.ports.clock.now()).toISOString());
    const [item, ...alternatives] = withActiveBlockers(this.index, [...(result.item ? [result.item] : []), ...result.alternatives]);
    return { ...result, item: result.item ? item! : null, alternatives: result.item ? alternatives : [], ...this.unreadable() };
  }

  async search(query: SearchQuery): Promise<SearchResult & Unreadable> {
    await this.assertKnownFilters(query.status, undefined);
    await this.sync.refresh();
    const result = runSearchQuery(this.index, query);
    const terms = searchTerms(query.query);
    // The index keeps lowercased text; the snippets a person reads come from the item files.
    const results = await Promise.all(result.results.map(async (hit) => {
      if (hit.snippet === undefined) return hit;
      const item = await this.store.readItem(hit.id).catch(() => undefined);
      const snippet = item ? snippetIn([item.body, item.comments.map((c) => c.text).join('\n')], terms).snippet : undefined;
      return snippet === undefined ? hit : { ...hit, snippet };
    }));
    return { ...result, results: withActiveBlockers(this.index, results), ...this.unreadable() };
  }

  private async assertKnownFilters(statuses: readonly string[] | undefined, types: readonly string[] | undefined): Promise<void> {
    if (!statuses?.length && !types?.length) return;
    const config = await this.ready();
    assertKnownFilter(config, 'status', statuses);
    assertKnownFilter(config, 'type', types);
  }

  private unreadable(): Unreadable {
    const problems = this.index.problems();
    return problems.length ? { unreadable: problems.map((p) => ({ ...p })) } : {};
  }

  async historyOf(id: string): Promise<HistoryEntry[]> {
    assertId(id);
    const entries = await this.history.read(id);
    if (entries.length === 0 && !(await this.store.exists(id))) throw new NotFoundError(`no item ${id} and no history for it`, { itemId: id });
    return entries;
  }

  /**
   * An item's history with the problems its chain verification found (the check `pm validate`
   * runs), so a reader can mark the lines that cannot be trusted instead of showing a forged
   * actor as recorded.
   */
  async verifiedHistory(id: string): Promise<{ entries: HistoryEntry[]; faults: readonly ChainFault[] }> {
    assertId(id);
    const result = await this.history.verify(id);
    if (result.entries.length === 0 && result.faults.length === 0 && !(await this.store.exists(id))) throw new NotFoundError(`no item ${id} and no history for it`, { itemId: id });
    return result;
  }

  /** Writes every item to a new file in the runtime area (export.ts; docs/TRACKER.md "Export"). */
  async export(format: TrackerExportFormat, signal?: AbortSignal): Promise<TrackerExport> {
    return exportTrackerItems({ ...this.ports, paths: this.paths, list: (query) => this.list(query), get: (id) => this.get(id) }, format, signal);
  }

  async validate(): Promise<ValidationReport> {
    return validateTracker(this.ports.fs, this.ports.hasher, this.paths, await this.ready());
  }

  async create(input: CreateInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    await this.ready();
    return this.mutate({ op: 'create', params: input }, options, async (current, ctx) => {
      if (current) throw new ConflictError(`item ${ctx.itemId} already exists`, 'exists', { itemId: ctx.itemId });
      const item = buildNewItem(input, this.config, ctx);
      await this.assertReferences(item);
      return item;
    }) as Promise<MutationResult<Item>>;
  }

  async update(id: string, input: UpdateInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    if (Object.values(input).every((v) => v === undefined)) throw new ValidationError('nothing to update: give at least one field to change', {});
    await this.ready();
    const warnings: string[] = [];
    const result = await this.mutateItem(id, 'update', input, options, async (item, ctx) => {
      const claim = item.claim;
      if (claim && claim.holder !== this.actor(options) && claim.expiresAt > ctx.now) {
        this.warnOrRefuse(warnings, options, `${id} is claimed by ${claim.holder} until ${claim.expiresAt}; you are changing their work`, 'claimed', { itemId: id, holder: claim.holder, expiresAt: claim.expiresAt }, 'ask them, or update without strict');
      }
      const next = applyUpdate(item, input, this.config);
      await this.assertReferences(next, item);
      return next;
    });
    return withWarnings(result, warnings);
  }

  /**
   * Claims an item. Taking over somebody else's live claim (`force`) is destructive to their
   * work and needs consent like a cancel of it (docs/TRACKER.md "Mutations"; the CLI's
   * `--force` is that consent, MCP asks the host).
   */
  async claim(id: string, input: ClaimInput = {}, options: MutationOptions & { consent?: ConsentProvider } = {}): Promise<MutationResult<Item>> {
    const holder = input.holder ?? this.actor(options);
    await this.ready();
    if (input.force) {
      const item = await this.get(id);
      const claim = item.claim;
      if (claim && claim.holder !== holder && claim.expiresAt > new Date(this.ports.clock.now()).toISOString()) {
        await this.requireConsent(options.consent, { action: 'take_claim', itemId: id, title: item.title, message: `Take over ${id} "${item.title}", which ${claim.holder} has claimed until ${claim.expiresAt}?` });
      }
    }
    const warnings: string[] = [];
    const result = await this.mutateItem(id, 'claim', { ...input, holder }, options, async (item, ctx) => {
      const next = applyClaim(item, holder, input, this.config, ctx);
      if (item.blockedBy.length > 0) {
        await this.sync.refresh();
        const [summary] = withActiveBlockers(this.index, [{ ...toSummary(toIndexEntry(item)) }]);
        const open = summary?.activeBlockers ?? [];
        if (open.length > 0) {
          const named = open.map((ref) => `${ref} (${this.index.get(ref)?.status ?? 'missing'})`).join(', ');
          this.warnOrRefuse(warnings, options, `${id} is blocked by unfinished work: ${named}`, 'blocked', { itemId: id, blockers: open }, 'finish or close it first, or claim without strict');
        }
      }
      return next;
    });
    return withWarnings(result, warnings);
  }

  /**
   * A risky but allowed change: a warning returned with the result, or under strict (the
   * option, else `strict` in config.yaml) a refusal with the same words and how to proceed.
   */
  private warnOrRefuse(warnings: string[], options: MutationOptions, message: string, reason: string, data: Record<string, unknown>, proceed: string): void {
    if (options.strict ?? this.config.strict) throw new ConflictError(`${message}; ${proceed}`, reason, { ...data, strict: true });
    warnings.push(message);
  }

  async release(id: string, input: ReleaseInput = {}, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    return this.mutateItem(id, 'release', input, options, (item, ctx) => applyRelease(item, this.actor(options), input.force, ctx));
  }

  /**
   * Closes (or cancels) an item with evidence. Canceling an item somebody else holds a live
   * claim on is destructive to their work and needs consent (docs/TRACKER.md "Mutations").
   */
  async close(id: string, input: CloseInput, options: MutationOptions & { consent?: ConsentProvider } = {}): Promise<MutationResult<Item>> {
    const actor = this.actor(options);
    if (input.as === 'canceled') {
      const item = await this.get(id);
      const claim = item.claim;
      if (claim && claim.holder !== actor && claim.expiresAt > new Date(this.ports.clock.now()).toISOString()) {
        await this.requireConsent(options.consent, { action: 'cancel_claimed', itemId: id, title: item.title, message: `Cancel ${id} "${item.title}", which ${claim.holder} has claimed until ${claim.expiresAt}?` });
      }
    }
    return this.mutateItem(id, 'close', input, options, (item, ctx) => applyClose(item, actor, input, ctx));
  }

  async reopen(id: string, reason: string | undefined, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    const commentId = `c-${this.ports.ids.randomBase36(8)}`;
    return this.mutateItem(id, 'reopen', { reason: reason ?? null }, options, (item, ctx) => applyReopen(item, reason, this.actor(options), ctx, commentId));
  }

  async comment(id: string, text: string, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    if (!text.trim()) throw new ValidationError('comment text must not be empty', { field: 'text' });
    const commentId = `c-${this.ports.ids.randomBase36(8)}`;
    return this.mutateItem(id, 'comment', { text }, options, (item, ctx) => ({
      ...item,
      comments: [...item.comments, { id: commentId, author: this.actor(options), at: ctx.now, text: text.trim() }],
    }));
  }

  /**
   * Adds a dependency. `blocks` is stored on the target as blockedBy (one direction on disk,
   * so one file changes per mutation); a blocker edge that would close a cycle is refused.
   */
  async addDependency(id: string, input: DependencyInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    const [holder, other] = input.kind === 'blocks' ? [input.target, id] : [id, input.target];
    const field = input.kind === 'related' ? 'related' : 'blockedBy';
    assertId(other);
    if (holder === other) throw new ValidationError(`${id} cannot depend on itself`, { field: 'target' });
    return this.mutateItem(holder, 'deps', { add: field, other }, options, async (item) => {
      await this.sync.refresh();
      this.requireIndexed(other);
      if (field === 'blockedBy') {
        const path = findPath(other, holder, (n) => this.index.get(n)?.blockedBy ?? []);
        if (path) throw new ConflictError(`adding ${holder} blocked by ${other} would close a cycle: ${[holder, ...path].join(' -> ')}`, 'dependency_cycle', { cycle: [holder, ...path] });
      }
      return item[field].includes(other) ? item : { ...item, [field]: [...item[field], other] };
    });
  }

  async removeDependency(id: string, input: DependencyInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    const [holder, other] = input.kind === 'blocks' ? [input.target, id] : [id, input.target];
    const field = input.kind === 'related' ? 'related' : 'blockedBy';
    return this.mutateItem(holder, 'deps', { remove: field, other }, options, (item) => {
      if (!item[field].includes(other)) throw new NotFoundError(`${holder} has no ${field} entry ${other}`, { itemId: holder, field, target: other });
      return { ...item, [field]: item[field].filter((v) => v !== other) };
    });
  }

  /**
   * Deletes an item after explicit consent. Items other items still point at (as parent,
   * blocker or related) are refused with the list of referrers; history is kept, ending in a
   * delete line, and the id is never reused.
   */
  async delete(id: string, options: MutationOptions & { consent?: ConsentProvider } = {}): Promise<MutationResult<null>> {
    assertId(id);
    const stored = await this.store.read(id);
    if (!stored) {
      // Already gone: a replay of an earlier delete (same idempotency key) still returns its receipt.
      if (options.idempotencyKey) return this.mutateItem(id, 'delete', {}, options, () => null) as unknown as Promise<MutationResult<null>>;
      throw new NotFoundError(`no item ${id}`, { itemId: id });
    }
    const item = stored.item;
    await this.sync.refresh();
    const referrers = this.index.referrers(id);
    if (referrers.length) throw new ConflictError(`${id} is still referenced by ${referrers.join(', ')}; remove those links first`, 'referenced', { itemId: id, referrers });
    await this.requireConsent(options.consent, { action: 'delete', itemId: id, title: item.title, message: `Delete ${id} "${item.title}"? The file is removed; its history is kept.` });
    return this.mutateItem(id, 'delete', {}, options, () => null) as unknown as Promise<MutationResult<null>>;
  }

  /** A compact picture of the project: counts, what to do next, who holds what. */
  async context(): Promise<TrackerContext> {
    const config = await this.ready();
    await this.sync.refresh();
    const now = new Date(this.ports.clock.now()).toISOString();
    const overview = this.index.overview(now);
    const next = runNextQuery(this.index, {}, now);
    const recent = withActiveBlockers(this.index, runListQuery(this.index, { all: true, sort: 'updated', limit: 5 }).items);
    return { root: this.paths.root, idPrefix: config.idPrefix, total: overview.total, byStatus: { ...overview.byStatus }, byType: { ...overview.byType }, next: next.item, nextRationale: next.rationale, claims: overview.claims.map((claim) => ({ ...claim })), recent, unreadable: this.index.problems() };
  }

  /** Stops following the files and closes the index (long-lived hosts call this on exit). */
  async dispose(): Promise<void> {
    this.sync.close();
    this.index.close();
  }

  private actor(options: MutationOptions): string {
    return options.actor ?? this.options.defaultActor;
  }

  private mutate(partial: Omit<MutationRequest, 'actor' | 'expectedRevision' | 'idempotencyKey'>, options: MutationOptions, apply: ApplyMutation): Promise<MutationResult<Item | null>> {
    const request: MutationRequest = { ...partial, actor: this.actor(options), ...(options.expectedRevision !== undefined ? { expectedRevision: options.expectedRevision } : {}), ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}) };
    return this.engine.run(request, apply);
  }

  private mutateItem(id: string, op: MutationRequest['op'], params: unknown, options: MutationOptions, apply: (item: Item, ctx: Parameters<ApplyMutation>[1]) => Item | null | Promise<Item | null>): Promise<MutationResult<Item>> {
    assertId(id);
    return this.mutate({ op, itemId: id, params }, options, (current, ctx) => apply(requireItem(current, id), ctx)) as Promise<MutationResult<Item>>;
  }

  private async requireConsent(consent: ConsentProvider | undefined, request: ConsentRequest): Promise<void> {
    if (!consent) throw new ConsentRequiredError(`${request.message} This needs explicit consent (CLI: --yes).`, { consentRequest: request });
    if (!(await consent(request))) throw new ConsentRequiredError(`consent declined: ${request.itemId} was left unchanged`, { consentRequest: request, declined: true });
  }

  private requireIndexed(id: string): void {
    if (!this.index.get(id)) throw new NotFoundError(`no item ${id}`, { itemId: id });
  }

  /**
   * Checks the references an item gains (a new parent, blockers or related items): they must
   * exist and must not close a cycle. References it already had were checked when they were
   * added, so a change that adds none needs no index at all (an update of a title stays a
   * one-file operation, also at 100k items).
   */
  private async assertReferences(item: Item, before?: Item): Promise<void> {
    const newParent = item.parent !== undefined && item.parent !== before?.parent ? item.parent : undefined;
    const newBlockers = item.blockedBy.filter((ref) => !before?.blockedBy.includes(ref));
    const newRelated = item.related.filter((ref) => !before?.related.includes(ref));
    if (newParent === undefined && newBlockers.length === 0 && newRelated.length === 0) return;
    await this.sync.refresh();
    if (newParent !== undefined) {
      if (newParent === item.id) throw new ValidationError(`${item.id} cannot be its own parent`, { field: 'parent' });
      this.requireIndexed(newParent);
      const path = findPath(newParent, item.id, (n) => { const p = this.index.get(n)?.parent; return p ? [p] : []; });
      if (path) throw new ConflictError(`making ${newParent} the parent of ${item.id} would close a cycle: ${[item.id, ...path].join(' -> ')}`, 'parent_cycle', { cycle: [item.id, ...path] });
    }
    for (const ref of [...newBlockers, ...newRelated]) {
      if (ref === item.id) throw new ValidationError(`${item.id} cannot depend on itself`, { field: 'blockedBy' });
      this.requireIndexed(ref);
    }
    for (const ref of newBlockers) {
      const path = findPath(ref, item.id, (n) => this.index.get(n)?.blockedBy ?? []);
      if (path) throw new ConflictError(`${item.id} blocked by ${ref} would close a cycle: ${[item.id, ...path].join(' -> ')}`, 'dependency_cycle', { cycle: [item.id, ...path] });
    }
  }
}

/** The item files a query had to leave out because they do not parse (none: the key is absent). */
export interface Unreadable {
  readonly unreadable?: { id: string; message: string }[];
}

export interface TrackerContext {
  readonly root: string;
  readonly idPrefix: string;
  readonly total: number;
  readonly byStatus: Record<string, number>;
  readonly byType: Record<string, number>;
  readonly next: NextResult['item'];
  readonly nextRationale: string;
  readonly claims: { id: string; title: string; holder: string; expiresAt: string }[];
  readonly recent: ListResult['items'];
  readonly unreadable: { id: string; message: string }[];
}

function withWarnings<T>(result: MutationResult<T>, warnings: readonly string[]): MutationResult<T> {
  return warnings.length && !result.replayed ? Object.freeze({ ...result, warnings: Object.freeze([...warnings]) }) : result;
}

function assertId(id: string): void {
  if (!ITEM_ID_PATTERN.test(id)) throw new ValidationError(`'${id}' is not an item id (expected <prefix>-<base36>, e.g. pm-a1b2c3)`, { field: 'id', value: id });
}


