import type { SearchCandidate, SearchCandidatesQuery, SearchTopQuery } from '../../ports/item-index-store.js';
import { MAX_COUNT, type PostingColumns, type Scratch } from './sqlite-index-columns.js';
import { occurrencesIn, WORD_PATTERN } from './sqlite-index-words.js';

/** What {@link columnsTop} reads besides the posting columns. */
export interface TopSources {
  readonly columns: PostingColumns;
  /** Per term, the words containing it: [word id, occurrences of the term in the word]. */
  readonly words: readonly (readonly (readonly [number, number])[])[];
  /** The status codes the filter lets through (undefined: every status). */
  readonly statuses: ReadonlySet<number> | undefined;
  /** By rowid, 1 for the items passing the filter (undefined: {@link statuses} decide). */
  readonly passing?: Uint8Array;
  /** The rowid of the item whose id is the phrase (it is a candidate by its id, counted apart). */
  readonly idRid: number | undefined;
  /** Of these rowids, those whose lowercased title contains the phrase. */
  readonly inTitle: (rids: readonly number[]) => Set<number>;
  /** Id and updated time of these rowids. */
  readonly rows: (rids: readonly number[]) => Map<number, { id: string; updated: string }>;
}

/** Whether a candidate's title is known to hold the phrase: not yet looked up, no, yes. */
const UNKNOWN = 0;
const NO = 1;
const YES = 2;

/** One candidate's sums: how many terms it holds, and per term its counts in the title, the body and the comments. */
type Sums = (rid: number) => { readonly matched: number; readonly counts: ArrayLike<number> };

/**
 * The search candidates that can rank first, and their number, summed in memory over the
 * words' posting columns: the same counts, candidates, total and cut as the in-memory index
 * (the port's SearchTop). The phrase bonus needs the title, so it is looked up only for
 * candidates that can still reach the cut with it, best first in growing batches (the phrase
 * is in the title only when every term is; a phrase that is its one term is in the title
 * exactly when the term is). One term held by one word is read straight from its column; more
 * are summed per item first.
 */
