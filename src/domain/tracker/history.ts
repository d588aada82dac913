import { canonicalJson } from '../util/canonical-json.js';
import type { JsonPatchOp } from './json-patch.js';
import type { Receipt } from './receipt.js';

/** One line of `.agents/pm/history/<id>.jsonl`: the receipt, its patch and the chain link. */
export interface HistoryEntry extends Receipt {
  readonly patch: readonly JsonPatchOp[];
  /** Fingerprint of the request when it carried an idempotency key. */
  readonly fingerprint?: string;
  /** `sha256:<hex>` of the previous line's exact text; null on the first line. */
  readonly prev: string | null;
}

/** The exact text of a history line (canonical JSON, so digests are reproducible). */
export function encodeHistoryLine(entry: HistoryEntry): string {
  return canonicalJson(entry);
}

/** A problem found while verifying a history chain. */
export interface ChainFault {
  readonly line: number;
  readonly problem: string;
}

/**
 * Verifies the hash chain of one history file: each line parses, carries the right sequence
 * number and item id, and links to the digest of the line before it. Any edit, insertion,
 * deletion or reordering of lines before the last breaks a link and is named by line number.
 * A broken link whose own line is vouched for by the line after it (that line's `prev` matches
 * it, or it is the last line) means the line before the link was altered: that line is named,
 * not the intact one that merely records its old digest.
 */
export function verifyHistoryChain(text: string, itemId: string, digest: (line: string) => string): { entries: HistoryEntry[]; faults: ChainFault[] } {
  const faults: ChainFault[] = [];
  const entries: HistoryEntry[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const digests = lines.map((line) => digest(line));
  const prevs: (string | null | undefined)[] = [];
  lines.forEach((line, index) => {
    const number = index + 1;
    let entry: HistoryEntry;
    try {
      entry = JSON.parse(line) as HistoryEntry;
    } catch {
      faults.push({ line: number, problem: 'line is not valid JSON' });
      prevs.push(undefined);
      return;
    }
    prevs.push(entry.prev);
    const expected = index === 0 ? null : digests[index - 1]!;
    if (entry.prev !== expected) faults.push({ line: number, problem: expected === null ? 'first line must have prev: null' : BROKEN_LINK });
    if (entry.seq !== number) faults.push({ line: number, problem: `seq is ${entry.seq}, expected ${number}` });
    if (entry.itemId !== itemId) faults.push({ line: number, problem: `itemId is ${entry.itemId}, expected ${itemId}` });
    if (encodeHistoryLine(entry) !== line) faults.push({ line: number, problem: 'line is not in canonical form (history was altered)' });
    entries.push(entry);
  });
  return { entries, faults: attributeLinks(faults, digests, prevs) };
}

const BROKEN_LINK = 'prev does not match the digest of the line before (history was altered)';

/** Names the altered line for each broken link its successor proves it did not cause. */
function attributeLinks(faults: ChainFault[], digests: readonly string[], prevs: readonly (string | null | undefined)[]): ChainFault[] {
  return faults.map((fault) => {
    if (fault.problem !== BROKEN_LINK) return fault;
    const index = fault.line - 1;
    const vouched = index === digests.length - 1 || prevs[index + 1] === digests[index];
    if (!vouched) return fault;
    return { line: fault.line - 1, problem: `line was altered after it was written (line ${fault.line} records another digest for it)` };
  });
}
