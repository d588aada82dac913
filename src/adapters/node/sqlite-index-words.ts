import type { IndexedItem } from '../../ports/item-index-store.js';

/**
 * What the SQLite index stores per item for search (docs/TRACKER.md "The derived index"): the
 * maximal runs of letters, digits, '_' and '-' of its lowercased texts ("words") with how often
 * each occurs per field. A search term is such a run itself (tokenize() in search-query.ts), so
 * every occurrence of a term lies inside one word of the text, and a term's occurrence count in
 * a field is the sum, over the words containing it, of its non-overlapping occurrences in the
 * word times the word's count: exact counts without reading the texts.
 */
export const WORD_PATTERN = /[\p{L}\p{N}_-]+/gu;

/** Whether a term is one word, so its counts can be read from the word table. */
export function isWord(term: string): boolean {
  return term.length > 0 && term.replace(WORD_PATTERN, '') === '';
}

/** One posting as an item's `texts.words` records it: [word id, title, body, comments counts]. */
export type PostingWord = readonly [number, number, number, number];

/** Per word: occurrences in title, body, comments. */
export type WordCounts = Map<string, [number, number, number]>;

export function wordCounts(text: IndexedItem['text']): WordCounts {
  const counts: WordCounts = new Map();
  const fields = [text.title, text.body, text.comments];
  for (let f = 0; f < 3; f++) {
    for (const word of fields[f]!.match(WORD_PATTERN) ?? []) {
      let row = counts.get(word);
      if (!row) counts.set(word, (row = [0, 0, 0]));
      row[f]!++;
    }
  }
  return counts;
}

/** Non-overlapping occurrences of `term` in `word`, left to right (as a substring count of the field does). */
export function occurrencesIn(word: string, term: string): number {
  let count = 0;
  for (let at = word.indexOf(term); at >= 0; at = word.indexOf(term, at + term.length)) count++;
  return count;
}
