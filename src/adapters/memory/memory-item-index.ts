import { TERMINAL_STATUSES } from '../../domain/tracker/config.js';
import { classifyReadiness, isLapsed, isReadinessCandidate } from '../../domain/tracker/readiness.js';
import type { FileSignature } from '../../ports/file-system.js';
import type {
  FileComparison,
  IndexBuild,
  IndexChange,
  IndexedFile,
  IndexedItem,
  IndexFilter,
  IndexOpening,
  IndexOverview,
  IndexPage,
  IndexPageQuery,
  IndexProblem,
  IndexSortField,
  ItemIndexStore,
  Readiness,
  ReadinessQuery,
  ScannedFiles,
  SearchCandidate,
  SearchCandidatesQuery,
  SearchTop,
  SearchTopQuery,
} from '../../ports/item-index-store.js';

const DIGEST_MODULUS = 2 ** 48;

interface Row {
  readonly item?: IndexedItem;
  readonly problem?: IndexProblem;
  readonly file: IndexedFile;
}

/**
 * The ItemIndexStore port in memory: tests, demos and embedding hosts with no database. Every
 * query scans the entries; the SQLite adapter answers the same queries through indexes, and one
 * contract suite holds both to the same results (same order, same counts, same candidates).
 */
export class MemoryItemIndex implements ItemIndexStore {
  private readonly rows = new Map<string, Row>();
  private readonly notes = new Map<string, string>();
  private sum = 0;

  open(): IndexOpening {
    return this.rows.size === 0 && this.notes.size === 0 ? { created: true, reason: 'missing' } : { created: false };
  }

  apply(changes: readonly IndexChange[]): number {
    let applied = 0;
    for (const change of changes) {
      const id = change.kind === 'item' ? change.item.id : change.kind === 'problem' ? change.problem.id : change.id;
      const current = this.rows.get(id);
      if (change.expected !== undefined && !sameFile(current?.file.signature, change.expected)) continue;
      if (current) this.sum = mod(this.sum - current.file.hash);
      if (change.kind === 'gone') this.rows.delete(id);
      else {
        this.rows.set(id, change.kind === 'item' ? { item: change.item, file: change.file } : { problem: change.problem, file: change.file });
        this.sum = mod(this.sum + change.file.hash);
      }
      applied++;
    }
    return applied;
  }

  digest(): number {
    return this.sum;
  }

  recomputeDigest(): number {
    this.sum = 0;
    for (const row of this.rows.values()) this.sum = mod(this.sum + row.file.hash);
    return this.sum;
  }

  files(): Map<string, IndexedFile> {
    return new Map([...this.rows].map(([id, row]) => [id, row.file]));
  }

  compareFiles(scanned: ScannedFiles): FileComparison {
    const seen = new Set<string>();
    const changed: { index: number; expected: FileSignature | null }[] = [];
    for (let index = 0; index < scanned.length; index++) {
      const id = scanned.id(index);
      seen.add(id);
      const file = this.rows.get(id)?.file;
      if (!file || file.hash !== scanned.hash(index)) changed.push({ index, expected: file?.signature ?? null });
    }
    const gone = [...this.rows].filter(([id]) => !seen.has(id)).map(([id, row]) => ({ id, expected: row.file.signature }));
    return { changed, gone };
  }

  fileOf(id: string): IndexedFile | undefined {
    return this.rows.get(id)?.file;
  }

  racy(): string[] {
    return [...this.rows].filter(([, row]) => row.file.racy).map(([id]) => id).sort(compareText);
  }

  note(key: string): string | undefined {
    return this.notes.get(key);
  }

  setNote(key: string, value: string): void {
    this.notes.set(key, value);
  }

  get(id: string): IndexedItem | undefined {
    return this.rows.get(id)?.item;
  }

  getMany(ids: readonly string[]): IndexedItem[] {
    return ids.map((id) => this.get(id)).filter((item): item is IndexedItem => item !== undefined);
  }

  size(): number {
    return this.items().length;
  }

  page(query: IndexPageQuery): IndexPage {
    const matching = this.items().filter(matcher(query.filter, this.blockedMark()));
    const direction = query.descending ? -1 : 1;
    const key = (item: IndexedItem) => query.sort.map((field) => sortValue(item, field));
    const sorted = matching.map((item) => ({ item, key: key(item) })).sort((a, b) => direction * compareKeys(a.key, b.key));
    const after = query.after;
    const rest = after ? sorted.filter((row) => direction * compareKeys(row.key, after) > 0) : sorted;
    return { items: rest.slice(0, query.limit).map((row) => row.item), total: matching.length };
  }

