import { countingOrder, PostingsBuffer, type PostingRow } from '../../../../src/adapters/node/sqlite-index-postings.js';

/** A small deterministic generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The `postings` key order, as SQLite compares the key (status as UTF-8 bytes). */
function byKey(a: PostingRow, b: PostingRow): number {
  return a[0] - b[0] || b[1] - a[1] || a[2] - b[2] || Buffer.compare(Buffer.from(a[3]), Buffer.from(b[3])) || a[4] - b[4];
}

function rowsOf(buffer: PostingsBuffer, chunk: number): PostingRow[] {
  const out: PostingRow[] = [];
  for (const values of buffer.chunks(chunk)) for (let at = 0; at < values.length; at += 8) out.push(values.slice(at, at + 8) as PostingRow);
  return out;
}

describe('PostingsBuffer', () => {
  it('hands out every posting once, in the table key order, as a plain sort of the rows does', () => {
    const next = random(7);
    // Statuses whose UTF-16 and UTF-8 orders differ (a character above U+FFFF against U+FF5E).
    const statuses = ['open', 'closed', 'in_progress', 'blocked', '\u{1F600}x', '\uff5ex', 'Z'];
    const buffer = new PostingsBuffer();
    const plain: PostingRow[] = [];
    let rid = 0;
    for (let item = 0; item < 3000; item++) {
      rid += 1 + Math.floor(next() * 3);
      const priority = Math.floor(next() * 5);
      const status = statuses[Math.floor(next() * statuses.length)]!;
      buffer.item(rid, priority, status);
      const words = new Set<number>();
      for (let w = Math.floor(next() * 40); w > 0; w--) words.add(1 + Math.floor(next() * 300));
      for (const wid of words) {
        const counts = [Math.floor(next() * 3), Math.floor(next() * 9), next() < 0.01 ? 70_000 + Math.floor(next() * 10) : Math.floor(next() * 4)] as const;
        const score = Math.floor(next() * 56);
        buffer.add(wid, score, ...counts);
        plain.push([wid, score, priority, status, rid, ...counts]);
      }
    }
    expect(buffer.length).toBe(plain.length);
    expect(plain.length).toBeGreaterThan(50_000);
    const sorted = [...plain].sort(byKey);
    expect(rowsOf(buffer, 256)).toEqual(sorted);
    expect(rowsOf(buffer, 1000)).toEqual(sorted);
  });

  it('refuses rowids out of order and scores it cannot hold', () => {
    const buffer = new PostingsBuffer();
    buffer.item(2, 1, 'open');
    expect(() => buffer.item(2, 1, 'open')).toThrow(/rowid/);
    expect(() => buffer.add(1, 256, 0, 0, 0)).toThrow(/score/);
    expect(rowsOf(buffer, 4)).toEqual([]);
  });
});

describe('countingOrder', () => {
  it('orders stably by the key', () => {
    const keys = [3, 1, 2, 1, 0, 3, 2, 0];
    const order = countingOrder(keys.length, (k) => k, (index) => keys[index]!, 4);
    expect([...order]).toEqual([4, 7, 1, 3, 2, 6, 0, 5]);
  });
});
