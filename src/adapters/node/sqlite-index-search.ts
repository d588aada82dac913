import { BoundedCache } from '../../domain/util/bounded-cache.js';
import type { IndexedItem, IndexFilter, SearchCandidate, SearchCandidatesQuery, SearchTop, SearchTopQuery } from '../../ports/item-index-store.js';
import type { SqliteStatement } from './sqlite-driver.js';
import { filterSql, ITEM_COLUMNS, ITEM_SOURCE, rowToItem, type ItemRow } from './sqlite-index-sql.js';
import { isWord, occurrencesIn, STORED_RANKING, storedScore, wordCounts, type PostingWord } from './sqlite-index-words.js';
import { MAX_COUNT, PostingColumns } from './sqlite-index-columns.js';
import { columnsTop } from './sqlite-index-top.js';
import { PostingWarmer } from './sqlite-index-warm.js';

type Prepare = (sql: string) => SqliteStatement;

/** What an item's postings are keyed by, besides its rowid. */
export interface PostingKeys {
  readonly words: readonly PostingWord[];
  readonly priority: number;
  readonly status: string;
}

/** A candidates query: `sql` defines cand(rid, matched, weighted, counts); `where` filters items i joined to it. */
interface Plan {
  readonly sql: string;
  readonly params: unknown[];
  readonly where: string;
  readonly whereParams: unknown[];
}

const CAND_SQL = 'cand(rid, matched, weighted, counts) AS (SELECT rid, count(*), sum(t * ? + b * ? + c * ?), json_group_array(json_array(k, t, b, c)) FROM per GROUP BY rid HAVING count(*) >= ?)';

const REMOVE_SQL = 'DELETE FROM postings WHERE wid = ? AND score = ? AND priority = ? AND status = ? AND rid = ?';

/** Word ids kept in memory: a word's id never changes while the database file lives. */
const WORD_IDS = 200_000;

/**
 * Search over the SQLite index's word table (sqlite-index-words.ts, docs/TRACKER.md "The derived
 * index"): `vocab` numbers every word of the indexed texts, `postings` holds per word and item
 * the word's counts per field, the item's priority and status, and the score a one-word query
 * for exactly that word gives the item, keyed so that each word's postings are stored in
 * ranking order. Counts are sums over postings, never substring scans of the texts; a query for
 * one word that no other word contains reads just its first postings in ranking order.
 */
export class SqliteWordSearch {
  private readonly wordIds = new BoundedCache<string, number>('SQLite index word ids', WORD_IDS);
  private readonly columns: PostingColumns;
  private readonly warmer: PostingWarmer | undefined;

  /**
   * @param version a value that changes with every commit to the database; undefined: sum
   *   every search in SQL (the plain path)
   * @param warmFrom the database file, to read the frequent words' columns ahead of their first
   *   search (sqlite-index-warm.ts); undefined: each column is read by the search needing it
   */
  constructor(
    private readonly stmt: Prepare,
    version: () => string | undefined = () => undefined,
    warmFrom?: string,
  ) {
    this.columns = new PostingColumns(stmt, version);
    this.warmer = warmFrom === undefined ? undefined : new PostingWarmer(warmFrom, this.columns);
  }

  /** Forgets the word ids and posting columns (another database file, or a transaction that rolled back). */
  forget(): void {
    this.wordIds.clear();
    this.columns.clear();
    this.warmer?.forget();
  }

  /**
   * Reads the frequent words' posting columns in the background from now on (sqlite-index-warm.ts),
   * when the columns are on; call after answering a query, never within a transaction.
   */
  warm(): void {
    this.warmer?.start();
  }

