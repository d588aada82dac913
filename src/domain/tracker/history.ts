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
 */
export function verifyHistoryChain(text: string, itemId: string, digest: (line: string) => string): { entries: HistoryEntry[]; faults: ChainFault[] } {
  const faults: ChainFault[] = [];
  const entries: HistoryEntry[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let prev: string | null = null;
  lines.forEach((line, index) => {
    const number = index + 1;
    let entry: HistoryEntry;
    try {
      entry = JSON.parse(line) as HistoryEntry;
    } catch {
      faults.push({ line: number, problem: 'line is not valid JSON' });
      prev = digest(line);
      return;
    }
    if (entry.prev !== prev) faults.push({ line: number, problem: prev === null ? 'first line must have prev: null' : 'prev does not match the digest of the line before (history was altered)' });
    if (entry.seq !== number) faults.push({ line: number, problem: `seq is ${entry.seq}, expected ${number}` });
    if (entry.itemId !== itemId) faults.push({ line: number, problem: `itemId is ${entry.itemId}, expected ${itemId}` });
    if (encodeHistoryLine(entry) !== line) faults.push({ line: number, problem: 'line is not in canonical form (history was altered)' });
    entries.push(entry);
    prev = digest(line);
  });
  return { entries, faults };
}
