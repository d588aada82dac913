import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { encodeHistoryLine, verifyHistoryChain, type HistoryEntry } from '../../../../src/domain/tracker/history.js';

const hasher = new PureSha256Hasher();
const digest = (line: string) => `sha256:${hasher.sha256Hex(line)}`;

function chain(n: number): string[] {
  const lines: string[] = [];
  let prev: string | null = null;
  for (let seq = 1; seq <= n; seq++) {
    const entry: HistoryEntry = { receiptId: `r${seq}`, op: 'update', itemId: 'pm-abc123', actor: 'a', at: '2026-01-01T00:00:00.000Z', seq, revisionBefore: seq - 1, revisionAfter: seq, digestBefore: null, digestAfter: null, patch: [], prev };
    const line = encodeHistoryLine(entry);
    lines.push(line);
    prev = digest(line);
  }
  return lines;
}

describe('history hash chain', () => {
  it('accepts an intact chain', () => {
    const { entries, faults } = verifyHistoryChain(`${chain(5).join('\n')}\n`, 'pm-abc123', digest);
    expect(faults).toEqual([]);
    expect(entries).toHaveLength(5);
  });

  it('names the edited line, which the intact line after it no longer links to', () => {
    const lines = chain(5);
    lines[1] = lines[1]!.replace('"actor":"a"', '"actor":"mallory"');
    const { faults } = verifyHistoryChain(lines.join('\n'), 'pm-abc123', digest);
    expect(faults).toEqual([{ line: 2, problem: 'line was altered after it was written (line 3 records another digest for it)' }]);
  });

  it('names the broken link itself when the line after it is not intact either', () => {
    const lines = chain(5);
    lines[1] = lines[1]!.replace('"actor":"a"', '"actor":"mallory"');
    lines[2] = lines[2]!.replace('"actor":"a"', '"actor":"eve"');
    const { faults } = verifyHistoryChain(lines.join('\n'), 'pm-abc123', digest);
    expect(faults).toEqual([{ line: 3, problem: expect.stringContaining('prev does not match') }, { line: 3, problem: expect.stringContaining('line was altered') }]);
  });

  it('detects a deleted line and reordered lines', () => {
    const lines = chain(4);
    expect(verifyHistoryChain([lines[0], lines[2], lines[3]].join('\n'), 'pm-abc123', digest).faults.length).toBeGreaterThan(0);
    expect(verifyHistoryChain([lines[1], lines[0]].join('\n'), 'pm-abc123', digest).faults.length).toBeGreaterThan(0);
  });

  it('detects a line that is not JSON, a wrong item id and a non-canonical rewrite', () => {
    const lines = chain(2);
    expect(verifyHistoryChain(`${lines[0]}\nnot json`, 'pm-abc123', digest).faults[0]).toEqual({ line: 2, problem: 'line is not valid JSON' });
    expect(verifyHistoryChain(lines.join('\n'), 'pm-other1', digest).faults.some((f) => f.problem.includes('itemId'))).toBe(true);
    const spaced = lines[0]!.replace('{', '{ ');
    expect(verifyHistoryChain(spaced, 'pm-abc123', digest).faults.some((f) => f.problem.includes('canonical'))).toBe(true);
  });
});
