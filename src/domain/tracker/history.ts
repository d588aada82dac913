import { canonicalJson } from '../util/canonical-json.js';
import type { JsonPatchOp } from './json-patch.js';
import type { Receipt } from './receipt.js';

/** One line of `.agents/pm/history/<id>.jsonl`: the receipt, its patch and the chain link. */
export interface HistoryEntry extends Receipt {
  readonly patch: readonly JsonPatchOp[];
  /** Fingerprint of the request when it carried an idempotency key. */
  readonly fingerprint?: string;
  /**
   * `sha256:<hex>` of the line this one continues; null on the first line. Normally the line
   * right before it; the first line of a branch joined by a later `merge` line names the line
   * its branch forked from.
   */
  readonly prev: string | null;
  /**
   * Only on a `merge` line: the digests of the branch heads it joins, sorted (docs/TRACKER.md
   * "Merges": a merge keeps every line of both branches and stays verifiable).
   */
  readonly parents?: readonly string[];
  /**
   * Only on a `rename` line: chains of this file that belong to another item since an id
   * collision was repaired (their first line's digest and the item's new id).
   */
  readonly detached?: readonly { readonly root: string; readonly itemId: string }[];
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

/** What verifying one history file found. */
export interface ChainVerification {
  readonly entries: HistoryEntry[];
  readonly faults: ChainFault[];
  /**
   * Line numbers of the lines that start a chain (prev: null). More than one means two items
   * were created under the same id on different branches and then merged (an id collision).
   */
  readonly roots: number[];
}

interface Known {
  readonly seq: number;
  readonly line: number;
}

/**
 * Verifies the hash chain of one history file: each line parses, is in canonical form, names
 * the item, and continues a line that comes before it, with seq one more than that line's.
 * A chain may fork when branches were merged: the first line of each branch names the line it
 * forked from, and a `merge` line (prev: the line before it) joins the branch heads it names
 * in `parents`, taking a seq one more than the highest of them. At the end exactly one head
 * may remain, the last line: a line no later line continues or joins was inserted, and a
 * deleted or reordered line leaves a link to a line that is not (yet) there. Faults are named
 * by line number.
 * A broken link whose own line is vouched for by the line after it (that line's `prev` matches
 * it, or it is the last line) means the line before the link was altered: that line is named,
 * not the intact one that merely records its old digest.
 */
export function verifyHistoryChain(text: string, itemId: string, digest: (line: string) => string): ChainVerification {
  const faults: ChainFault[] = [];
  const entries: HistoryEntry[] = [];
  const roots: number[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const known = new Map<string, Known>();
  const rootDigests = new Map<number, string>();
  const detached = new Set<string>();
  const heads = new Map<string, number>();
  let before: string | null = null;
  const digests: string[] = [];
  const prevs: (string | null | undefined)[] = [];
  lines.forEach((line, index) => {
    const number = index + 1;
    const own = digest(line);
    digests.push(own);
    let entry: HistoryEntry;
    try {
      entry = JSON.parse(line) as HistoryEntry;
      if (!entry || typeof entry !== 'object') throw new Error('not an object');
    } catch {
      faults.push({ line: number, problem: 'line is not valid JSON' });
      // A broken line still continues its neighbour, so one bad line is one fault.
      if (before !== null) heads.delete(before);
      before = own;
      heads.set(own, number);
      known.set(own, { seq: number, line: number });
      return;
    }
    prevs.push(entry.prev);
    const expected = entry.op === 'merge' ? checkMerge(entry, before, known, heads, number, faults) : checkLink(entry, before, number, known, heads, roots, faults);
    if (entry.seq !== expected) faults.push({ line: number, problem: `seq is ${entry.seq}, expected ${expected}` });
    if (entry.itemId !== itemId) faults.push({ line: number, problem: `itemId is ${entry.itemId}, expected ${itemId}` });
    if (encodeHistoryLine(entry) !== line) faults.push({ line: number, problem: 'line is not in canonical form (history was altered)' });
    if (entry.prev === null) rootDigests.set(number, own);
    if (Array.isArray(entry.detached)) for (const d of entry.detached) detached.add(d.root);
    entries.push(entry);
    known.set(own, { seq: typeof entry.seq === 'number' ? entry.seq : expected, line: number });
    heads.set(own, number);
    before = own;
  });
  for (const [, line] of heads) {
    if (line !== lines.length) faults.push({ line, problem: 'no later line continues this one and no merge line joins it (a line was inserted)' });
  }
  // A second chain detached by a repaired id collision is another item's and no fault.
  const kept = faults.filter((f) => !(f.line !== 1 && detached.has(rootDigests.get(f.line) ?? '') && f.problem.startsWith('a second chain')));
  return { entries, faults: attributeLinks(kept, digests, prevs), roots: roots.filter((line) => !detached.has(rootDigests.get(line) ?? '')) };
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

/** A plain line: the line it continues must come before it; its seq follows that line's. */
function checkLink(entry: HistoryEntry, before: string | null, number: number, known: Map<string, Known>, heads: Map<string, number>, roots: number[], faults: ChainFault[]): number {
  if (entry.prev === null) {
    roots.push(number);
    if (number !== 1) faults.push({ line: number, problem: 'a second chain starts here (prev: null): the same id was created on two branches; run pm merge fix-ids' });
    return 1;
  }
  const parent = typeof entry.prev === 'string' ? known.get(entry.prev) : undefined;
  if (!parent) {
    faults.push({ line: number, problem: number === 1 ? 'first line must have prev: null' : BROKEN_LINK });
    // Taken as continuing its neighbour, so one altered line is one fault.
    if (before !== null) heads.delete(before);
    return number;
  }
  heads.delete(entry.prev!);
  return parent.seq + 1;
}

/** A merge line: prev is the line before it, parents the (sorted, distinct) heads it joins. */
function checkMerge(entry: HistoryEntry, before: string | null, known: Map<string, Known>, heads: Map<string, number>, number: number, faults: ChainFault[]): number {
  if (entry.prev !== before) faults.push({ line: number, problem: 'a merge line must continue the line right before it (history was altered)' });
  const parents = Array.isArray(entry.parents) ? entry.parents : [];
  if (parents.length < 2 || new Set(parents).size !== parents.length || !isSorted(parents)) faults.push({ line: number, problem: 'a merge line must name two or more distinct parents, sorted' });
  if (before !== null && !parents.includes(before)) faults.push({ line: number, problem: 'a merge line must join the line right before it' });
  let seq = 0;
  for (const parent of parents) {
    const found = known.get(parent);
    if (!found) {
      faults.push({ line: number, problem: `merge parent ${String(parent).slice(0, 19)}… is not an earlier line (history was altered)` });
      continue;
    }
    heads.delete(parent);
    seq = Math.max(seq, found.seq);
  }
  if (before !== null) heads.delete(before);
  return seq + 1;
}

function isSorted(values: readonly string[]): boolean {
  return values.every((value, index) => index === 0 || values[index - 1]! < value);
}

/**
 * A history file's text split at its last newline: the complete lines, and a final line without
 * its newline (an interrupted append: docs/TRACKER.md "What reaches the disk when"), which is no
 * part of the chain until the next write completes it or cuts it off.
 */
export function splitInterruptedAppend(text: string): { readonly complete: string; readonly torn: string | undefined } {
  const end = text.lastIndexOf('\n') + 1;
  return end === text.length ? { complete: text, torn: undefined } : { complete: text.slice(0, end), torn: text.slice(end) };
}
