/** One word's postings as typed arrays in rowid order: rowid and counts per field (at most {@link MAX_COUNT}). */
export interface PostingColumn {
  readonly rids: Int32Array;
  readonly t: Uint8Array;
  readonly b: Uint8Array;
  readonly c: Uint8Array;
}

/** Counts are kept up to this value: a search capping counts at most here gets the same capped sums. */
export const MAX_COUNT = 255;
/** The packing factor of a posting's rowid (rowids stay below 2^29, so a packed posting is an exact double). */
export const PACK = 16_777_216;
/** A changed posting packed as one number (rowid, then the three capped counts a byte each), as SQL over `word_changes`. */
export const PACKED = `rid * ${PACK} + min(${MAX_COUNT}, t) * 65536 + min(${MAX_COUNT}, b) * 256 + min(${MAX_COUNT}, c)`;

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** An empty column. */
export const EMPTY_COLUMN: PostingColumn = { rids: new Int32Array(0), t: new Uint8Array(0), b: new Uint8Array(0), c: new Uint8Array(0) };

/**
 * A column as `word_columns.data` stores it (docs/TRACKER.md "The derived index"): the n rowids
 * as 32-bit little-endian integers, then the n title, the n body and the n comment counts, a
 * byte each. Reading one is a view over the bytes SQLite returns, not a parse. Written into
 * `data` when given (its length must be 7 per posting: a first build reuses one buffer).
 */
export function encodeColumn(column: PostingColumn, data: Uint8Array = new Uint8Array(7 * column.rids.length)): Uint8Array {
  const n = column.rids.length;
  if (data.length !== 7 * n) throw new Error(`a column of ${n} postings in ${data.length} bytes`);
  if (LITTLE_ENDIAN && data.byteOffset % 4 === 0) new Int32Array(data.buffer, data.byteOffset, n).set(column.rids);
  else {
    const view = new DataView(data.buffer, data.byteOffset, 4 * n);
    for (let k = 0; k < n; k++) view.setInt32(4 * k, column.rids[k]!, true);
  }
  data.set(column.t, 4 * n);
  data.set(column.b, 5 * n);
  data.set(column.c, 6 * n);
  return data;
}

/** The column of {@link encodeColumn}'s bytes; a length that is no multiple of 7 is a damaged database. */
export function decodeColumn(data: Uint8Array): PostingColumn {
  if (data.length % 7 !== 0) throw Object.assign(new Error(`a word column of ${data.length} bytes`), { code: 'SQLITE_CORRUPT' });
  const n = data.length / 7;
  let rids: Int32Array;
  if (LITTLE_ENDIAN && data.byteOffset % 4 === 0) rids = new Int32Array(data.buffer, data.byteOffset, n);
  else {
    rids = new Int32Array(n);
    const view = new DataView(data.buffer, data.byteOffset, 4 * n);
    for (let k = 0; k < n; k++) rids[k] = view.getInt32(4 * k, true);
  }
  // Plain views (a Buffer's subarray is a Buffer): every column's arrays are of one kind, so the sums' loops stay monomorphic.
  const bytes = (from: number) => new Uint8Array(data.buffer, data.byteOffset + from, n);
  return { rids, t: bytes(4 * n), b: bytes(5 * n), c: bytes(6 * n) };
}

/**
 * The column with a word's changed postings applied (`word_changes`, as {@link PACKED} numbers in
 * any order): a changed rowid takes its new counts, all-zero counts remove it. Both in rowid
 * order, so one merge; the column itself when nothing changed.
 */
export function withChanges(column: PostingColumn, changes: Float64Array): PostingColumn {
  if (changes.length === 0) return column;
  changes.sort();
  const n = column.rids.length;
  const m = changes.length;
  const out = { rids: new Int32Array(n + m), t: new Uint8Array(n + m), b: new Uint8Array(n + m), c: new Uint8Array(n + m) };
  let size = 0;
  let i = 0;
  const put = (rid: number, t: number, b: number, c: number) => {
    out.rids[size] = rid;
    out.t[size] = t;
    out.b[size] = b;
    out.c[size++] = c;
  };
  for (let k = 0; k < m; k++) {
    const rid = Math.floor(changes[k]! / PACK);
    const counts = changes[k]! - rid * PACK;
    for (; i < n && column.rids[i]! < rid; i++) put(column.rids[i]!, column.t[i]!, column.b[i]!, column.c[i]!);
    if (i < n && column.rids[i] === rid) i++;
    if (counts !== 0) put(rid, counts >> 16, (counts >> 8) & 255, counts & 255);
  }
  for (; i < n; i++) put(column.rids[i]!, column.t[i]!, column.b[i]!, column.c[i]!);
  return { rids: out.rids.subarray(0, size), t: out.t.subarray(0, size), b: out.b.subarray(0, size), c: out.c.subarray(0, size) };
}

/** The comma-separated non-negative integers of `text` (SQLite's group_concat of {@link PACKED}). */
export function parsePacked(text: string): Float64Array {
  if (text.length === 0) return new Float64Array(0);
  let n = 1;
  for (let at = text.indexOf(','); at >= 0; at = text.indexOf(',', at + 1)) n++;
  const packed = new Float64Array(n);
  let k = 0;
  eachPacked(text, (value) => (packed[k++] = value));
  return packed;
}

/** Calls `visit` with each number of a comma-separated text of non-negative integers. */
export function eachPacked(text: string, visit: (value: number) => void): void {
  let value = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code !== 44) value = value * 10 + code - 48;
    else {
      visit(value);
      value = 0;
    }
  }
  if (text.length > 0) visit(value);
}
