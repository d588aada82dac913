import { BoundedCache } from '../../domain/util/bounded-cache.js';
import type { IndexedItem, IndexFilter, SearchCandidate, SearchCandidatesQuery, SearchTop, SearchTopQuery } from '../../ports/item-index-store.js';
import type { SqliteStatement } from './sqlite-driver.js';
import { filterSql, ITEM_COLUMNS, ITEM_SOURCE, rowToItem, type ItemRow, type TextRids } from './sqlite-index-sql.js';
import { isWord, occurrencesIn, wordCounts, type PostingWord } from './sqlite-index-words.js';
import { MAX_COUNT, MAX_TERMS, PostingColumns } from './sqlite-index-columns.js';
import { encodeColumn } from './sqlite-index-column-codec.js';
import { HeldVocabulary } from './sqlite-index-vocabulary.js';
import { columnsCandidates, columnsTop, type TopSources } from './sqlite-index-top.js';

type Prepare = (sql: string) => SqliteStatement;

/** A candidates query: `sql` defines cand(rid, matched, weighted, counts); `where` filters items i joined to it. */
interface Plan {
  readonly sql: string;
  readonly params: unknown[];
  readonly where: string;
  readonly whereParams: unknown[];
}

const CAND_SQL = 'cand(rid, matched, weighted, counts) AS (SELECT rid, count(*), sum(t * ? + b * ? + c * ?), json_group_array(json_array(k, t, b, c)) FROM per GROUP BY rid HAVING count(*) >= ?)';

const CHANGE_SQL = 'INSERT OR REPLACE INTO word_changes(wid, rid, t, b, c) VALUES (?, ?, ?, ?, ?)';

/** Word ids kept in memory: a word's id never changes while the database file lives. */
const WORD_IDS = 200_000;

/** A word's changed postings kept beside its stored column before the column is written again with them. */
export const CHANGES_PER_COLUMN = 1024;

/**
 * Search over the SQLite index's word tables (sqlite-index-words.ts, docs/TRACKER.md "The
 * derived index"): `vocab` numbers every word of the indexed texts, `word_columns` holds per
 * word its postings (per item the word's counts per field) as one stored column, `word_changes`
 * the postings changed since. A search of word terms reads the columns of the words containing
 * each term and sums their counts in memory (sqlite-index-top.ts); counts are sums over
 * postings, never substring scans of the texts. Terms that are not words, and caps above what
 * the columns keep, are counted from the texts in SQL.
 */
export class SqliteWordSearch {
  private readonly wordIds = new BoundedCache<string, number>('SQLite index word ids', WORD_IDS);
  private readonly vocabulary: HeldVocabulary;
  private readonly columns: PostingColumns;

  /**
   * @param version a value that changes with every commit to the database, to hold the columns
   *   read from one search to the next while it stays; undefined: read them for each search
   * @param changesPerColumn a word's changed postings kept before its column is written again
   */
  constructor(
    private readonly stmt: Prepare,
    version: () => string | undefined = () => undefined,
    private readonly changesPerColumn = CHANGES_PER_COLUMN,
  ) {
    this.columns = new PostingColumns(stmt, version);
    this.vocabulary = new HeldVocabulary(stmt);
  }

  /** Forgets the word ids and posting columns (another database file, or a transaction that rolled back). */
  forget(): void {
    this.wordIds.clear();
    this.vocabulary.clear();
    this.columns.clear();
  }

  /**
   * Writes an item's postings given those written last time (`previous`: the words then
   * returned); returns the words to record. Only the words whose counts differ get a row in
   * `word_changes` (a comment on an item with 1,000 comments touches the words of that comment,
   * not every word of the item); a word whose changes pass {@link changesPerColumn} has its
   * column written again with them.
   */
  write(rid: number, item: IndexedItem, previous: readonly PostingWord[] | undefined): PostingWord[] {
    const words: PostingWord[] = [];
    const change = this.stmt(CHANGE_SQL);
    const before = new Map(previous?.map((word) => [word[0], word]));
    const changed: number[] = [];
    for (const [word, [t, b, c]] of wordCounts(item.text)) {
      const wid = this.wordId(word);
      words.push([wid, t, b, c]);
      const old = before.get(wid);
      before.delete(wid);
      if (old && old[1] === t && old[2] === b && old[3] === c) continue;
      change.run(wid, rid, t, b, c);
      changed.push(wid);
    }
    for (const wid of before.keys()) {
      change.run(wid, rid, 0, 0, 0);
      changed.push(wid);
    }
    this.compact(changed);
    return words;
  }

