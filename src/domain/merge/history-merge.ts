import { encodeHistoryLine, type HistoryEntry } from '../tracker/history.js';

/** What merging two versions of one history file produced. */
export interface HistoryMergeResult {
  /** The merged file (every line of both sides, then a merge line when both added lines). */
  readonly text: string;
  /** The merge line appended, when one was needed (undefined for a fast-forward). */
  readonly mergeLine?: HistoryEntry;
  /** How many lines each side brought that the other did not have. */
  readonly added: { readonly ours: number; readonly theirs: number };
}

/** The actor recorded on merge lines: no person made them, git's merge driver did. */
export const MERGE_ACTOR = 'pm merge';

/**
 * Merges two versions of an append-only history file (docs/TRACKER.md "Merges"): the lines
 * both share at the start are kept once, then what each side appended after them, the side
 * whose first new line is older first (by time, then by text, so which side is "ours" never
 * matters), a line both sides already have kept once. When both sides added lines, a `merge`
 * line joins the two heads: its `parents` name their digests, its seq follows the higher of
 * them, and its revisionAfter is one more than the higher revision (as the merged item file's
 * is). No line of either side is dropped or altered, so every earlier digest still verifies.
 * The merge line is a function of the two heads alone: the same merge made in another clone
 * writes the same bytes.
 */
export function mergeHistories(ours: string, theirs: string, itemId: string, digest: (line: string) => string): HistoryMergeResult {
  const a = linesOf(ours);
  const b = linesOf(theirs);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  const restA = a.slice(common);
  const restB = b.slice(common);
  const inA = new Set(a);
  const inB = new Set(b);
  const newInA = restA.filter((line) => !inB.has(line)).length;
  const newInB = restB.filter((line) => !inA.has(line)).length;
  if (newInB === 0) return { text: textOf(a), added: { ours: newInA, theirs: 0 } };
  if (newInA === 0) return { text: textOf(b), added: { ours: 0, theirs: newInB } };
  const [first, second] = compareRests(restA, restB) <= 0 ? [restA, restB] : [restB, restA];
  const merged = a.slice(0, common);
  const seen = new Set(merged);
  for (const line of [...first, ...second]) {
    if (seen.has(line)) continue;
    seen.add(line);
    merged.push(line);
  }
  const mergeLine = buildMergeLine(itemId, [a[a.length - 1]!, b[b.length - 1]!, merged[merged.length - 1]!], merged[merged.length - 1]!, digest);
  merged.push(encodeHistoryLine(mergeLine));
  return { text: textOf(merged), mergeLine, added: { ours: newInA, theirs: newInB } };
}

function buildMergeLine(itemId: string, headLines: readonly string[], lastLine: string, digest: (line: string) => string): HistoryEntry {
  const parents = [...new Set(headLines.map(digest))].sort();
  const heads = [...new Set(headLines)].map(parseLoosely);
  const at = heads.map((head) => head.at).filter((value): value is string => typeof value === 'string').sort().pop() ?? new Date(0).toISOString();
  const seq = Math.max(0, ...heads.map((head) => (typeof head.seq === 'number' ? head.seq : 0))) + 1;
  const revisions = heads.map((head) => head.revisionAfter).filter((value): value is number => typeof value === 'number');
  const revisionBefore = revisions.length > 0 ? Math.max(...revisions) : null;
  const survives = heads.some((head) => (head.op === 'merge' ? head.revisionAfter !== null : head.digestAfter !== null));
  return {
    receiptId: `rcpt-m${digest(parents.join(' ')).replace(/^sha256:/, '').slice(0, 11)}`,
    op: 'merge',
    itemId,
    actor: MERGE_ACTOR,
    at,
    seq,
    revisionBefore,
    revisionAfter: survives ? (revisionBefore ?? 0) + 1 : null,
    digestBefore: null,
    digestAfter: null,
    patch: [],
    prev: digest(lastLine),
    parents,
  };
}

/** Orders the two sides' new lines by their first line: its time, then its text. */
function compareRests(a: readonly string[], b: readonly string[]): number {
  const atA = String(parseLoosely(a[0]!).at ?? '');
  const atB = String(parseLoosely(b[0]!).at ?? '');
  if (atA !== atB) return atA < atB ? -1 : 1;
  return a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0;
}

/** A history line's fields, or none when the line is not JSON (it is still kept as it is). */
function parseLoosely(line: string): Partial<HistoryEntry> {
  try {
    const value = JSON.parse(line) as unknown;
    return value && typeof value === 'object' ? (value as Partial<HistoryEntry>) : {};
  } catch {
    return {};
  }
}

function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.length > 0);
}

function textOf(lines: readonly string[]): string {
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
