import { ValidationError } from '../errors/index.js';
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

/**
 * Ranked lexical search over id, title, body and comments. Each term scores its occurrences
 * (title weighted 5x, capped per field); an exact id or a whole-phrase title match ranks
 * first. Items must contain every term; when none does, items with any term are ranked by
 * how many terms they contain. Ties go to higher priority, then to the most recently updated.
 */
export function runSearchQuery(entries: Iterable<IndexEntry>, query: SearchQuery): SearchResult {
  const terms = tokenize(query.query);
  if (terms.length === 0) throw new ValidationError('search query has no words to look for', { field: 'query' });
  const limit = query.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new ValidationError(`limit must be an integer from 1 to 200, got ${limit}`, { field: 'limit' });
  const phrase = query.query.trim().toLowerCase();
  const statuses = query.status?.length ? new Set(query.status) : undefined;
  type Row = { entry: IndexEntry; score: number; matched: number; fields: Set<SearchHit['matchedIn'][number]> };
  const compare = (a: Row, b: Row) => b.matched - a.matched || b.score - a.score || a.entry.priority - b.entry.priority || (a.entry.updated > b.entry.updated ? -1 : 1);
  const top: Row[] = [];
  let totalAll = 0;
  let totalAny = 0;
  const termGrams = terms.map(gramsOf);
  let maskBudget = MASK_BUILDS_PER_SEARCH;
  for (const entry of entries) {
    if (statuses ? !statuses.has(entry.status) : query.openOnly && TERMINAL_STATUSES.has(entry.status)) continue;
    let score = 0;
    let matched = 0;
    // Allocated only for the (few) entries that match: most of a 100k index does not.
    let fields: Row['fields'] | undefined;
    const mask = gramMasks.get(entry) ?? (maskBudget-- > 0 ? gramMaskOf(entry) : undefined);
    for (let i = 0; i < terms.length; i++) {
      if (mask && !hasGrams(mask, termGrams[i]!)) continue;
      const term = terms[i]!;
      const t = occurrences(entry.text.title, term);
      const b = occurrences(entry.text.body, term);
      const c = occurrences(entry.text.comments, term);
      if (t + b + c === 0) continue;
      fields ??= new Set();
      if (t) fields.add('title');
      if (b) fields.add('body');
      if (c) fields.add('comments');
      matched++;
      score += t * WEIGHTS.title + b * WEIGHTS.body + c * WEIGHTS.comments;
    }
    if (entry.id === phrase) { score += 1000; matched = terms.length; (fields ??= new Set()).add('id'); }
    if (matched === 0 || !fields) continue;
    if (phrase.length > 2 && entry.text.title.includes(phrase)) score += 20;
    totalAny++;
    if (matched === terms.length) totalAll++;
    insertBounded(top, { entry, score, matched, fields }, limit, compare);
  }
  const mode = totalAll > 0 ? 'all' : 'any';
  const rows = mode === 'all' ? top.filter((r) => r.matched === terms.length) : top;
  return {
    mode,
    total: mode === 'all' ? totalAll : totalAny,
    results: rows.map((r) => ({ ...toSummary(r.entry), score: r.score, matchedIn: [...r.fields], ...snippetOf(r.entry, terms) })),
  };
}

/** 1024-bit masks of the character trigrams in an entry's searchable text, by entry. */
const GRAM_BITS = 1024;
const gramMasks = new WeakMap<IndexEntry, Uint32Array>();
/**
 * Masks built per search at most (~10x a plain scan of the same entry each), so a one-shot
 * process pays little and a long-lived one has every mask after a few searches.
 */
const MASK_BUILDS_PER_SEARCH = 8192;

/** Hash of the trigram ending at text[i], in 0..GRAM_BITS-1. */
function gramHash(text: string, i: number): number {
  return (Math.imul(text.charCodeAt(i - 2), 0x9e3779b1) ^ Math.imul(text.charCodeAt(i - 1), 0x85ebca6b) ^ Math.imul(text.charCodeAt(i), 0xc2b2ae35)) >>> 22;
}

/**
 * A term can occur in a text only if every trigram of the term occurs in it, so an entry whose
 * mask lacks one of the term's trigram bits is skipped without scanning its text: at 100k
 * entries most per-entry substring scans become a few bit tests. Masks are computed lazily
 * and cached per entry object (the index replaces entries, never mutates them).
 */
function gramMaskOf(entry: IndexEntry): Uint32Array {
  const mask = new Uint32Array(GRAM_BITS / 32);
  for (const text of [entry.text.title, entry.text.body, entry.text.comments]) {
    for (let i = 2; i < text.length; i++) {
      const h = gramHash(text, i);
      mask[h >>> 5]! |= 1 << (h & 31);
    }
  }
  gramMasks.set(entry, mask);
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