  /** The readiness `blocked` mark of an item: a blocker missing or not in a terminal status (as the SQLite adapter keeps it). */
  private blockedMark(): (item: IndexedItem) => boolean {
    return (item) => item.blockedBy.some((id) => {
      const status = this.get(id)?.status;
      return status === undefined || !TERMINAL_STATUSES.has(status);
    });
  }

  readiness(query: ReadinessQuery): Readiness {
    const terminal = TERMINAL_STATUSES;
    const all = this.items();
    const statusOf = new Map(all.map((item) => [item.id, item.status]));
    const openParents = new Set(all.filter((item) => item.parent !== undefined && !terminal.has(item.status)).map((item) => item.parent!));
    const counts = { open: 0, ready: 0, blocked: 0, claimed: 0, containers: 0 };
    const ready: IndexedItem[] = [];
    for (const item of all) {
      if (!isReadinessCandidate(item, query.status, query.nowIso)) continue;
      if (query.types?.length && !query.types.includes(item.type)) continue;
      if (query.tagsAll?.length && !query.tagsAll.every((tag) => item.tags.includes(tag))) continue;
      counts.open++;
      const blocked = item.blockedBy.some((id) => { const status = statusOf.get(id); return status === undefined || !terminal.has(status); });
      const category = classifyReadiness(item, { blocked, busy: openParents.has(item.id) }, query.assignee, query.nowIso);
      if (category === 'blocked') counts.blocked++;
      else if (category === 'claimed') counts.claimed++;
      else if (category === 'container') counts.containers++;
      else {
        counts.ready++;
        ready.push(item);
      }
    }
    ready.sort((a, b) => compareKeys([a.priority, a.created, a.id], [b.priority, b.created, b.id]));
    return { counts, ready: ready.slice(0, query.limit) };
  }

  /** Nothing to do: no other process builds this store, so nobody waits for one. */
  keepOwnUntilBuilt(_reason: string): void {}

  /** Builds into a second store and takes its rows at the end (one process: never busy). */
  startBuild(): IndexBuild | 'busy' | 'replaced' {
    const built = new MemoryItemIndex();
    return {
      add: (changes) => {
        built.apply(changes.filter((change) => change.kind !== 'gone').map((change) => ({ ...change, expected: undefined })));
      },
      finish: () => {
        this.rows.clear();
        for (const [id, row] of built.rows) this.rows.set(id, row);
        this.sum = built.sum;
      },
      abort: () => undefined,
    };
  }

  /** Every candidate: a superset of those that can rank first, as the port allows. */
  searchTop(query: SearchTopQuery): SearchTop {
    const candidates = [...this.searchCandidates(query)];
    return { total: candidates.length, candidates };
  }

  *searchCandidates(query: SearchCandidatesQuery): Iterable<SearchCandidate> {
    const included = matcher(query.filter, this.blockedMark());
    for (const item of this.items()) {
      if (!included(item)) continue;
      const counts: number[] = [];
      let present = 0;
      for (const term of query.terms) {
        const t = occurrences(item.text.title, term, query.cap);
        const b = occurrences(item.text.body, term, query.cap);
        const c = occurrences(item.text.comments, term, query.cap);
        counts.push(t, b, c);
        if (t + b + c > 0) present++;
      }
      const idMatch = item.id === query.phrase;
      const qualifies = idMatch || (query.requireAll ? present === query.terms.length : present > 0);
      if (!qualifies) continue;
      yield { id: item.id, priority: item.priority, updated: item.updated, idMatch, phraseInTitle: item.text.title.includes(query.phrase), counts };
    }
  }

  referrers(id: string): string[] {
    return this.items()
      .filter((item) => item.parent === id || item.blockedBy.includes(id) || item.related.includes(id))
      .map((item) => item.id)
      .sort(compareText);
  }

