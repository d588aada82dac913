import type { SearchCandidate, SearchTopQuery } from '../../ports/item-index-store.js';
import type { PostingColumns, Scratch } from './sqlite-index-columns.js';

/** What {@link columnsTop} reads besides the posting columns. */
export interface TopSources {
  readonly columns: PostingColumns;
  /** Per term, the words containing it: [word id, occurrences of the term in the word]. */
  readonly words: readonly (readonly (readonly [number, number])[])[];
  /** The status codes the filter lets through (undefined: every status). */
  readonly statuses: ReadonlySet<number> | undefined;
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

/**
 * The search candidates that can rank first, and their number, summed in memory over the
 * words' posting columns: the same counts, candidates, total and cut as the SQL plan of
 * sqlite-index-search.ts (the port's SearchTop). The phrase bonus needs the title, so it is
 * looked up only for candidates that can still reach the cut with it, best first in growing
 * batches (the phrase is in the title only when every term is).
 */
export function columnsTop(query: SearchTopQuery, sources: TopSources): { total: number; candidates: SearchCandidate[] } {
  const { columns, words, idRid } = sources;
  const items = columns.items();
  const sums = columns.scratch(words.length, items.size);
  const touched = accumulate(sources, sums, items.size, items.status, query.requireAll);
  try {
    const cap = query.cap;
    const need = query.requireAll ? words.length : 1;
    const [wt, wb, wc] = query.ranking.weights;
    const bonus = query.phrase.length > 2 ? query.ranking.phraseBonus : 0;
    const priority = items.priority;
    const limit = query.ranking.limit;
    const rids: number[] = [];
    const matched: number[] = [];
    const scores: number[] = [];
    const title: number[] = [];
    /** < 0: candidate x ranks before y by (matched, score, priority); the later keys are the domain's. */
    const order = (x: number, xScore: number, y: number) => matched[y]! - matched[x]! || scores[y]! - xScore || priority[rids[x]!]! - priority[rids[y]!]!;
    // The best `limit` by their scores without the bonus so far: a candidate ranking after the last of them even with the bonus is counted, not kept.
    const best: number[] = [];
    let total = 0;
    const { data, stride } = sums;
    for (const rid of touched) {
      const at = rid * stride;
      if (data[at]! < need || rid === idRid) continue;
      total++;
      let score = 0;
      let titled = true;
      for (let f = at + 1; f < at + stride; f += 3) {
        const t = data[f]!;
        score += Math.min(cap, t) * wt + Math.min(cap, data[f + 1]!) * wb + Math.min(cap, data[f + 2]!) * wc;
        if (t === 0) titled = false;
      }
      const x = rids.length;
      rids.push(rid);
      matched.push(data[at]!);
      scores.push(score);
      if (best.length === limit && order(x, score + (titled ? bonus : 0), best[limit - 1]!) > 0) {
        rids.pop();
        matched.pop();
        scores.pop();
        continue;
      }
      title.push(titled ? UNKNOWN : NO);
      insertBest(best, x, limit, (y) => order(x, score, y));
    }
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
      const counts: number[] = [];
      for (let f = rid * stride + 1; f < (rid + 1) * stride; f++) counts.push(Math.min(cap, data[f]!));
      return { id: rows.get(rid)!.id, priority: priority[rid]!, updated: rows.get(rid)!.updated, idMatch: false, phraseInTitle: title[x] === YES, counts };
    });
    return { total, candidates };
  } finally {
    columns.release(sums, touched);
  }
}

/**
 * Adds up each term's counts per item over the words containing it; returns the rowids touched.
 * When every term is required, the terms go fewest postings first and an item missing one of
 * the terms before is passed over: it can no longer be a candidate.
 */
function accumulate(sources: TopSources, sums: Scratch, size: number, status: Uint16Array, requireAll: boolean): number[] {
  const { columns, words, statuses } = sources;
  const { data, stride } = sums;
  const touched: number[] = [];
  const loaded = words.map((list) => list.map(([wid, m]) => [columns.of(wid), m] as const));
  const postings = loaded.map((list) => list.reduce((sum, [column]) => sum + column.rids.length, 0));
  const order = loaded.map((_, k) => k);
  if (requireAll) order.sort((x, y) => postings[x]! - postings[y]!);
  order.forEach((k, done) => {
    const held = requireAll ? done : 0;
    for (const [{ rids, t, b, c }, m] of loaded[k]!) {
      for (let i = 0; i < rids.length; i++) {
        const rid = rids[i]!;
        if (rid >= size || (statuses !== undefined && !statuses.has(status[rid]!))) continue;
        const at = rid * stride;
        if (data[at]! < held) continue;
        const f = at + 1 + 3 * k;
        if (data[f]! + data[f + 1]! + data[f + 2]! === 0) {
          if (data[at] === 0) touched.push(rid);
          data[at] = data[at]! + 1;
        }
        data[f] = data[f]! + t[i]! * m;
        data[f + 1] = data[f + 1]! + b[i]! * m;
        data[f + 2] = data[f + 2]! + c[i]! * m;
      }
    }
  });
  return touched;
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
