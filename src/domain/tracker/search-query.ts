import { ValidationError } from '../errors/index.js';
import { BoundedCache } from '../util/bounded-cache.js';
import { TERMINAL_STATUSES } from './config.js';
import { toSummary, type IndexEntry, type ItemSummary } from './index-entry.js';
import { insertBounded } from './list-query.js';

export interface SearchQuery {
  readonly query: string;
  readonly limit?: number;
  readonly status?: readonly string[];
  /** Leave out closed and canceled items (default: include them). */
  readonly openOnly?: boolean;
}

export interface SearchHit extends ItemSummary {
  readonly score: number;
  /** Where the terms were found. */
  readonly matchedIn: readonly ('id' | 'title' | 'body' | 'comments')[];
  readonly snippet?: string;
}

export interface SearchResult {
  readonly results: SearchHit[];
  readonly total: number;
  /** 'all' when every term matched; 'any' when no item had all terms and partial matches are shown. */
  readonly mode: 'all' | 'any';
}

const WEIGHTS = { title: 5, body: 1, comments: 1 } as const;
const MAX_COUNT = 5;

/** Lowercase search terms: letters, digits, '_' and '-' runs. */
export function tokenize(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}_-]+/gu) ?? [])];
}

function occurrences(haystack: string, term: string): number {
  let count = 0;
  for (let at = haystack.indexOf(term); at >= 0 && count < MAX_COUNT; at = haystack.indexOf(term, at + term.length)) count++;
  return count;
}

type Field = SearchHit['matchedIn'][number];
interface Row {
  readonly entry: IndexEntry;
  readonly score: number;
  readonly matched: number;
  readonly fields: Set<Field>;
}

/**
 * Ranked lexical search over id, title, body and comments. Each term scores its occurrences
 * (title weighted 5x, capped per field); an exact id or a whole-phrase title match ranks
 * first. Items must contain every term; when none does, items with any term are ranked by
 * how many terms they contain. Ties go to higher priority, then to the most recently updated.
 *
 * Runs in two passes so the usual case stays cheap at 100k items: the first counts and ranks
 * only items with every term (an item is dropped at its first missing term, usually by a
 * trigram-mask test without reading its text); only when no item has them all does a second
 * pass rank partial matches.
 *
 * @param masksCache where the trigram masks are kept (default: the process-wide one)
 */
export function runSearchQuery(entries: Iterable<IndexEntry>, query: SearchQuery, masksCache: GramMaskCache = gramMasks): SearchResult {
  const terms = tokenize(query.query);
  if (terms.length === 0) throw new ValidationError('search query has no words to look for', { field: 'query' });
  const limit = query.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new ValidationError(`limit must be an integer from 1 to 200, got ${limit}`, { field: 'limit' });
  const statuses = query.status?.length ? new Set(query.status) : undefined;
  const scorer = new Scorer(terms, query.query.trim().toLowerCase());
  const compare = (a: Row, b: Row) => b.matched - a.matched || b.score - a.score || a.entry.priority - b.entry.priority || (a.entry.updated > b.entry.updated ? -1 : 1);
  const included = (e: IndexEntry) => (statuses ? statuses.has(e.status) : !(query.openOnly && TERMINAL_STATUSES.has(e.status)));
  const count = masksCache.load(entries);
  const { order, masks } = masksCache;
  let top: Row[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    const entry = order[i]!;
    if (!included(entry)) continue;
    const row = scorer.score(entry, masks[i], true);
    if (!row) continue;
    total++;
    insertBounded(top, row, limit, compare);
  }
  const mode = total > 0 ? 'all' : 'any';
  // With one term, "any" finds exactly what "all" found: nothing.
  if (mode === 'any' && terms.length > 1) {
    top = [];
    for (let i = 0; i < count; i++) {
      const entry = order[i]!;
      if (!included(entry)) continue;
      const row = scorer.score(entry, masks[i], false);
      if (!row) continue;
      total++;
      insertBounded(top, row, limit, compare);
    }
  }
  return {
    mode,
    total,
    results: top.map((r) => ({ ...toSummary(r.entry), score: r.score, matchedIn: [...r.fields], ...snippetOf(r.entry, terms) })),
  };
}

/** Scores one entry against the query's terms (the same rules in both passes). */
class Scorer {
  private readonly grams: number[][];

  constructor(
    private readonly terms: readonly string[],
    private readonly phrase: string,
  ) {
    this.grams = terms.map(gramsOf);
  }

  /** The entry's row, or undefined when it matches no term (with requireAll: not every term). */
  score(entry: IndexEntry, mask: Uint32Array | undefined, requireAll: boolean): Row | undefined {
    const { terms, grams, phrase } = this;
    const idMatch = entry.id === phrase;
    const strict = requireAll && !idMatch;
    if (strict && mask) for (const g of grams) if (!hasGrams(mask, g)) return undefined;
    let score = 0;
    let matched = 0;
    // Allocated only for entries that match: most of a 100k index does not.
    let fields: Set<Field> | undefined;
    for (let i = 0; i < terms.length; i++) {
      if (mask && !hasGrams(mask, grams[i]!)) continue;
      const term = terms[i]!;
      const t = occurrences(entry.text.title, term);
      const b = occurrences(entry.text.body, term);
      const c = occurrences(entry.text.comments, term);
      if (t + b + c === 0) {
        if (strict) return undefined;
        continue;
      }
      fields ??= new Set();
      if (t) fields.add('title');
      if (b) fields.add('body');
      if (c) fields.add('comments');
      matched++;
      score += t * WEIGHTS.title + b * WEIGHTS.body + c * WEIGHTS.comments;
    }
    if (idMatch) { score += 1000; matched = terms.length; (fields ??= new Set()).add('id'); }
    if (matched === 0 || !fields) return undefined;
    if (phrase.length > 2 && entry.text.title.includes(phrase)) score += 20;
    return { entry, score, matched, fields };
  }
}

