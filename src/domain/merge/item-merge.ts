import { parseItem, serializeItem } from '../tracker/item-codec.js';
import type { Comment, Criterion, Item } from '../tracker/item.js';
import { mergeKeyed, mergeRecord, mergeSet, mergeValue, type FieldDecision, type Winner } from './field-merge.js';
import { mergeLines, type ConflictStyle } from './line-merge.js';

/** The record of one item merge: what the rules decided where both sides changed a field. */
export interface ItemMergeReceipt {
  readonly itemId: string;
  /** The side whose values won where both sides changed a field, and the rule that chose it. */
  readonly winner: Winner;
  readonly rule: string;
  readonly decisions: readonly FieldDecision[];
  /** Regions of the body both sides changed differently (left between conflict markers). */
  readonly bodyConflicts: number;
  readonly revision: number;
  /**
   * Set when both sides created an item under this id (no common version, different creation
   * times): the file keeps the first-created item and the other is recovered from its history
   * by `pm merge fix-ids`.
   */
  readonly collision?: { readonly kept: Winner };
}

export interface ItemMergeResult {
  readonly text: string;
  /** True when a person must decide: the body has conflict markers (or a side did not parse). */
  readonly conflicted: boolean;
  readonly receipt?: ItemMergeReceipt;
  /** Why the merge fell back to a plain line merge of the whole file, when it did. */
  readonly fallback?: string;
}

const SETS = ['tags', 'blockedBy', 'related', 'files', 'tests'] as const;
const SCALARS = ['title', 'type', 'priority', 'parent', 'assignee', 'claim', 'created'] as const;

/**
 * The three-way, field-level merge of an item file (docs/TRACKER.md "Merges"). A field changed
 * on one side takes that side; changed on both to different values, the side with the later
 * `updated` wins (equal times: the side whose file sorts last), and the receipt records it.
 * Status and closure move together, so a close is never half applied. Tags, dependencies,
 * files and tests are sets: unions with removals honoured. Comments are a union by id in time
 * order, acceptance criteria a union by text. The revision becomes one more than both sides'.
 * The body is merged line by line; only overlapping edits there need a person, and then the
 * conflict markers are in the body alone, so the front matter always parses.
 */
export function mergeItemFiles(baseText: string, oursText: string, theirsText: string, source: string, style: ConflictStyle): ItemMergeResult {
  let ours: Item;
  let theirs: Item;
  let base: Item | undefined;
  try {
    ours = parseItem(oursText, `${source} (ours)`);
    theirs = parseItem(theirsText, `${source} (theirs)`);
    base = baseText.trim() === '' ? undefined : parseItem(baseText, `${source} (base)`);
  } catch (error) {
    const merged = mergeLines(linesOf(baseText), linesOf(oursText), linesOf(theirsText), style);
    return { text: `${merged.lines.join('\n')}\n`, conflicted: true, fallback: (error as Error).message };
  }
  const winner = pickWinner(ours, theirs, oursText, theirsText);
  if (!base && ours.created !== theirs.created) return collision(ours, theirs, oursText, theirsText);
  return mergeItems(base ?? emptyLike(ours), ours, theirs, winner, style);
}

const RULE = 'later updated wins; equal times: the file that sorts last';

function pickWinner(ours: Item, theirs: Item, oursText: string, theirsText: string): Winner {
  if (ours.updated !== theirs.updated) return Date.parse(ours.updated) > Date.parse(theirs.updated) ? 'ours' : 'theirs';
  return oursText >= theirsText ? 'ours' : 'theirs';
}

