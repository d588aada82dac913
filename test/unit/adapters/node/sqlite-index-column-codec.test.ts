import { decodeColumn, encodeColumn, PACK, parsePacked, withChanges, type PostingColumn } from '../../../../src/adapters/node/sqlite-index-column-codec.js';
import { prng } from '../item-index-contract.js';

type Posting = [rid: number, t: number, b: number, c: number];

const columnOf = (postings: readonly Posting[]): PostingColumn => ({
  rids: Int32Array.from(postings, ([rid]) => rid),
  t: Uint8Array.from(postings, ([, t]) => t),
  b: Uint8Array.from(postings, ([, , b]) => b),
  c: Uint8Array.from(postings, ([, , , c]) => c),
});
const asPostings = (column: PostingColumn): Posting[] => [...column.rids].map((rid, k) => [rid, column.t[k]!, column.b[k]!, column.c[k]!]);
const packed = (postings: readonly Posting[]) => postings.map(([rid, t, b, c]) => rid * PACK + t * 65536 + b * 256 + c).join(',');

describe('a stored word column', () => {
  it('reads back what was written, up to the rowid bound, from aligned and unaligned bytes', () => {
    const random = prng(42);
    for (let round = 0; round < 20; round++) {
      const rids = [...new Set(Array.from({ length: Math.floor(random() * 500) }, () => Math.floor(random() * 2 ** 29)))].sort((x, y) => x - y);
      const postings = rids.map((rid): Posting => [rid, Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256)]);
      const data = encodeColumn(columnOf(postings));
      expect(data.length).toBe(7 * postings.length);
      expect(asPostings(decodeColumn(data))).toEqual(postings);
      const shifted = new Uint8Array(data.length + 1);
      shifted.set(data, 1);
      expect(asPostings(decodeColumn(shifted.subarray(1)))).toEqual(postings);
      // Written into given bytes, aligned or not: the same bytes.
      for (const offset of [0, 3, 4]) {
        const room = new Uint8Array(data.length + offset + 2).fill(9);
        expect([...encodeColumn(columnOf(postings), room.subarray(offset, offset + data.length))]).toEqual([...data]);
        expect([...room.subarray(0, offset), ...room.subarray(offset + data.length)]).toEqual(Array(offset + 2).fill(9));
      }
    }
  });

  it('is written only into bytes of its exact size', () => {
    expect(() => encodeColumn(columnOf([[1, 1, 0, 0]]), new Uint8Array(8))).toThrow(/1 postings in 8 bytes/);
  });

  it('refuses bytes that are no column as a damaged database', () => {
    expect(() => decodeColumn(new Uint8Array(8))).toThrow(expect.objectContaining({ code: 'SQLITE_CORRUPT' }));
  });
});

describe('a word column with its changed postings', () => {
  it('is what applying each change to a map of the postings gives, in rowid order', () => {
    const random = prng(9);
    for (let round = 0; round < 40; round++) {
      const size = 1 + Math.floor(random() * 3000);
      const base = new Map<number, Posting>();
      for (let k = Math.floor(random() * 400); k > 0; k--) {
        const rid = Math.floor(random() * size);
        base.set(rid, [rid, Math.floor(random() * 4), 1 + Math.floor(random() * 4), Math.floor(random() * 4)]);
      }
      const want = new Map(base);
      const changes = new Map<number, Posting>();
      for (let k = Math.floor(random() * 200); k > 0; k--) {
        const rid = Math.floor(random() * size);
        const gone = random() < 0.4;
        const posting: Posting = gone ? [rid, 0, 0, 0] : [rid, Math.floor(random() * 256), Math.floor(random() * 256), 1 + Math.floor(random() * 255)];
        changes.set(rid, posting);
        if (gone) want.delete(rid);
        else want.set(rid, posting);
      }
      const column = columnOf([...base.values()].sort((x, y) => x[0] - y[0]));
      const merged = withChanges(column, parsePacked(packed([...changes.values()])));
      expect(asPostings(merged)).toEqual([...want.values()].sort((x, y) => x[0] - y[0]));
    }
  });

  it('is the column itself without changes, and empty when every posting is gone', () => {
    const column = columnOf([[1, 1, 0, 0], [5, 0, 2, 0]]);
    expect(withChanges(column, parsePacked(''))).toBe(column);
    expect(withChanges(column, parsePacked(packed([[5, 0, 0, 0], [1, 0, 0, 0]]))).rids).toHaveLength(0);
  });
});
