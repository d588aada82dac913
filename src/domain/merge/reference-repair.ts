import type { FileSystem } from '../../ports/file-system.js';
import type { MergeSides } from '../../ports/merge-sides.js';
import type { DependencyInput, MutationOptions, UpdateInput } from '../tracker/inputs.js';
import { parseItem } from '../tracker/item-codec.js';
import type { Item } from '../tracker/item.js';
import type { MutationResult } from '../tracker/receipt.js';
import type { TrackerPaths } from '../tracker/tracker-paths.js';

/** The item fields that hold ids of other items (docs/TRACKER.md "Item files"). */
export type ReferenceField = 'parent' | 'blockedBy' | 'related';
const REFERENCE_FIELDS: readonly ReferenceField[] = ['parent', 'blockedBy', 'related'];

/** One reference `pm merge fix-ids` pointed at the moved item, with the receipts of the change. */
export interface ReferenceRewrite {
  readonly itemId: string;
  readonly field: ReferenceField;
  readonly receiptIds: readonly string[];
}

/** The tracker operations a rewrite goes through (the normal mutation path: revision guard, history line, index). */
export interface ReferenceWriter {
  update(id: string, input: UpdateInput, options?: MutationOptions): Promise<MutationResult<Item>>;
  addDependency(id: string, input: DependencyInput, options?: MutationOptions): Promise<MutationResult<Item>>;
  removeDependency(id: string, input: DependencyInput, options?: MutationOptions): Promise<MutationResult<Item>>;
}

/** What rewriting references needs: the merge's two sides and the tracker to write through. */
export interface ReferenceRepairPorts {
  readonly sides: MergeSides;
  readonly writer: ReferenceWriter;
}

/** One moved item and the references to its old id, as the rename left them. */
export interface ReferencePlan {
  readonly oldId: string;
  readonly newId: string;
  /** The receipt of the kept item's first history line, and of the moved item's. */
  readonly keptRoot: string;
  readonly movedRoot: string;
  /** Items that referenced the old id when the rename ran. */
  readonly referrers: readonly Item[];
}

/** The outcome for one plan: references rewritten, and items left for a person (ambiguous or refused). */
export interface ReferenceOutcome {
  readonly rewritten: readonly ReferenceRewrite[];
  readonly toReview: readonly string[];
}

/**
 * Points references at the moved item where the merge decides it (docs/TRACKER.md "Merges"):
 * the merge's two sides tell which branch created which item (the side whose history of the id
 * holds the moved item's first line and not the kept one's), and a reference present in the
 * moved item's side's version of the referring item and absent from the other side's came
 * with the moved item. A reference on both sides or neither is ambiguous: it keeps the old id
 * and the item is listed for review, as is every reference when there is no merge to ask
 * (no repository, or HEAD is not a merge) or a rewrite is refused. Each rewrite is a normal
 * mutation by `actor` (`update` for a parent, `deps` add then remove for blockers and related).
 */
export async function rewriteReferences(ports: ReferenceRepairPorts, fs: FileSystem, paths: TrackerPaths, plan: ReferencePlan, actor: string): Promise<ReferenceOutcome> {
  const pending = plan.referrers.flatMap((item) => REFERENCE_FIELDS.filter((field) => holds(item, field, plan.oldId)).map((field) => ({ item, field })));
  if (pending.length === 0) return { rewritten: [], toReview: [] };
  const sides = await movedAndKeptSides(ports.sides, paths, plan);
  const rewritten: ReferenceRewrite[] = [];
  const review = new Set<string>();
  for (const { item, field } of pending) {
    const decided = sides ? await cameWithMoved(ports.sides, fs, paths, sides, item.id, field, plan.oldId) : undefined;
    if (decided === false) continue;
    if (decided === undefined) {
      review.add(item.id);
      continue;
    }
    try {
      rewritten.push({ itemId: item.id, field, receiptIds: await rewrite(ports.writer, item.id, field, plan, actor) });
    } catch {
      review.add(item.id);
    }
  }
  return { rewritten, toReview: [...review].sort() };
}

function holds(item: Item | undefined, field: ReferenceField, id: string): boolean {
  if (!item) return false;
  return field === 'parent' ? item.parent === id : item[field].includes(id);
}

/** [the moved item's side, the kept item's side], or undefined when the merge does not tell them apart. */
async function movedAndKeptSides(sides: MergeSides, paths: TrackerPaths, plan: ReferencePlan): Promise<readonly [string, string] | undefined> {
  const pair = await sides.sidesOf(paths.root);
  if (!pair) return undefined;
  const receipts = await Promise.all(pair.map(async (commit) => receiptsIn(await sides.fileAt(commit, paths.historyFile(plan.oldId)))));
  const only = (i: number, root: string, other: string) => receipts[i]!.has(root) && !receipts[i]!.has(other);
  if (only(0, plan.movedRoot, plan.keptRoot) && only(1, plan.keptRoot, plan.movedRoot)) return [pair[0], pair[1]];
  if (only(1, plan.movedRoot, plan.keptRoot) && only(0, plan.keptRoot, plan.movedRoot)) return [pair[1], pair[0]];
  return undefined;
}

function receiptsIn(history: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const line of (history ?? '').split('\n')) {
    if (!line.trim()) continue;
    try {
      const receipt = (JSON.parse(line) as { receiptId?: unknown }).receiptId;
      if (typeof receipt === 'string') out.add(receipt);
    } catch {
      // A line that does not parse names no receipt.
    }
  }
  return out;
}

/** True: only the moved side's version holds the reference; false: only the kept side's; undefined: both or neither. */
async function cameWithMoved(sides: MergeSides, fs: FileSystem, paths: TrackerPaths, [moved, kept]: readonly [string, string], itemId: string, field: ReferenceField, oldId: string): Promise<boolean | undefined> {
  const [inMoved, inKept] = await Promise.all([moved, kept].map(async (commit) => holds(itemAt(await sides.fileAt(commit, paths.itemFile(itemId)), itemId), field, oldId)));
  return inMoved === inKept ? undefined : inMoved;
}

function itemAt(text: string | undefined, itemId: string): Item | undefined {
  if (text === undefined) return undefined;
  try {
    return parseItem(text, `${itemId}.md`);
  } catch {
    return undefined;
  }
}

async function rewrite(writer: ReferenceWriter, itemId: string, field: ReferenceField, plan: ReferencePlan, actor: string): Promise<string[]> {
  if (field === 'parent') return [(await writer.update(itemId, { parent: plan.newId }, { actor })).receipt.receiptId];
  // The new reference first: when it is refused (a cycle), the old one is still there.
  const added = await writer.addDependency(itemId, { kind: field, target: plan.newId }, { actor });
  const removed = await writer.removeDependency(itemId, { kind: field, target: plan.oldId }, { actor });
  return [added.receipt.receiptId, removed.receipt.receiptId];
}
