import type { FileSignature } from './file-system.js';

/**
 * One item as the derived index keeps it: the fields list, next and search filter and sort
 * on, and the lowercased text search looks in. Derived from the item file, never the source of
 * truth (docs/TRACKER.md "The derived index").
 */
export interface IndexedItem {
  readonly id: string;
  readonly title: string;
  readonly type: string;
  readonly status: string;
  readonly priority: number;
  readonly tags: readonly string[];
  readonly parent?: string;
  readonly assignee?: string;
  readonly claimHolder?: string;
  readonly claimExpiresAt?: string;
  readonly blockedBy: readonly string[];
  readonly related: readonly string[];
  readonly created: string;
  readonly updated: string;
  readonly revision: number;
  /** How many comments the item has. */
  readonly comments: number;
  /** Lowercased title, body and comment texts (comments joined by newlines). */
  readonly text: { readonly title: string; readonly body: string; readonly comments: string };
}

/** An item file the index could not read, kept so an unchanged broken file is not re-read. */
export interface IndexProblem {
  readonly id: string;
  readonly message: string;
}

/**
 * What the index records of the file an entry was derived from. `hash` is the domain's hash of
 * the file's name and signature (an integer in [0, 2^48)); the store keeps their sum, so the
 * domain can compare a whole directory scan with the index in O(1). `racy` marks a file whose
 * modification time was too close to the moment it was read for its signature to prove that a
 * later in-place edit changed it: such files are read again by the next check.
 */
export interface IndexedFile {
  readonly signature: FileSignature;
  readonly hash: number;
  readonly racy: boolean;
}

/**
 * A directory scan as {@link ItemIndexStore.compareFiles} takes it: its files by position, each
 * id and hash made when asked for (a scan of 100,000 files holds no object per file).
 */
export interface ScannedFiles {
  readonly length: number;
  id(index: number): string;
  hash(index: number): number;
}

export interface FileComparison {
  readonly changed: readonly { readonly index: number; readonly expected: FileSignature | null }[];
  readonly gone: readonly { readonly id: string; readonly expected: FileSignature }[];
}

/**
 * One change to the index. `expected` makes it conditional (compare and swap): it applies only
 * while the file recorded for the id is still the one given (`null`: no record at all), so a
 * reader repairing the index from a file it read cannot overwrite what a writer recorded
 * meanwhile. Without `expected` the change applies unconditionally (the writer holding the
 * tracker's write lock).
 */
export type IndexChange =
  | { readonly kind: 'item'; readonly item: IndexedItem; readonly file: IndexedFile; readonly expected?: FileSignature | null }
  | { readonly kind: 'problem'; readonly problem: IndexProblem; readonly file: IndexedFile; readonly expected?: FileSignature | null }
  | { readonly kind: 'gone'; readonly id: string; readonly expected?: FileSignature | null };

/** Which items a query looks at. Every given condition must hold. */
export interface IndexFilter {
  /** Status is one of these. */
  readonly statuses?: readonly string[];
  /** Status is none of these. */
  readonly excludeStatuses?: readonly string[];
  readonly types?: readonly string[];
  /** Priority is one of these. */
  readonly priorities?: readonly number[];
  /** The item carries every one of these tags. */
  readonly tagsAll?: readonly string[];
  readonly assignee?: string;
  readonly parent?: string;
  readonly idPrefix?: string;
  /** The item lists this id among its blockers. */
  readonly blockedBy?: string;
  /** A substring (already lowercase) of the lowercased title or body. */
  readonly text?: string;
  /**
   * True: some blocker is missing from the index or has a status that is not terminal (the
   * ReadinessQuery's blocked category, for any status); false: none is.
   */
  readonly blocked?: boolean;
}

/** The fields a page can be ordered by; `titleText` is the lowercased title. */
export type IndexSortField = 'priority' | 'created' | 'updated' | 'titleText' | 'id';

/**
 * A keyset page: items matching `filter`, ordered by `sort` (ascending, or all fields descending),
 * strictly after the key `after` (the `sort` values of the previous page's last item). Strings
 * order by Unicode code point (SQLite's binary collation on UTF-8).
 */
export interface IndexPageQuery {
  readonly filter: IndexFilter;
  readonly sort: readonly IndexSortField[];
  readonly descending: boolean;
  readonly after?: readonly (string | number)[];
  readonly limit: number;
}

export interface IndexPage {
  readonly items: readonly IndexedItem[];
  /** How many items match the filter in all (ignoring `after` and `limit`). */
  readonly total: number;
}

