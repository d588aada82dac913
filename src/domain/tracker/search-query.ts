import type { IndexFilter, ItemIndexStore, SearchCandidate } from '../../ports/item-index-store.js';
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
/** Occurrences of a term counted per field at most. */
const MAX_COUNT = 5;
const ID_BONUS = 1000;
const PHRASE_BONUS = 20;
const FIELDS = ['title', 'body', 'comments'] as const;

/** Lowercase search terms: letters, digits, '_' and '-' runs. */
export function tokenize(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}_-]+/gu) ?? [])];
}

type Field = SearchHit['matchedIn'][number];
interface Row {
  readonly candidate: SearchCandidate;
  readonly score: number;
  readonly matched: number;
  readonly fields: readonly Field[];
}

/**
 * Ranked lexical search over id, title, body and comments. Each term scores its occurrences
 * (title weighted 5x, capped per field); an exact id or a whole-phrase title match ranks
 * first. Items must contain every term; when none does, items with any term are ranked by
 * how many terms they contain. Ties go to higher priority, then to the most recently updated,
 * then to the smaller id.
 *
 * The index selects the candidates and counts each term's occurrences per field; given the
 * ranking's parameters it may return just the candidates that can rank first (the SQLite index
 * reads them from its word table), but the ranking is computed here, so every index adapter
 * ranks alike. Only the best `limit` rows are kept, and only those are read in full (for
 * summaries and snippets).
 */
/** Tokenized terms of a query, as {@link runSearchQuery} looks for them. */
export function searchTerms(query: string): string[] {
  return tokenize(query);
}

export function runSearchQuery(index: ItemIndexStore, query: SearchQuery): SearchResult {
  const terms = tokenize(query.query);
  if (terms.length === 0) throw new ValidationError('search query has no words to look for', { field: 'query' });
  const limit = query.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new ValidationError(`limit must be an integer from 1 to 200, got ${limit}`, { field: 'limit' });
  const filter: IndexFilter = query.status?.length ? { statuses: query.status } : query.openOnly ? { excludeStatuses: [...TERMINAL_STATUSES] } : {};
  const phrase = query.query.trim().toLowerCase();
  const ranking = { limit, weights: [WEIGHTS.title, WEIGHTS.body, WEIGHTS.comments] as const, phraseBonus: PHRASE_BONUS };
  const rank = (requireAll: boolean) => {
    const top: Row[] = [];
    const found = index.searchTop({ terms, phrase, requireAll, cap: MAX_COUNT, filter, ranking });
    for (const candidate of found.candidates) {
      const row = scoreOf(candidate, terms.length, phrase);
      if (row) insertBounded(top, row, limit, compareRows);
    }
    return { top, total: found.total };
  };
  let mode: SearchResult['mode'] = 'all';
  let { top, total } = rank(true);
  // With one term, "any" finds exactly what "all" found: nothing.
  if (total === 0 && terms.length > 1) {
    mode = 'any';
    ({ top, total } = rank(false));
  } else if (total === 0) mode = 'any';
  const entries = new Map(index.getMany(top.map((row) => row.candidate.id)).map((entry) => [entry.id, entry]));
  const results: SearchHit[] = [];
  for (const row of top) {
    const entry = entries.get(row.candidate.id);
    if (entry) results.push({ ...toSummary(entry), score: row.score, matchedIn: row.fields, ...snippetOf(entry, terms) });
  }
  return { mode, total, results };
}

/** The ranking of one candidate (undefined when it matches no term and is no id match). */
function scoreOf(candidate: SearchCandidate, termCount: number, phrase: string): Row | undefined {
  const fields: Field[] = [];
  let score = 0;
  let matched = 0;
  for (let term = 0; term < termCount; term++) {
    let found = false;
    for (let f = 0; f < FIELDS.length; f++) {
      const count = candidate.counts[term * 3 + f]!;
      if (count === 0) continue;
      found = true;
      const field = FIELDS[f]!;
      if (!fields.includes(field)) fields.push(field);
      score += count * WEIGHTS[field];
    }
    if (found) matched++;
  }
  if (candidate.idMatch) {
    score += ID_BONUS;
    matched = termCount;
    if (!fields.includes('id')) fields.push('id');
  }
  if (matched === 0) return undefined;
  if (phrase.length > 2 && candidate.phraseInTitle) score += PHRASE_BONUS;
  return { candidate, score, matched, fields };
}

function compareRows(a: Row, b: Row): number {
  const x = a.candidate;
  const y = b.candidate;
  return b.matched - a.matched || b.score - a.score || x.priority - y.priority || (x.updated > y.updated ? -1 : x.updated < y.updated ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
}

function snippetOf(entry: IndexEntry, terms: string[]): { snippet?: string } {
  return snippetIn([entry.text.body, entry.text.comments], terms);
}

/**
 * The snippet around the first term found in `sources` (body, then comments). Given the original
 * texts it keeps their case: terms are looked up in a lowercased copy, which has the same
 * positions unless lowercasing changed a length, when the lowercased text is cut instead.
 */
export function snippetIn(sources: readonly string[], terms: readonly string[]): { snippet?: string } {
  for (const original of sources) {
    const lower = original.toLowerCase();
    const source = lower.length === original.length ? original : lower;
    for (const term of terms) {
      const at = lower.indexOf(term);
      if (at < 0) continue;
      const start = Math.max(0, at - 40);
      const end = Math.min(source.length, at + term.length + 60);
      return { snippet: `${start > 0 ? '…' : ''}${source.slice(start, end).replace(/\s+/g, ' ').trim()}${end < source.length ? '…' : ''}` };
    }
  }
  return {};
}