export function columnsTop(query: SearchTopQuery, sources: TopSources): { total: number; candidates: SearchCandidate[] } {
  const { columns, words, idRid } = sources;
  const items = columns.items();
  const ok = passingOf(sources, items.size, items.status);
  const cap = query.cap;
  const need = query.requireAll ? words.length : 1;
  const [wt, wb, wc] = query.ranking.weights as [number, number, number];
  const bonus = query.phrase.length > 2 ? query.ranking.phraseBonus : 0;
  const oneTerm = query.terms.length === 1 && query.terms[0] === query.phrase;
  const inPhrase = titleCountsOfPhrase(query.terms, query.phrase);
  const priority = items.priority;
  const limit = query.ranking.limit;
  const rids: number[] = [];
  const matched: number[] = [];
  const scores: number[] = [];
  const title: number[] = [];
  /** > 0: a candidate (rowid, terms held, score) ranks after candidate y by (matched, score, priority); the later keys are the domain's. */
  const after = (rid: number, held: number, score: number, y: number) => matched[y]! - held || scores[y]! - score || priority[rid]! - priority[rids[y]!]!;
  /** < 0: candidate x ranks before y. */
  const order = (x: number, xScore: number, y: number) => after(rids[x]!, matched[x]!, xScore, y);
  // The best `limit` by their scores without the bonus so far: a candidate ranking after the last of them even with the bonus is counted, not kept.
  const best: number[] = [];
  let total = 0;
  /** A candidate holding `held` terms, its score without the bonus, and whether every term is in its title. */
  const consider = (rid: number, held: number, score: number, titled: boolean) => {
    total++;
    const sure = titled && oneTerm;
    if (sure) score += bonus;
    if (best.length === limit && after(rid, held, score + (titled && !sure ? bonus : 0), best[limit - 1]!) > 0) return;
    const x = rids.length;
    rids.push(rid);
    matched.push(held);
    scores.push(score);
    title.push(sure ? YES : titled ? UNKNOWN : NO);
    insertBest(best, x, limit, (y) => order(x, score, y));
  };
  const single = words.length === 1 && words[0]!.length === 1 ? words[0]![0]! : undefined;
  let sums: Sums;
  let done = () => {};
  if (single) {
    const [wid, m] = single;
    const column = columns.of(wid);
    const { rids: at, t, b, c } = column;
    for (let i = 0; i < at.length; i++) {
      const rid = at[i]!;
      if (rid >= items.size || (ok !== undefined && ok[rid] === 0) || rid === idRid) continue;
      consider(rid, 1, Math.min(cap, t[i]! * m) * wt + Math.min(cap, b[i]! * m) * wb + Math.min(cap, c[i]! * m) * wc, t[i]! * m >= inPhrase[0]!);
    }
    sums = (rid) => {
      const i = indexOf(at, rid);
      return { matched: 1, counts: [t[i]! * m, b[i]! * m, c[i]! * m] };
    };
  } else {
    const scratch = columns.scratch(words.length, items.size);
    accumulate(sources, scratch, items.size, ok, query.requireAll);
    const { data, stride, touched, count } = scratch;
    for (let k = 0; k < count; k++) {
      const rid = touched[k]!;
      const at = rid * stride;
      if (data[at]! < need || rid === idRid) continue;
      let score = 0;
      let titled = true;
      for (let f = at + 1, term = 0; f < at + stride; f += 3, term++) {
        const t = data[f]!;
        score += Math.min(cap, t) * wt + Math.min(cap, data[f + 1]!) * wb + Math.min(cap, data[f + 2]!) * wc;
        if (t < inPhrase[term]!) titled = false;
      }
      consider(rid, data[at]!, score, titled);
    }
    sums = (rid) => ({ matched: data[rid * stride]!, counts: data.subarray(rid * stride + 1, (rid + 1) * stride) });
    done = () => columns.release(scratch);
  }
  try {
    // Titles to look up, best possible score first, in growing batches; stop when the best left
    // cannot reach the cut. Each batch is picked from those left (a full sort would order
    // thousands of candidates that are never looked up).
    let open = rids.map((_, x) => x).filter((x) => title[x] === UNKNOWN);
    for (let batch = Math.max(32, limit * 2); bonus > 0 && open.length > 0; batch *= 2) {
      const part = pickBest(open, batch, order, scores);
      const cut = kth(rids.length, limit, order, scores);
      if (cut !== undefined && order(part[0]!, scores[part[0]!]! + bonus, cut) > 0) break;
      const found = sources.inTitle(part.map((x) => rids[x]!));
      for (const x of part) {
        title[x] = found.has(rids[x]!) ? YES : NO;
        if (title[x] === YES) scores[x] = scores[x]! + bonus;
      }
      open = open.filter((x) => title[x] === UNKNOWN);
    }
    const cut = kth(rids.length, limit, order, scores);
    const kept = rids.map((_, x) => x).filter((x) => cut === undefined || order(x, scores[x]!, cut) <= 0);
    const unknown = kept.filter((x) => title[x] === UNKNOWN);
    const alsoInTitle = sources.inTitle(unknown.map((x) => rids[x]!));
    for (const x of unknown) title[x] = alsoInTitle.has(rids[x]!) ? YES : NO;
    const rows = sources.rows(kept.map((x) => rids[x]!));
    const candidates = kept.map((x): SearchCandidate => {
      const rid = rids[x]!;
      const counts = Array.from(sums(rid).counts, (count) => Math.min(cap, count));
      return { id: rows.get(rid)!.id, priority: priority[rid]!, updated: rows.get(rid)!.updated, idMatch: false, phraseInTitle: title[x] === YES, counts };
    });
    return { total, candidates };
  } finally {
    done();
  }
}

/**
 * Every candidate (the port's SearchCandidatesQuery) summed over the words' posting columns, as
 * {@link columnsTop} sums them, in rowid order.
 */
export function columnsCandidates(query: SearchCandidatesQuery, sources: TopSources): SearchCandidate[] {
  const { columns, words, idRid } = sources;
  const items = columns.items();
  const sums = columns.scratch(words.length, items.size);
  accumulate(sources, sums, items.size, passingOf(sources, items.size, items.status), query.requireAll);
  try {
    const { data, stride } = sums;
    const need = query.requireAll ? words.length : 1;
    const kept = Array.from(sums.touched.subarray(0, sums.count)).filter((rid) => data[rid * stride]! >= need && rid !== idRid).sort((x, y) => x - y);
    // The phrase can be in the title only when every term is, as often as in the phrase.
    const inPhrase = titleCountsOfPhrase(query.terms, query.phrase);
    const inTitle = sources.inTitle(kept.filter((rid) => {
      for (let f = rid * stride + 1, term = 0; f < (rid + 1) * stride; f += 3, term++) if (data[f]! < inPhrase[term]!) return false;
      return true;
    }));
    const rows = sources.rows(kept);
    return kept.map((rid): SearchCandidate => {
      const counts: number[] = [];
      for (let f = rid * stride + 1; f < (rid + 1) * stride; f++) counts.push(Math.min(query.cap, data[f]!));
      return { id: rows.get(rid)!.id, priority: items.priority[rid]!, updated: rows.get(rid)!.updated, idMatch: false, phraseInTitle: inTitle.has(rid), counts };
    });
  } finally {
    columns.release(sums);
  }
}

/**
 * Per term, the fewest times it must occur in a title that holds the phrase: its occurrences in
 * the phrase's words (at least 1, at most the columns' cap). Each word of a phrase found in a
 * title lies inside one word of the title, a different one for each, and a word holds at least
 * as many non-overlapping occurrences of a term as any part of it, so a title whose count of a
 * term is lower cannot hold the phrase: such a candidate is not left open for the title lookups
 * (`index index` in the title needs `index` twice there: at 100k items ~35,000 candidates hold
 * it once, and picking the best of them for each batch of lookups dominated the search).
 */