  overview(nowIso: string): IndexOverview {
    const byStatus: Record<string, number> = {};
    const byType: Record<string, number> = {};
    const claims: { id: string; title: string; holder: string; expiresAt: string }[] = [];
    const expiredClaims: typeof claims = [];
    const all = this.items();
    for (const item of all) {
      byStatus[item.status] = (byStatus[item.status] ?? 0) + 1;
      byType[item.type] = (byType[item.type] ?? 0) + 1;
      if (item.claimHolder !== undefined && item.claimExpiresAt !== undefined && item.claimExpiresAt > nowIso) {
        claims.push({ id: item.id, title: item.title, holder: item.claimHolder, expiresAt: item.claimExpiresAt });
      } else if (item.claimHolder !== undefined && isLapsed(item, nowIso) && !TERMINAL_STATUSES.has(item.status)) {
        expiredClaims.push({ id: item.id, title: item.title, holder: item.claimHolder, expiresAt: item.claimExpiresAt ?? '' });
      }
    }
    claims.sort((a, b) => compareKeys([a.expiresAt, a.id], [b.expiresAt, b.id]));
    expiredClaims.sort((a, b) => compareKeys([a.expiresAt, a.id], [b.expiresAt, b.id]));
    return { total: all.length, byStatus: sortedCounts(byStatus), byType: sortedCounts(byType), claims, expiredClaims };
  }

  problems(): IndexProblem[] {
    return [...this.rows.values()].flatMap((row) => (row.problem ? [row.problem] : [])).sort((a, b) => compareText(a.id, b.id));
  }

  close(): void {
    // Nothing to release: the entries live as long as this object.
  }

  private items(): IndexedItem[] {
    return [...this.rows.values()].flatMap((row) => (row.item ? [row.item] : []));
  }
}

function mod(value: number): number {
  return ((value % DIGEST_MODULUS) + DIGEST_MODULUS) % DIGEST_MODULUS;
}

function sameFile(recorded: FileSignature | undefined, expected: FileSignature | null): boolean {
  if (expected === null || recorded === undefined) return expected === null && recorded === undefined;
  return recorded.size === expected.size && recorded.mtimeMs === expected.mtimeMs && recorded.ino === expected.ino && recorded.ctimeMs === expected.ctimeMs;
}

/** The filter as a predicate (the SQLite adapter's WHERE clause, condition for condition). */
function matcher(filter: IndexFilter, isBlocked: (item: IndexedItem) => boolean): (item: IndexedItem) => boolean {
  return (item) =>
    (!filter.statuses || filter.statuses.includes(item.status))
    && (!filter.excludeStatuses || !filter.excludeStatuses.includes(item.status))
    && (!filter.types || filter.types.includes(item.type))
    && (!filter.priorities || filter.priorities.includes(item.priority))
    && (filter.blocked === undefined || isBlocked(item) === filter.blocked)
    && (!filter.tagsAll || filter.tagsAll.every((tag) => item.tags.includes(tag)))
    && (filter.assignee === undefined || item.assignee === filter.assignee)
    && (filter.parent === undefined || item.parent === filter.parent)
    && (filter.idPrefix === undefined || item.id.startsWith(filter.idPrefix))
    && (filter.blockedBy === undefined || item.blockedBy.includes(filter.blockedBy))
    && (filter.text === undefined || item.text.title.includes(filter.text) || item.text.body.includes(filter.text));
}

function sortValue(item: IndexedItem, field: IndexSortField): string | number {
  return field === 'titleText' ? item.text.title : item[field];
}

/** Non-overlapping occurrences, left to right, stopping at `cap`. */
function occurrences(haystack: string, term: string, cap: number): number {
  let count = 0;
  for (let at = haystack.indexOf(term); at >= 0 && count < cap; at = haystack.indexOf(term, at + term.length)) count++;
  return count;
}

function sortedCounts(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(counts).sort(compareText).map((key) => [key, counts[key]!]));
}

function compareKeys(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const order = typeof x === 'string' && typeof y === 'string' ? compareText(x, y) : x < y ? -1 : 1;
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * Orders strings by Unicode code point, as SQLite's binary collation orders UTF-8: JavaScript's
 * `<` compares UTF-16 code units, which puts characters above U+FFFF (surrogate pairs) before
 * U+E000..U+FFFF.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return rank(x) - rank(y);
    return x - y;
  }
  return a.length - b.length;
}

/** Code units from U+D800 up in code point order: surrogates (astral characters) after U+FFFF. */
const rank = (unit: number): number => (unit >= 0xe000 ? unit - 0x800 : unit + 0x2000);