  /** Removes an item's postings (`words`: as {@link write} returned them last). */
  remove(rid: number, words: readonly PostingWord[]): void {
    const change = this.stmt(CHANGE_SQL);
    for (const [wid] of words) change.run(wid, rid, 0, 0, 0);
    this.compact(words.map(([wid]) => wid));
  }

  /**
   * Writes the column of each of these words again, with its changes, when it has more than
   * {@link changesPerColumn} of them: what a search reads of a word stays one stored column and
   * at most that many rows, and a write rewrites a column once per that many changes.
   */
  private compact(wids: readonly number[]): void {
    const count = this.stmt('SELECT count(*) FROM (SELECT 1 FROM word_changes WHERE wid = ? LIMIT ?)').pluck();
    for (const wid of wids) {
      if ((count.get(wid, this.changesPerColumn + 1) as number) <= this.changesPerColumn) continue;
      const column = this.columns.read(wid);
      if (column.rids.length === 0) this.stmt('DELETE FROM word_columns WHERE wid = ?').run(wid);
      else this.stmt('INSERT OR REPLACE INTO word_columns(wid, data) VALUES (?, ?)').run(wid, encodeColumn(column));
      this.stmt('DELETE FROM word_changes WHERE wid = ?').run(wid);
    }
  }

  /** Every candidate (the port's definition). */
  candidates(query: SearchCandidatesQuery): SearchCandidate[] {
    const textRids = this.textFilter();
    const byId = this.idCandidate(query, textRids);
    const out = this.inColumns(query) ? columnsCandidates(query, this.sources(query, textRids)) : this.sqlCandidates(query, textRids);
    return byId ? [byId, ...out] : out;
  }

  /** The candidates that can rank first (see the port's SearchTop), with the total. */
  top(query: SearchTopQuery): SearchTop {
    const textRids = this.textFilter();
    const byId = this.idCandidate(query, textRids);
    const found = this.inColumns(query) ? columnsTop(query, this.sources(query, textRids)) : this.sqlTop(query, textRids);
    if (!byId) return found;
    return { total: found.total + 1, candidates: [...found.candidates, byId] };
  }

  /** The rowids of the items with a word containing `piece` in the title or body, in increasing order. */
  private textRids(piece: string): number[] {
    const found = new Set<number>();
    for (const [wid] of this.wordsContaining(piece)) {
      const { rids, t, b } = this.columns.of(wid);
      for (let k = 0; k < rids.length; k++) if (t[k]! > 0 || b[k]! > 0) found.add(rids[k]!);
    }
    return [...found].sort((x, y) => x - y);
  }

  /** Word terms, fewer than MAX_TERMS, and counts capped where the columns keep them: summed over the columns. */
  private inColumns(query: SearchCandidatesQuery): boolean {
    return query.terms.length < MAX_TERMS && query.terms.every(isWord) && query.cap <= MAX_COUNT;
  }

