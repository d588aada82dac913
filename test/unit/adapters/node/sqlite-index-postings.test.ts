import { decodeColumn } from '../../../../src/adapters/node/sqlite-index-column-codec.js';
import { countingOrder, PostingsBuffer } from '../../../../src/adapters/node/sqlite-index-postings.js';
import { prng } from '../item-index-contract.js';

type Posting = [rid: number, t: number, b: number, c: number];

describe('PostingsBuffer', () => {
  it('hands out each word\'s postings once, in rowid order, counts capped at 255, words in id order', () => {
    const next = prng(7);
    const buffer = new PostingsBuffer();
    const plain = new Map<number, Posting[]>();
    let rid = 0;
    for (let item = 0; item < 3000; item++) {
      rid += 1 + Math.floor(next() * 3);
      buffer.item(rid);
      const words = new Set<number>();
      for (let w = Math.floor(next() * 40); w > 0; w--) words.add(1 + Math.floor(next() * 300));
      for (const wid of words) {
        const counts = [Math.floor(next() * 3), Math.floor(next() * 9), next() < 0.01 ? 70_000 + Math.floor(next() * 10) : Math.floor(next() * 4)] as const;
        buffer.add(wid, ...counts);
        if (!plain.has(wid)) plain.set(wid, []);
        plain.get(wid)!.push([rid, counts[0], counts[1], Math.min(255, counts[2])]);
      }
    }
    expect(buffer.length).toBe([...plain.values()].reduce((sum, list) => sum + list.length, 0));
    expect(buffer.length).toBeGreaterThan(50_000);
    const got = [...buffer.columns()].map(([wid, data]): [number, Posting[]] => {
      const column = decodeColumn(data);
      return [wid, [...column.rids].map((r, k) => [r, column.t[k]!, column.b[k]!, column.c[k]!])];
    });
    expect(got).toEqual([...plain].sort(([x], [y]) => x - y));
  });

  it('refuses rowids out of order and hands out nothing when empty', () => {
    const buffer = new PostingsBuffer();
    buffer.item(2);
    expect(() => buffer.item(2)).toThrow(/rowid/);
    expect([...new PostingsBuffer().columns()]).toEqual([]);
  });
});

describe('countingOrder', () => {
  it('orders stably by the key', () => {
    const keys = [3, 1, 2, 1, 0, 3, 2, 0];
    const order = countingOrder(keys.length, (k) => k, (index) => keys[index]!, 4);
    expect([...order]).toEqual([4, 7, 1, 3, 2, 6, 0, 5]);
  });
});