/**
 * What next asks of the index: the candidates — items with status `status`, and items of any
 * status but closed or canceled (the tracker's TERMINAL_STATUSES) whose claim has lapsed
 * (claimHolder set, claimExpiresAt <= `nowIso`) — with the given types and tags, sorted into
 * categories, first match wins (src/domain/tracker/readiness.ts states the rule once, as
 * classifyReadiness; docs/TRACKER.md "Claims and leases"):
 * - blocked: a blocker is missing from the index or has a status that is not terminal;
 * - claimed: claimHolder set, claimExpiresAt > `nowIso` and claimHolder is not `assignee`;
 * - claimed: assignee set, the query names an `assignee`, and they differ — unless the claim
 *   has lapsed and its holder is that assignee (the assignment lapsed with the claim);
 * - container: some item whose parent is this one has a status that is not terminal;
 * - ready: everything else.
 * The ready items come in (priority, created, id) ascending order, at most `limit` of them.
 * The terminal statuses are fixed rather than asked for, so a store can keep the blocked and
 * container marks up to date as changes apply instead of deriving them per query.
 */
export interface ReadinessQuery {
  readonly status: string;
  readonly nowIso: string;
  readonly assignee?: string;
  readonly types?: readonly string[];
  readonly tagsAll?: readonly string[];
  readonly limit: number;
}

export interface Readiness {
  readonly counts: { readonly open: number; readonly ready: number; readonly blocked: number; readonly claimed: number; readonly containers: number };
  readonly ready: readonly IndexedItem[];
}

/**
 * The candidates of a search. An item is a candidate when its id equals `phrase`, or when every
 * term (with `requireAll`; otherwise at least one) occurs as a substring of its lowercased
 * title, body or comments. Terms and phrase are lowercase already.
 */
export interface SearchCandidatesQuery {
  readonly terms: readonly string[];
  readonly phrase: string;
  readonly requireAll: boolean;
  /** Occurrence counts stop at this number. */
  readonly cap: number;
  readonly filter: IndexFilter;
}

/**
 * What the domain ranks a candidate by. `counts` holds, per term in query order, the number of
 * non-overlapping occurrences (left to right, at most `cap`) in the title, the body and the
 * comments: three numbers per term.
 */
export interface SearchCandidate {
  readonly id: string;
  readonly priority: number;
  readonly updated: string;
  readonly idMatch: boolean;
  /** Whether the lowercased title contains the whole phrase. */
  readonly phraseInTitle: boolean;
  readonly counts: readonly number[];
}

/**
 * How search-query.ts ranks candidates, given to {@link ItemIndexStore.searchTop} so a store can
 * return the few that can rank first instead of every candidate. A candidate's score is the sum
 * over terms and fields of its (capped) count times the field's weight, plus `phraseBonus` when
 * `phraseInTitle` and the phrase is longer than two UTF-16 code units; candidates order by the
 * number of terms they contain (an id match counts as all), then score (descending), priority
 * (ascending), updated (descending) and id.
 */
export interface SearchRanking {
  readonly limit: number;
  /** Weights of an occurrence in the title, the body and the comments. */
  readonly weights: readonly [number, number, number];
  readonly phraseBonus: number;
}

export interface SearchTopQuery extends SearchCandidatesQuery {
  readonly ranking: SearchRanking;
}

/**
 * `candidates` holds every candidate that can be among the first `ranking.limit` by that
 * ranking (the id match always, when there is one), possibly more, in no particular order;
 * `total` is the number of all candidates.
 */
export interface SearchTop {
  readonly total: number;
  readonly candidates: readonly SearchCandidate[];
}

/** Counts and live claims over every indexed item (pm context). */
export interface IndexOverview {
  readonly total: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly byType: Readonly<Record<string, number>>;
  /** Claims with claimExpiresAt > nowIso, by expiry then id. */
  readonly claims: readonly { readonly id: string; readonly title: string; readonly holder: string; readonly expiresAt: string }[];
  /** Lapsed claims (claimExpiresAt <= nowIso) of items not closed or canceled, by expiry then id. */
  readonly expiredClaims: readonly { readonly id: string; readonly title: string; readonly holder: string; readonly expiresAt: string }[];
}