  /**
   * Writes an item's postings, replacing those written last time (`previous`: the words then
   * returned, and the priority and status the item had); returns the words to record. With the
   * same priority and status only the postings that differ are written (a comment on an item
   * with 1,000 comments touches the words of that comment, not every word of the item); the
   * result is the same rows as removing all and inserting all.
   */
  write(rid: number, item: IndexedItem, previous: PostingKeys | undefined): PostingWord[] {
    const words: PostingWord[] = [];
    const insert = this.stmt('INSERT INTO postings(wid, score, priority, status, rid, t, b, c) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const sameKeys = previous !== undefined && previous.priority === item.priority && previous.status === item.status;
    if (previous && !sameKeys) this.remove(rid, previous);
    const before = sameKeys ? new Map(previous.words.map((word) => [word[0], word])) : undefined;
    const setCounts = this.stmt('UPDATE postings SET t = ?, b = ?, c = ? WHERE wid = ? AND score = ? AND priority = ? AND status = ? AND rid = ?');
    const remove = this.stmt(REMOVE_SQL);
    for (const [word, counts] of wordCounts(item.text)) {
      const wid = this.wordId(word);
      const score = storedScore(counts);
      words.push([wid, score, counts[0], counts[1], counts[2]]);
      const old = before?.get(wid);
      if (old) before!.delete(wid);
      if (old && old[1] === score) {
        if (old.length !== 5 || old[2] !== counts[0] || old[3] !== counts[1] || old[4] !== counts[2]) setCounts.run(counts[0], counts[1], counts[2], wid, score, item.priority, item.status, rid);
        continue;
      }
      if (old) remove.run(wid, old[1], item.priority, item.status, rid);
      insert.run(wid, score, item.priority, item.status, rid, counts[0], counts[1], counts[2]);
    }
    for (const [wid, old] of before ?? []) remove.run(wid, old[1], item.priority, item.status, rid);
    return words;
  }

  remove(rid: number, { words, priority, status }: PostingKeys): void {
    const remove = this.stmt(REMOVE_SQL);
    for (const [wid, score] of words) remove.run(wid, score, priority, status, rid);
  }

  /** Every candidate (the port's definition), counted from the postings. */
  candidates(query: SearchCandidatesQuery): SearchCandidate[] {
    const plan = this.plan(query, [0, 0, 0]);
    const rows = this.stmt(`${plan.sql} SELECT i.id, i.priority, i.updated, instr(i.title_lc, ?) > 0, c.counts FROM cand c JOIN items i ON i.rid = c.rid WHERE ${plan.where}`)
      .raw().all(...plan.params, query.phrase, ...plan.whereParams) as [string, number, string, number, string][];
    const out = rows.map(([id, priority, updated, inTitle, counts]) => ({ id, priority, updated, idMatch: false, phraseInTitle: inTitle === 1, counts: countsOf(counts, query.terms.length) }));
    const byId = this.idCandidate(query);
    return byId ? [byId, ...out] : out;
  }

  /** The candidates that can rank first (see the port's SearchTop), with the total. */
  top(query: SearchTopQuery): SearchTop {
    const byId = this.idCandidate(query);
    const fast = this.oneWordTop(query, byId) ?? this.columnsTop(query, byId);
    if (fast) return fast;
    const { weights, phraseBonus, limit } = query.ranking;
    const plan = this.plan(query, weights);
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
    if (byId) candidates.push(byId);
    return { total: (rows[0]?.[0] ?? 0) + (byId ? 1 : 0), candidates };
  }

  /**
   * One term that is a single indexed word no other word contains, and the stored ranking: the
   * word's postings in stored (ranking) order up to the (limit + 1)-th, plus every posting tied
   * with it on score and priority (the later keys are compared by the domain).
   */
  private oneWordTop(query: SearchTopQuery, byId: SearchCandidate | undefined): SearchTop | undefined {
    const [term] = query.terms;
    const status = statusSql(query.filter);
    if (query.terms.length !== 1 || term !== query.phrase || query.phrase.length <= 2 || !status || !storedRanking(query)) return undefined;
    const words = this.wordsContaining(term);
    if (words.length !== 1 || words[0]![1] !== term) return undefined;
    const wid = words[0]![0];
    const { limit } = query.ranking;
    const edge = this.stmt(`SELECT score, priority FROM postings WHERE wid = ?${status.sql} ORDER BY score DESC, priority LIMIT 1 OFFSET ?`)
      .raw().get(wid, ...status.params, limit) as [number, number] | undefined;
    const base = `SELECT i.id, i.priority, i.updated, p.t, p.b, p.c FROM postings p JOIN items i ON i.rid = p.rid WHERE p.wid = ?${status.sql.replaceAll(' status', ' p.status')} AND i.id <> ?`;
    const rows = (edge
      ? this.stmt(`${base} AND p.score >= ? AND (p.score > ? OR p.priority <= ?)`).raw().all(wid, ...status.params, query.phrase, edge[0], edge[0], edge[1])
      : this.stmt(base).raw().all(wid, ...status.params, query.phrase)) as [string, number, string, number, number, number][];
    const cap = query.cap;
    const candidates: SearchCandidate[] = rows.map(([id, priority, updated, t, b, c]) => ({ id, priority, updated, idMatch: false, phraseInTitle: t > 0, counts: [Math.min(cap, t), Math.min(cap, b), Math.min(cap, c)] }));
    let total = this.stmt(`SELECT count(*) FROM postings WHERE wid = ?${status.sql}`).pluck().get(wid, ...status.params) as number;
    if (byId) {
      if (byId.counts.some((count) => count > 0)) total--;
      candidates.push(byId);
      total++;
    }
    return { total, candidates };
  }

  /**
   * Word terms and a filter of statuses only: summed in memory over the words' posting columns
   * (sqlite-index-columns.ts, sqlite-index-top.ts), the same answer as the SQL plan below.
   */
  private columnsTop(query: SearchTopQuery, byId: SearchCandidate | undefined): SearchTop | undefined {
    const columns = this.columns;
    if (!query.terms.every(isWord) || !statusSql(query.filter) || query.cap > MAX_COUNT || !columns.sync()) return undefined;
    columns.items();
    const words = query.terms.map((term) => this.wordsContaining(term).map(([wid, word]) => [wid, occurrencesIn(word, term)] as const));
    const idRid = this.stmt('SELECT rid FROM items WHERE id = ?').pluck().get(query.phrase) as number | undefined;
    const found = columnsTop(query, {
      columns,
      words,
      statuses: columns.allowed(query.filter.statuses, query.filter.excludeStatuses),
      idRid,
      inTitle: (rids) => new Set(rids.length === 0 ? [] : (this.stmt('SELECT i.rid FROM json_each(?) j JOIN items i ON i.rid = j.value WHERE instr(i.title_lc, ?) > 0').pluck().all(JSON.stringify(rids), query.phrase) as number[])),
      rows: (rids) => new Map((this.stmt('SELECT i.rid, i.id, i.updated FROM items i WHERE i.rid IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(rids)) as [number, string, string][]).map(([rid, id, updated]) => [rid, { id, updated }])),
    });
    if (!byId) return found;
    return { total: found.total + 1, candidates: [...found.candidates, byId] };
  }

  /**
   * The common part of both queries: `cand(rid, matched, weighted, counts)` per item holding
   * enough terms, `weighted` the sum of its capped counts times `weights`, `counts` a JSON
   * array of [term index, title, body, comments] counts.
   */
  private plan(query: SearchCandidatesQuery, weights: readonly number[]): Plan {
    if (!query.terms.every(isWord)) return this.scanPlan(query, weights);
    const matches: [number, number, number][] = [];
    query.terms.forEach((term, k) => {
      for (const [wid, word] of this.wordsContaining(term)) matches.push([k, wid, occurrencesIn(word, term)]);
    });
    const filter = filterSql(query.filter);
    const sql = `WITH q(k, wid, m) AS (SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)),
      per(rid, k, t, b, c) AS (SELECT p.rid, q.k, min(?, sum(p.t * q.m)), min(?, sum(p.b * q.m)), min(?, sum(p.c * q.m)) FROM q CROSS JOIN postings p ON p.wid = q.wid GROUP BY p.rid, q.k),
      ${CAND_SQL}`;
    const cap = query.cap;
    return {
      sql,
      params: [JSON.stringify(matches), cap, cap, cap, ...weights, query.requireAll ? query.terms.length : 1],
      where: `${filter.sql} AND i.id <> ?`,
      whereParams: [...filter.params, query.phrase],
    };
  }

  /**
   * Terms that are not words (the port allows any substring; search-query.ts never sends one):
   * the counts come from the texts, row by row.
   */
  private scanPlan(query: SearchCandidatesQuery, weights: readonly number[]): Plan {
    const filter = filterSql(query.filter);
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
  private idCandidate(query: SearchCandidatesQuery): SearchCandidate | undefined {
    const filter = filterSql(query.filter);
    const row = this.stmt(`SELECT ${ITEM_COLUMNS} FROM ${ITEM_SOURCE} WHERE i.id = ? AND ${filter.sql}`).raw().get(query.phrase, ...filter.params) as ItemRow | undefined;
    if (!row) return undefined;
    const item = rowToItem(row);
    const counts = query.terms.flatMap((term) => [item.text.title, item.text.body, item.text.comments].map((text) => Math.min(query.cap, occurrencesIn(text, term))));
    return { id: item.id, priority: item.priority, updated: item.updated, idMatch: true, phraseInTitle: item.text.title.includes(query.phrase), counts };
  }

  /** The indexed words containing `term`, as [word id, word]. */
  private wordsContaining(term: string): [number, string][] {
    return this.stmt('SELECT wid, word FROM vocab WHERE instr(word, ?) > 0').raw().all(term) as [number, string][];
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

/** A filter of statuses only, as SQL on a `status` column (each part begins with " AND "); undefined for other filters. */
function statusSql(filter: IndexFilter): { sql: string; params: string[] } | undefined {
  const keys = Object.keys(filter).filter((key) => filter[key as keyof IndexFilter] !== undefined);
  if (keys.some((key) => key !== 'statuses' && key !== 'excludeStatuses')) return undefined;
  let sql = '';
  const params: string[] = [];
  if (filter.statuses) {
    sql += ` AND status IN (${filter.statuses.map(() => '?').join(', ') || 'NULL'})`;
    params.push(...filter.statuses);
  }
  if (filter.excludeStatuses?.length) {
    sql += ` AND status NOT IN (${filter.excludeStatuses.map(() => '?').join(', ')})`;
    params.push(...filter.excludeStatuses);
  }
  return { sql, params };
}

function storedRanking(query: SearchTopQuery): boolean {
  const { weights, phraseBonus } = query.ranking;
  return query.cap === STORED_RANKING.cap && phraseBonus === STORED_RANKING.phraseBonus && weights.every((weight, f) => weight === STORED_RANKING.weights[f]);
}

/** The JSON array of [term index, title, body, comments] as the port's flat counts (absent terms 0). */
function countsOf(json: string, terms: number): number[] {
  const out = new Array<number>(terms * 3).fill(0);
  for (const [k, t, b, c] of JSON.parse(json) as [number, number, number, number][]) out.splice(k * 3, 3, t, b, c);
  return out;
}
