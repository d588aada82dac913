import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { mergeHistories } from '../../../../src/domain/merge/history-merge.js';
import { encodeHistoryLine, verifyHistoryChain, type HistoryEntry } from '../../../../src/domain/tracker/history.js';

const hasher = new PureSha256Hasher();
const digest = (line: string) => `sha256:${hasher.sha256Hex(line)}`;
const ID = 'pm-abc123';

/** Appends `n` lines to `lines` (a chain), each at a later minute, named by `tag`. */
function extend(lines: readonly string[], n: number, tag: string, minute = 0): string[] {
  const out = [...lines];
  for (let k = 0; k < n; k++) {
    const last = out.length > 0 ? (JSON.parse(out[out.length - 1]!) as HistoryEntry) : undefined;
    const entry: HistoryEntry = { receiptId: `r-${tag}${k}`, op: 'update', itemId: ID, actor: tag, at: `2026-01-01T00:${String(minute + k).padStart(2, '0')}:00.000Z`, seq: (last?.seq ?? 0) + 1, revisionBefore: last?.revisionAfter ?? null, revisionAfter: (last?.revisionAfter ?? 0) + 1, digestBefore: null, digestAfter: `sha256:${tag}${k}`, patch: [], prev: out.length > 0 ? digest(out[out.length - 1]!) : null };
    out.push(encodeHistoryLine(entry));
  }
  return out;
}
const text = (lines: readonly string[]) => `${lines.join('\n')}\n`;
const verify = (t: string) => verifyHistoryChain(t, ID, digest);

describe('history merge', () => {
  const base = extend([], 3, 'base');
  const ours = extend(base, 2, 'a', 10);
  const theirs = extend(base, 3, 'b', 20);

  it('keeps the common prefix and both suffixes, then a merge line naming both heads', () => {
    const merged = mergeHistories(text(ours), text(theirs), ID, digest);
    const lines = merged.text.trimEnd().split('\n');
    expect(lines).toHaveLength(3 + 2 + 3 + 1);
    for (const line of [...ours, ...theirs]) expect(lines).toContain(line);
    const merge = JSON.parse(lines[lines.length - 1]!) as HistoryEntry;
    expect(merge).toMatchObject({ op: 'merge', seq: 7, revisionBefore: 6, revisionAfter: 7, parents: [digest(ours[4]!), digest(theirs[5]!)].sort() });
    expect(verify(merged.text)).toMatchObject({ faults: [], roots: [1] });
    expect(merged.added).toEqual({ ours: 2, theirs: 3 });
  });

  it('does not depend on which side is ours, and is a fast-forward when one side contains the other', () => {
    expect(mergeHistories(text(ours), text(theirs), ID, digest).text).toBe(mergeHistories(text(theirs), text(ours), ID, digest).text);
    expect(mergeHistories(text(base), text(ours), ID, digest)).toEqual({ text: text(ours), added: { ours: 0, theirs: 2 } });
    expect(mergeHistories(text(ours), text(base), ID, digest).mergeLine).toBeUndefined();
  });

  it('merges again after a merge (criss-cross) without duplicating a line, and appends continue the chain', () => {
    const first = mergeHistories(text(ours), text(theirs), ID, digest).text.trimEnd().split('\n');
    const later = extend(first, 1, 'c', 40);
    const other = extend(theirs, 2, 'd', 30);
    const merged = mergeHistories(text(later), text(other), ID, digest);
    const lines = merged.text.trimEnd().split('\n');
    expect(new Set(lines).size).toBe(lines.length);
    for (const line of [...later, ...other]) expect(lines).toContain(line);
    expect(verify(merged.text).faults).toEqual([]);
    expect(verify(text(extend(lines, 2, 'e', 50))).faults).toEqual([]);
  });

  it('keeps both roots of an id created on two branches, which verification names as a collision', () => {
    const merged = mergeHistories(text(extend([], 2, 'x')), text(extend([], 2, 'y', 5)), ID, digest);
    const result = verify(merged.text);
    expect(result.roots).toEqual([1, 3]);
    expect(result.faults).toEqual([{ line: 3, problem: expect.stringContaining('same id was created on two branches') }]);
  });
});

describe('history chain verification with merges', () => {
  const base = extend([], 2, 'base');
  const merged = mergeHistories(text(extend(base, 2, 'a', 10)), text(extend(base, 2, 'b', 20)), ID, digest).text.trimEnd().split('\n');

  it('tells a forged merge line from a real one', () => {
    const merge = JSON.parse(merged[merged.length - 1]!) as HistoryEntry;
    const forged = encodeHistoryLine({ ...merge, parents: [merge.parents![0]!, 'sha256:0000'].sort() });
    expect(verify(text([...merged.slice(0, -1), forged])).faults.map((f) => f.problem)).toEqual(expect.arrayContaining([expect.stringContaining('not an earlier line')]));
    const wrongSeq = encodeHistoryLine({ ...merge, seq: 9 });
    expect(verify(text([...merged.slice(0, -1), wrongSeq])).faults).toEqual([{ line: 7, problem: 'seq is 9, expected 5' }]);
  });

  it('detects a dropped branch line, an inserted line and a missing merge line', () => {
    expect(verify(text(merged.filter((_, i) => i !== 4))).faults.length).toBeGreaterThan(0);
    expect(verify(text(merged.slice(0, -1))).faults).toEqual([{ line: 4, problem: expect.stringContaining('no later line continues') }]);
    const inserted = extend(merged.slice(0, 2), 1, 'evil', 59);
    expect(verify(text([...inserted, ...merged.slice(2)])).faults).toEqual([{ line: 3, problem: expect.stringContaining('no later line continues') }]);
  });
});
