import { inRowidOrder, type PostingColumn } from '../../../../src/adapters/node/sqlite-index-columns.js';
import { prng } from '../item-index-contract.js';

const PACK = 16_777_216;
type Posting = [rid: number, t: number, b: number, c: number];

/** The packed text PostingColumns.of reads from SQLite, postings in the order given. */
const packedText = (postings: readonly Posting[]) => postings.map(([rid, t, b, c]) => rid * PACK + t * 65536 + b * 256 + c).join(',');
/** Reads a column, checking that the slots come back zeroed. */
const inOrder = (text: string, size: number): PostingColumn => {
  const { column, slots } = inRowidOrder(text, new Uint32Array(Math.max(1, size)));
  expect(slots.every((slot) => slot === 0)).toBe(true);
  return column;
};
const asPostings = (column: PostingColumn): Posting[] => [...column.rids].map((rid, k) => [rid, column.t[k]!, column.b[k]!, column.c[k]!]);
const byRid = (postings: readonly Posting[]) => [...postings].sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || x[3] - y[3]);

describe('a posting column in rowid order', () => {
  it('holds every posting, sorted by rowid, whatever the stored order and the size hint', () => {
    const random = prng(42);
    for (let round = 0; round < 30; round++) {
      const size = 1 + Math.floor(random() * 3000);
      const rids = [...new Set(Array.from({ length: Math.floor(random() * 500) }, () => Math.floor(random() * size)))];
      const postings = rids.map((rid): Posting => [rid, Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256)]);
      const hint = [0, size, Math.floor(size / 3)][round % 3]!;
      expect(asPostings(inOrder(packedText(postings), hint))).toEqual(byRid(postings));
    }
  });

  it('reuses the slots from word to word, a word with a rowid met twice among them', () => {
    const random = prng(7);
    let slots: Uint32Array = new Uint32Array(16);
    for (let round = 0; round < 20; round++) {
      const rids = [...new Set(Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 5000)))];
      const postings = rids.map((rid): Posting => [rid, round, 1, 2]);
      if (round === 10) postings.push([rids[0]!, 0, 0, 1]);
      const read = inRowidOrder(packedText(postings), slots);
      expect(asPostings(read.column)).toEqual(byRid(postings));
      slots = read.slots;
    }
    expect(slots.every((slot) => slot === 0)).toBe(true);
  });

  it('keeps a rowid met twice (sorted like the rest) and reads an empty text as no postings', () => {
    const postings: Posting[] = [[7, 1, 0, 0], [3, 0, 2, 0], [7, 0, 0, 5], [0, 255, 255, 255]];
    expect(asPostings(inOrder(packedText(postings), 8))).toEqual(byRid(postings));
    expect(inOrder('', 10).rids).toHaveLength(0);
  });

  it('reads rowids up to the packing bound', () => {
    const postings: Posting[] = [[2 ** 29 - 1, 9, 8, 7], [1, 0, 0, 1]];
    expect(asPostings(inOrder(packedText(postings), 4))).toEqual(byRid(postings));
  });
});

describe('a posting column of few postings for its slots', () => {
  it('comes out as a sweep over the slots gives it, whatever the share of slots taken', () => {
    const random = prng(11);
    for (const [count, size] of [[5, 100_000], [40, 100_000], [600, 100_000], [3000, 20_000], [1, 1], [200, 300]] as const) {
      const rids = [...new Set(Array.from({ length: count }, () => Math.floor(random() * size)))];
      const postings = rids.map((rid): Posting => [rid, Math.floor(random() * 256), Math.floor(random() * 256), rid % 256]);
      expect(asPostings(inOrder(packedText(postings), size))).toEqual(byRid(postings));
    }
  });
});