/** How {@link ItemIndexStore.open} found the stored index. */
export interface IndexOpening {
  /** True when there was no usable index (missing, corrupt, or of another schema) and an empty one was made. */
  readonly created: boolean;
  readonly reason?: 'missing' | 'corrupt' | 'schema';
  /**
   * True when this index is the process's own (kept in its memory because the shared one
   * cannot be written: docs/TRACKER.md "When the index is damaged or cannot be written"), so
   * no other process — the index watcher — can vouch that it is fresh.
   */
  readonly own?: boolean;
  /**
   * True when the store now reads another index than at its previous open (another process
   * replaced the file, e.g. after finding it damaged): what this process followed meanwhile (its
   * watch) says nothing of the new one, whose builder may have died before it was complete, so
   * the caller checks every file.
   */
  readonly replaced?: boolean;
}

/**
 * A whole index built aside while the store keeps answering from the current one (a first
 * query with no usable index: docs/TRACKER.md "The derived index"). One process at a time
 * builds; {@link finish} makes the built index the store's in one atomic step, so no reader ever
 * sees a half-built index.
 */
export interface IndexBuild {
  /** Records these items and unreadable files (unconditionally; `gone` changes are ignored). */
  add(changes: readonly IndexChange[]): void;
  /** Replaces the store's whole content by what was added, atomically. */
  finish(): void;
  /** Drops what was added; the store is left as it was. */
  abort(): void;
}

/**
 * The derived index behind list, next, search and the dependency graph (docs/TRACKER.md "The
 * derived index"), shaped to those queries: the store selects and orders candidates, the domain
 * keeps the rules (readiness categories and search ranking are computed from what it returns,
 * or follow the query's definition above). Synchronous: both adapters answer from local memory
 * or a local database file, and each call sees one consistent state. Several processes may
 * share one store; every change is applied atomically.
 */
export interface ItemIndexStore {
  /** Opens (or creates) the stored index; a missing, corrupt or other-schema one is replaced by an empty one. */
  open(): IndexOpening;
  /**
   * Starts building the whole index aside ({@link IndexBuild}): 'busy' while another process
   * builds one (wait, then start again, or {@link keepOwnUntilBuilt}), 'replaced' when another process replaced the index
   * since this store opened it (open it again and check it instead of building).
   */
  startBuild(): IndexBuild | 'busy' | 'replaced';
  /**
   * Another process has been building the shared index for longer than this one may wait
   * (PM_LOCK_TIMEOUT_MS: docs/TRACKER.md "Waits"): until that build ends, the store answers from
   * an empty index of this process's own, which the caller fills from the item files ({@link open}
   * says `own`); the first {@link open} after the build ended returns to the shared index and says
   * `replaced`. `reason` goes to the process's log, once. A store nobody else builds ignores the call.
   */
  keepOwnUntilBuilt(reason: string): void;
  /** Applies the changes in one atomic step; returns how many applied (conditional ones may not). */
  apply(changes: readonly IndexChange[]): number;
  /** The sum (mod 2^48) of the hashes of every recorded file. */
  digest(): number;
  /** Recomputes {@link digest} from the recorded files (after a check found no difference but the sums disagreed). */
  recomputeDigest(): number;
  /** Every recorded file, by id (items and problems). */
  files(): Map<string, IndexedFile>;
  /**
   * Compares a directory scan (each file's id and hash) with the recorded files: the positions
   * in `scanned` of files recorded with another hash or not at all (with the recorded signature,
   * null when none), and the recorded files the scan did not find.
   */
  compareFiles(scanned: ScannedFiles): FileComparison;
  /** The recorded file of one id. */
  fileOf(id: string): IndexedFile | undefined;
  /** The ids whose recorded file is marked racy. */
  racy(): string[];
  /** A small value the domain keeps with the index (the items directory's last seen signature). */
  note(key: string): string | undefined;
  setNote(key: string, value: string): void;
  get(id: string): IndexedItem | undefined;
  /** The items with these ids that exist, in the order given. */
  getMany(ids: readonly string[]): IndexedItem[];
  size(): number;
  page(query: IndexPageQuery): IndexPage;
  readiness(query: ReadinessQuery): Readiness;
  /** Every candidate, in no particular order. */
  searchCandidates(query: SearchCandidatesQuery): Iterable<SearchCandidate>;
  /** The candidates that can rank first, and how many there are in all (see {@link SearchTop}). */
  searchTop(query: SearchTopQuery): SearchTop;
  /** Ids of the items that name `id` as parent, blocker or related item, sorted. */
  referrers(id: string): string[];
  overview(nowIso: string): IndexOverview;
  /** Unreadable item files, by id. */
  problems(): IndexProblem[];
  close(): void;
}