/** 1024-bit masks of the character trigrams in an entry's searchable text. */
const GRAM_BITS = 1024;
/**
 * Masks built per search at most (building one costs more than scanning the entry's text
 * once), so a one-shot process pays little and a long-lived one has every mask after a few
 * searches.
 */
const MASK_BUILDS_PER_SEARCH = 8192;
/**
 * How many masks a {@link GramMaskCache} keeps, by item id: above the item counts pm is built
 * for (its benchmarks go to 100k items), so a shift of the index's order finds every mask kept.
 */
export const SEARCH_MASKS_LIMIT = 1 << 18;

/** A trigram mask, with the index entry it was built from. */
export interface KeptMask {
  readonly entry: IndexEntry;
  readonly mask: Uint32Array;
}

/**
 * The entries of the latest search in iteration order, with their trigram masks. While the
 * index's order is unchanged a mask is found by position, one identity check per entry (a map
 * lookup per entry costs about as much as scanning a short text); where the order changed it
 * is looked up in the mask cache by item id and used only if it was built from this very
 * entry object (the index replaces entries and never mutates them, so a mask stays right for
 * its object, and an id keeps at most one stale entry alive). The arrays are reused by every
 * search: allocating two index-sized arrays per search cost more in garbage collection than
 * the search itself (docs/BENCHMARKS.md "Before and after the performance work").
 *
 * Masks are a speed-up only: a missing mask means the entry's text is scanned. While caches are
 * bypassed no mask is used or built and every search scans every text, which is how tests
 * check that the masks never change a result.
 */
export class GramMaskCache {
  readonly order: IndexEntry[] = [];
  readonly masks: (Uint32Array | undefined)[] = [];

  /** @param kept the mask of each recently searched entry, by item id (tests pass a small one) */
  constructor(private readonly kept = new BoundedCache<string, KeptMask>('search trigram masks', SEARCH_MASKS_LIMIT)) {}

  /** Takes a search's entries; returns how many there are (valid positions in order/masks). */
  load(entries: Iterable<IndexEntry>): number {
    const { order, masks } = this;
    const bypassed = BoundedCache.bypassing;
    let budget = bypassed ? 0 : MASK_BUILDS_PER_SEARCH;
    let count = 0;
    for (const entry of entries) {
      if (order[count] !== entry || bypassed) {
        order[count] = entry;
        masks[count] = this.keptMask(entry);
      }
      if (!masks[count] && budget > 0) {
        budget--;
        const mask = buildGramMask(entry);
        this.kept.set(entry.id, { entry, mask });
        masks[count] = mask;
      }
      count++;
    }
    if (order.length > count) {
      // Forget positions past the end, so removed entries are not kept alive.
      order.length = count;
      masks.length = count;
    }
    return count;
  }

  /** The kept mask of this very entry object (undefined for an older entry of its item). */
  private keptMask(entry: IndexEntry): Uint32Array | undefined {
    const kept = this.kept.get(entry.id);
    return kept?.entry === entry ? kept.mask : undefined;
  }
}

/** The masks of every search that is not given its own. */
const gramMasks = new GramMaskCache();

/** Hash of the trigram ending at text[i], in 0..GRAM_BITS-1. */
function gramHash(text: string, i: number): number {
  return (Math.imul(text.charCodeAt(i - 2), 0x9e3779b1) ^ Math.imul(text.charCodeAt(i - 1), 0x85ebca6b) ^ Math.imul(text.charCodeAt(i), 0xc2b2ae35)) >>> 22;
}

/**
 * A term can occur in a text only if every trigram of the term occurs in it, so an entry whose
 * mask lacks one of the term's trigram bits is skipped without scanning its text: at 100k
 * entries most per-entry substring scans become a few bit tests.
 */
function buildGramMask(entry: IndexEntry): Uint32Array {
  const mask = new Uint32Array(GRAM_BITS / 32);
  for (const text of [entry.text.title, entry.text.body, entry.text.comments]) {
    for (let i = 2; i < text.length; i++) {
      const h = gramHash(text, i);
      mask[h >>> 5]! |= 1 << (h & 31);
    }
  }
  return mask;
}

/** The bit positions of a term's trigrams (none for terms under 3 characters: never skipped). */
function gramsOf(term: string): number[] {
  const out: number[] = [];
  for (let i = 2; i < term.length; i++) out.push(gramHash(term, i));
  return out;
}

function hasGrams(mask: Uint32Array, grams: readonly number[]): boolean {
  for (const h of grams) if ((mask[h >>> 5]! & (1 << (h & 31))) === 0) return false;
  return true;
}

function snippetOf(entry: IndexEntry, terms: string[]): { snippet?: string } {
  for (const source of [entry.text.body, entry.text.comments]) {
    for (const term of terms) {
      const at = source.indexOf(term);
      if (at < 0) continue;
      const start = Math.max(0, at - 40);
      const end = Math.min(source.length, at + term.length + 60);
      return { snippet: `${start > 0 ? '…' : ''}${source.slice(start, end).replace(/\s+/g, ' ').trim()}${end < source.length ? '…' : ''}` };
    }
  }
  return {};
}
