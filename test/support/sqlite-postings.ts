import { PostingColumns } from '../../src/adapters/node/sqlite-index-columns.js';
import type { SqliteDatabase } from '../../src/adapters/node/sqlite-driver.js';

/**
 * Every posting of a SQLite index as [word, item rowid, title, body, comments counts], in word
 * and rowid order: what the word tables hold together, whichever part of it is still a change.
 */
export function postingRows(db: SqliteDatabase, rowName: (rid: number) => unknown = (rid) => rid): unknown[][] {
  const columns = new PostingColumns((sql) => db.prepare(sql), () => undefined);
  const out: unknown[][] = [];
  for (const [wid, word] of db.prepare('SELECT wid, word FROM vocab ORDER BY word').raw().all() as [number, string][]) {
    const { rids, t, b, c } = columns.read(wid);
    rids.forEach((rid, k) => out.push([word, rowName(rid), t[k], b[k], c[k]]));
  }
  return out;
}