  /**
   * What the column sums read besides the columns: the words containing each term, the filter
   * (statuses from the item columns; any other filter as the set of rowids passing it, in SQL),
   * and the rows of the candidates.
   */
  private sources(query: SearchCandidatesQuery, textRids: TextRids): TopSources {
    const columns = this.columns;
    const items = columns.items();
    const byStatus = statusOnly(query.filter);
    let passing: Uint8Array | undefined;
    if (!byStatus) {
      const where = filterSql(query.filter, { textRids });
      passing = new Uint8Array(items.size);
      for (const rid of this.stmt(`SELECT i.rid FROM items i WHERE ${where.sql}`).pluck().all(...where.params) as number[]) if (rid < items.size) passing[rid] = 1;
    }
    return {
      columns,
      words: query.terms.map((term) => this.wordsContaining(term).map(([wid, word]) => [wid, occurrencesIn(word, term)] as const)),
      statuses: byStatus ? columns.allowed(query.filter.statuses, query.filter.excludeStatuses) : undefined,
      passing,
      idRid: this.stmt('SELECT rid FROM items WHERE id = ?').pluck().get(query.phrase) as number | undefined,
      inTitle: (rids) => new Set(rids.length === 0 ? [] : (this.stmt('SELECT i.rid FROM json_each(?) j JOIN items i ON i.rid = j.value WHERE instr(i.title_lc, ?) > 0').pluck().all(JSON.stringify(rids), query.phrase) as number[])),
      rows: (rids) => new Map((this.stmt('SELECT i.rid, i.id, i.updated FROM items i WHERE i.rid IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(rids)) as [number, string, string][]).map(([rid, id, updated]) => [rid, { id, updated }])),
    };
  }

  /**
   * A text filter's narrowing for filterSql (sqlite-index-sql.ts) in one read of the database:
   * the rowids of {@link textRids} as a JSON array, each piece's read once. Starts a search's
   * reading of the columns (PostingColumns.sync).
   */
  textFilter(): TextRids {
    this.columns.sync();
    const known = new Map<string, string>();
    return (piece) => {
      let json = known.get(piece);
      if (json === undefined) known.set(piece, (json = JSON.stringify(this.textRids(piece))));
      return json;
    };
  }

  /** Every candidate counted in SQL from the texts. */
  private sqlCandidates(query: SearchCandidatesQuery, textRids: TextRids): SearchCandidate[] {
    const plan = this.scanPlan(query, [0, 0, 0], textRids);
    const rows = this.stmt(`${plan.sql} SELECT i.id, i.priority, i.updated, instr(i.title_lc, ?) > 0, c.counts FROM cand c JOIN items i ON i.rid = c.rid WHERE ${plan.where}`)
      .raw().all(...plan.params, query.phrase, ...plan.whereParams) as [string, number, string, number, string][];
    return rows.map(([id, priority, updated, inTitle, counts]) => ({ id, priority, updated, idMatch: false, phraseInTitle: inTitle === 1, counts: countsOf(counts, query.terms.length) }));
  }

  /** The candidates that can rank first counted in SQL from the texts: every one tied with or ahead of the limit-th. */
  private sqlTop(query: SearchTopQuery, textRids: TextRids): SearchTop {
    const { weights, phraseBonus, limit } = query.ranking;
    const plan = this.scanPlan(query, weights, textRids);
    const bonus = query.phrase.length > 2 ? phraseBonus : 0;
    const sql = `${plan.sql},
      scored AS MATERIALIZED (SELECT i.id AS id, i.priority AS priority, i.updated AS updated, instr(i.title_lc, ?) > 0 AS pit, c.matched AS matched,
        c.weighted + (CASE WHEN instr(i.title_lc, ?) > 0 THEN ? ELSE 0 END) AS score, c.counts AS counts FROM cand c JOIN items i ON i.rid = c.rid WHERE ${plan.where}),
      edge(matched, score, priority) AS (SELECT matched, score, priority FROM scored ORDER BY matched DESC, score DESC, priority LIMIT 1 OFFSET ?)
      SELECT (SELECT count(*) FROM scored), id, priority, updated, pit, counts FROM scored
      WHERE NOT EXISTS (SELECT 1 FROM edge) OR (matched, score, -priority) >= (SELECT matched, score, -priority FROM edge)`;
    const params = [...plan.params, query.phrase, query.phrase, bonus, ...plan.whereParams, limit - 1];
    const rows = this.stmt(sql).raw().all(...params) as [number, string, number, string, number, string][];
    const candidates: SearchCandidate[] = rows.map(([, id, priority, updated, inTitle, counts]) => ({ id, priority, updated, idMatch: false, phraseInTitle: inTitle === 1, counts: countsOf(counts, query.terms.length) }));
    return { total: rows[0]?.[0] ?? 0, candidates };
  }

  /**
   * Terms that are not words (the port allows any substring; search-query.ts never sends one),
   * or a cap above the columns' counts: `cand(rid, matched, weighted, counts)` per item holding
   * enough terms, `weighted` the sum of its capped counts times `weights`, `counts` a JSON array
   * of [term index, title, body, comments] counts, from the texts row by row.
   */
  private scanPlan(query: SearchCandidatesQuery, weights: readonly number[], textRids: TextRids): Plan {
    const filter = filterSql(query.filter, { textRids });
    const params: unknown[] = [];
    const rows = query.terms.map((term, k) => {
      const count = (column: string) => {
        params.push(query.cap, term, term);
        return `min(?, (length(${column}) - length(replace(${column}, ?, ''))) / length(?))`;
      };
      return `SELECT i.rid AS rid, ${k} AS k, ${count('i.title_lc')} AS t, ${count('t.body_lc')} AS b, ${count('t.comments_lc')} AS c FROM ${ITEM_SOURCE}`;
    });
    const sql = `WITH per(rid, k, t, b, c) AS (SELECT * FROM (${rows.join(' UNION ALL ')}) WHERE t + b + c > 0),
      ${CAND_SQL}`;
    return { sql, params: [...params, ...weights, query.requireAll ? query.terms.length : 1], where: `${filter.sql} AND i.id <> ?`, whereParams: [...filter.params, query.phrase] };
  }

  /** The item whose id is the phrase, when it passes the filter (a candidate whatever its counts). */
  private idCandidate(query: SearchCandidatesQuery, textRids: TextRids): SearchCandidate | undefined {
    const filter = filterSql(query.filter, { textRids });
    const row = this.stmt(`SELECT ${ITEM_COLUMNS} FROM ${ITEM_SOURCE} WHERE i.id = ? AND ${filter.sql}`).raw().get(query.phrase, ...filter.params) as ItemRow | undefined;
    if (!row) return undefined;
    const item = rowToItem(row);
    const counts = query.terms.flatMap((term) => [item.text.title, item.text.body, item.text.comments].map((text) => Math.min(query.cap, occurrencesIn(text, term))));
    return { id: item.id, priority: item.priority, updated: item.updated, idMatch: true, phraseInTitle: item.text.title.includes(query.phrase), counts };
  }

  /**
   * The indexed words containing `term`, as [word id, word] (called inside a read transaction):
   * from the vocabulary held in memory by a process that holds the posting columns, else (and
   * for a vocabulary too large to hold) a scan of `vocab` in SQL.
   */
  private wordsContaining(term: string): [number, string][] {
    const held = this.columns.holding ? this.vocabulary.containing(term) : undefined;
    return held ?? (this.stmt('SELECT wid, word FROM vocab WHERE instr(word, ?) > 0').raw().all(term) as [number, string][]);
  }

  private wordId(word: string): number {
    const known = this.wordIds.get(word);
    if (known !== undefined) return known;
    let wid = this.stmt('SELECT wid FROM vocab WHERE word = ?').pluck().get(word) as number | undefined;
    wid ??= Number(this.stmt('INSERT INTO vocab(word) VALUES (?)').run(word).lastInsertRowid);
    this.wordIds.set(word, wid);
    return wid;
  }
}

/** Whether a filter is of statuses only (the item columns decide it). */
function statusOnly(filter: IndexFilter): boolean {
  return Object.keys(filter).every((key) => key === 'statuses' || key === 'excludeStatuses' || filter[key as keyof IndexFilter] === undefined);
}

/** The JSON array of [term index, title, body, comments] as the port's flat counts (absent terms 0). */
function countsOf(json: string, terms: number): number[] {
  const out = new Array<number>(terms * 3).fill(0);
  for (const [k, t, b, c] of JSON.parse(json) as [number, number, number, number][]) out.splice(k * 3, 3, t, b, c);
  return out;
}