export function titleCountsOfPhrase(terms: readonly string[], phrase: string): number[] {
  const words = phrase.match(WORD_PATTERN) ?? [];
  return terms.map((term) => Math.min(MAX_COUNT, Math.max(1, words.reduce((sum, word) => sum + occurrencesIn(word, term), 0))));
}

/** By rowid, 1 for the items the filter lets through (undefined: every item): their status code against a table of the codes let through, and the rowids passing. */
function passingOf({ statuses, passing }: TopSources, size: number, status: Uint16Array): Uint8Array | undefined {
  if (statuses === undefined) return passing;
  const table = new Uint8Array(Math.max(0, ...statuses) + 2);
  for (const code of statuses) table[code] = 1;
  const ok = new Uint8Array(size);
  if (passing === undefined) for (let rid = 0; rid < size; rid++) ok[rid] = table[status[rid]!]!;
  else for (let rid = 0; rid < size; rid++) ok[rid] = table[status[rid]!]! & passing[rid]!;
  return ok;
}

/** The index of `rid` in a column's rowids (increasing), by bisection; -1 when absent. */
function indexOf(rids: Int32Array, rid: number): number {
  let low = 0;
  let high = rids.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (rids[mid]! < rid) low = mid + 1;
    else if (rids[mid]! > rid) high = mid - 1;
    else return mid;
  }
  return -1;
}

/**
 * Adds up each term's counts per item over the words containing it, noting the rowids touched in `sums`.
 * When every term is required, the terms go fewest postings first and an item missing one of
 * the terms before is passed over: it can no longer be a candidate.
 */
function accumulate(sources: TopSources, sums: Scratch, size: number, ok: Uint8Array | undefined, requireAll: boolean): void {
  const { columns, words } = sources;
  const { data, stride, touched } = sums;
  let count = 0;
  const loaded = words.map((list) => list.map(([wid, m]) => [columns.of(wid), m] as const));
  const postings = loaded.map((list) => list.reduce((sum, [column]) => sum + column.rids.length, 0));
  const order = loaded.map((_, k) => k);
  if (requireAll) order.sort((x, y) => postings[x]! - postings[y]!);
  for (let done = 0; done < order.length; done++) {
    const k = order[done]!;
    const held = requireAll ? done : 0;
    for (const [{ rids, t, b, c }, m] of loaded[k]!) {
      for (let i = 0; i < rids.length; i++) {
        const rid = rids[i]!;
        if (rid >= size || (ok !== undefined && ok[rid] === 0)) continue;
        const at = rid * stride;
        if (data[at]! < held) continue;
        const f = at + 1 + 3 * k;
        if (data[f]! + data[f + 1]! + data[f + 2]! === 0) {
          if (data[at] === 0) touched[count++] = rid;
          data[at] = data[at]! + 1;
        }
        data[f] = Math.min(MAX_COUNT, data[f]! + t[i]! * m);
        data[f + 1] = Math.min(MAX_COUNT, data[f + 1]! + b[i]! * m);
        data[f + 2] = Math.min(MAX_COUNT, data[f + 2]! + c[i]! * m);
      }
    }
  }
  sums.count = count;
}

/** The best `count` of `candidates` by `order`, best first (ties keep their order in `candidates`). */
function pickBest(candidates: readonly number[], count: number, order: (x: number, xScore: number, y: number) => number, scores: readonly number[]): number[] {
  const best: number[] = [];
  for (const x of candidates) {
    if (best.length === count && order(x, scores[x]!, best[count - 1]!) >= 0) continue;
    insertBest(best, x, count, (y) => order(x, scores[x]!, y));
  }
  return best;
}

/** The index of the `limit`-th candidate by `order` (undefined with fewer). */
function kth(count: number, limit: number, order: (x: number, xScore: number, y: number) => number, scores: readonly number[]): number | undefined {
  if (limit < 1 || count < limit) return undefined;
  const best: number[] = [];
  for (let x = 0; x < count; x++) {
    if (best.length === limit && order(x, scores[x]!, best[limit - 1]!) >= 0) continue;
    insertBest(best, x, limit, (y) => order(x, scores[x]!, y));
  }
  return best[limit - 1];
}

/** Puts x into `best` (sorted, at most `limit` long) when it ranks before its last; `before(y)` < 0 when x ranks before y. */
function insertBest(best: number[], x: number, limit: number, before: (y: number) => number): void {
  if (limit < 1 || (best.length === limit && before(best[limit - 1]!) >= 0)) return;
  let at = best.length === limit ? limit - 1 : best.length;
  while (at > 0 && before(best[at - 1]!) < 0) {
    best[at] = best[at - 1]!;
    at--;
  }
  best[at] = x;
}
