import type { IndexedItem, SearchCandidatesQuery } from '../../ports/item-index-store.js';
import type { SqliteStatement } from './sqlite-driver.js';
import { SqliteWordSearch } from './sqlite-index-search.js';
import type { TextRids } from './sqlite-index-sql.js';
import type { PostingWord } from './sqlite-index-words.js';

type Prepare = (sql: string) => SqliteStatement;

/**
 * The trigram pieces of a term as an FTS5 query that every text holding the term matches: the
 * term's runs of three code points, each quoted, joined by AND (with detail=none FTS5 keeps no
 * positions, so a run of more than three is no phrase: a superset, the counts decide). Undefined
 * for a term shorter than three code points, which no trigram narrows.
 */
export function trigramQuery(term: string): string | undefined {
  const chars = Array.from(term);
  if (chars.length < 3) return undefined;
  const pieces = new Set<string>();
  for (let k = 0; k + 3 <= chars.length; k++) pieces.add(chars.slice(k, k + 3).join(''));
  return [...pieces].map((piece) => `"${piece.replaceAll('"', '""')}"`).join(' AND ');
}

/**
 * Search over an FTS5 trigram index of the texts (`texts_fts`: contentless, detail=none), the
 * alternative measured against the word tables in bench:tracker: FTS5 narrows the items to
 * those holding every trigram of the terms, and the occurrence counts the domain ranks by are
 * counted from the texts in SQL, as for terms that are not words.
 */
export class SqliteFtsSearch extends SqliteWordSearch {
  constructor(private readonly prepare: Prepare) {
    super(prepare);
  }

  override write(rid: number, item: IndexedItem, previous: readonly PostingWord[] | undefined): PostingWord[] {
    if (previous !== undefined) this.prepare('DELETE FROM texts_fts WHERE rowid = ?').run(rid);
    this.prepare('INSERT INTO texts_fts(rowid, title, body, comments) VALUES (?, ?, ?, ?)').run(rid, item.text.title, item.text.body, item.text.comments);
    return [];
  }

  override remove(rid: number): void {
    this.prepare('DELETE FROM texts_fts WHERE rowid = ?').run(rid);
  }

  override textFilter(): TextRids {
    return (piece) => {
      const match = trigramQuery(piece);
      return match === undefined ? undefined : JSON.stringify(this.prepare('SELECT rowid FROM texts_fts WHERE texts_fts MATCH ?').pluck().all(match));
    };
  }

  protected override inColumns(): boolean {
    return false;
  }

  /** Every term's trigrams (all terms: AND; any term: OR); undefined when a term that decides is too short to narrow by. */
  protected override narrowing(query: SearchCandidatesQuery): { sql: string; params: unknown[] } | undefined {
    const groups = query.terms.map(trigramQuery);
    const usable = groups.filter((group): group is string => group !== undefined);
    if (usable.length === 0 || (!query.requireAll && usable.length < groups.length)) return undefined;
    return { sql: 'SELECT rowid FROM texts_fts WHERE texts_fts MATCH ?', params: [usable.map((group) => `(${group})`).join(query.requireAll ? ' AND ' : ' OR ')] };
  }
}