function mergeItems(base: Item, ours: Item, theirs: Item, winner: Winner, style: ConflictStyle): ItemMergeResult {
  const decisions: FieldDecision[] = [];
  const value = <K extends keyof Item>(key: K) => mergeValue(key, base[key], ours[key], theirs[key], winner, RULE, decisions);
  const lifecycle = mergeValue('status', { status: base.status, closure: base.closure }, { status: ours.status, closure: ours.closure }, { status: theirs.status, closure: theirs.closure }, winner, RULE, decisions);
  const merged: Record<string, unknown> = { id: ours.id, status: lifecycle.status, ...(lifecycle.closure ? { closure: lifecycle.closure } : {}) };
  for (const key of SCALARS) merged[key] = value(key);
  for (const key of SETS) merged[key] = mergeSet(base[key], ours[key], theirs[key]);
  merged.custom = mergeRecord('custom', base.custom, ours.custom, theirs.custom, winner, RULE, decisions);
  merged.comments = mergeKeyed<Comment>('comments', base.comments, ours.comments, theirs.comments, (c) => c.id, byTimeThenId, winner, RULE, decisions);
  const firstIndex = criterionOrder(base.acceptance, ours.acceptance, theirs.acceptance, winner);
  merged.acceptance = mergeKeyed<Criterion>('acceptance', base.acceptance, ours.acceptance, theirs.acceptance, (c) => c.text, (a, b) => firstIndex(a) - firstIndex(b), winner, RULE, decisions);
  merged.updated = Date.parse(ours.updated) >= Date.parse(theirs.updated) ? ours.updated : theirs.updated;
  merged.revision = Math.max(ours.revision, theirs.revision) + 1;
  const body = mergeBody(base.body, ours.body, theirs.body, style);
  merged.body = body.text;
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  const item = merged as unknown as Item;
  return {
    text: serializeItem(item),
    conflicted: body.conflicts > 0,
    receipt: { itemId: ours.id, winner, rule: RULE, decisions, bodyConflicts: body.conflicts, revision: item.revision },
  };
}

function mergeBody(base: string, ours: string, theirs: string, style: ConflictStyle): { text: string; conflicts: number } {
  if (ours === theirs || base === theirs) return { text: ours, conflicts: 0 };
  if (base === ours) return { text: theirs, conflicts: 0 };
  const merged = mergeLines(base === '' ? [] : base.split('\n'), ours === '' ? [] : ours.split('\n'), theirs === '' ? [] : theirs.split('\n'), style);
  return { text: merged.lines.join('\n'), conflicts: merged.conflicts };
}

/** Criteria keep the base's order, then the winner's additions, then the other side's. */
function criterionOrder(base: readonly Criterion[], ours: readonly Criterion[], theirs: readonly Criterion[], winner: Winner): (c: Criterion) => number {
  const order = new Map<string, number>();
  for (const list of [base, winner === 'ours' ? ours : theirs, winner === 'ours' ? theirs : ours]) {
    for (const c of list) if (!order.has(c.text)) order.set(c.text, order.size);
  }
  return (c) => order.get(c.text) ?? order.size;
}

function byTimeThenId(a: Comment, b: Comment): number {
  if (a.at !== b.at) return Date.parse(a.at) - Date.parse(b.at) || (a.at < b.at ? -1 : 1);
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Two items created under one id on two branches: the file keeps the one created first. */
function collision(ours: Item, theirs: Item, oursText: string, theirsText: string): ItemMergeResult {
  const first = ours.created === theirs.created ? (oursText <= theirsText ? 'ours' : 'theirs') : Date.parse(ours.created) < Date.parse(theirs.created) ? 'ours' : 'theirs';
  const kept = first === 'ours' ? ours : theirs;
  return {
    text: first === 'ours' ? oursText : theirsText,
    conflicted: false,
    receipt: { itemId: kept.id, winner: first, rule: 'id collision: the item created first keeps the id', decisions: [], bodyConflicts: 0, revision: kept.revision, collision: { kept: first } },
  };
}

/** The base of two sides that share no common version (both added the file). */
function emptyLike(item: Item): Item {
  return { ...item, title: '', type: '', status: '', priority: -1, tags: [], parent: undefined, assignee: undefined, claim: undefined, blockedBy: [], related: [], acceptance: [], files: [], tests: [], custom: {}, closure: undefined, comments: [], body: '', created: '', updated: '', revision: 0 } as unknown as Item;
}

function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
