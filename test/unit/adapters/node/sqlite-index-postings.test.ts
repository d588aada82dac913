import { existsSync } from 'node:fs';
import { decodeColumn } from '../../../../src/adapters/node/sqlite-index-column-codec.js';
import { PostingsSpill } from '../../../../src/adapters/node/sqlite-index-postings.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { prng } from '../item-index-contract.js';

type Posting = [rid: number, t: number, b: number, c: number];

const dir = useTempDir('pm-postings-');

/** Random postings for 6,000 items (more than one block of the spill), fed to `spill` and kept plainly by word. */
function fill(spill: PostingsSpill, seed: number): Map<number, Posting[]> {
  const next = prng(seed);
  const plain = new Map<number, Posting[]>();
  let rid = 0;
  for (let item = 0; item < 6000; item++) {
    rid += 1 + Math.floor(next() * 3);
    spill.item(rid);
    const words = new Set<number>();
    for (let w = Math.floor(next() * 40); w > 0; w--) words.add(next() < 0.05 ? 7 : 1 + Math.floor(next() * 300));
    for (const wid of words) {
      const counts = [Math.floor(next() * 3), Math.floor(next() * 9), next() < 0.01 ? 70_000 + Math.floor(next() * 10) : Math.floor(next() * 4)] as const;
      spill.add(wid, ...counts);
      if (!plain.has(wid)) plain.set(wid, []);
      plain.get(wid)!.push([rid, counts[0], counts[1], Math.min(255, counts[2])]);
    }
  }
  return plain;
}

/** The spill's columns decoded, each copied out before the next is asked for (their bytes are reused). */
function columnsOf(spill: PostingsSpill): [number, Posting[]][] {
  const out: [number, Posting[]][] = [];
  for (const [wid, data] of spill.columns()) {
    const column = decodeColumn(data);
    out.push([wid, [...column.rids].map((r, k): Posting => [r, column.t[k]!, column.b[k]!, column.c[k]!])]);
  }
  return out;
}

describe('PostingsSpill', () => {
  it.each([
    ['one pass', undefined],
    ['passes of at most 5,000 postings', 5000],
    ['a pass per word', 1],
  ])('hands out each word\'s postings once, in rowid order, counts capped at 255, words in id order (%s)', (_name, passPostings) => {
    const path = `${dir()}/build.postings`;
    const spill = new PostingsSpill(path, passPostings);
    const plain = fill(spill, 7);
    expect(spill.length).toBe([...plain.values()].reduce((sum, list) => sum + list.length, 0));
    expect(spill.length).toBeGreaterThan(100_000);
    expect(columnsOf(spill)).toEqual([...plain].sort(([x], [y]) => x - y));
    spill.close();
    expect(existsSync(path)).toBe(false);
  });

  it('gives the same columns twice (each pass reads the file again)', () => {
    const spill = new PostingsSpill(`${dir()}/twice.postings`, 20_000);
    fill(spill, 3);
    expect(columnsOf(spill)).toEqual(columnsOf(spill));
    spill.close();
  });

  it('refuses rowids out of order and bad word ids, hands out nothing when empty, replaces a stale file', () => {
    const path = `${dir()}/refuse.postings`;
    const spill = new PostingsSpill(path);
    spill.item(2);
    expect(() => spill.item(2)).toThrow(/rowid/);
    expect(() => spill.add(-1, 1, 0, 0)).toThrow(/word id/);
    spill.add(4, 1, 0, 0);
    spill.close();
    spill.close();
    const empty = new PostingsSpill(path);
    expect([...empty.columns()]).toEqual([]);
    empty.close();
  });
});
