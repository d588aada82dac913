import type { HistoryEntry } from './history.js';
import type { JsonPatchOp } from './json-patch.js';

/** The fields whose links can form a cycle: blockers, and the parent (a one-element list). */
export type CycleField = 'blockedBy' | 'parent';

/** One link of a cycle: `itemId` waits for (blockedBy) or sits under (parent) `target`. */
export interface CycleEdge {
  readonly itemId: string;
  readonly field: CycleField;
  readonly target: string;
  /** When the link last appeared, from the item's history; absent when no history line records it. */
  readonly addedAt?: string;
}

/** A call of an MCP tool that does what a CLI command does (for hosts that drive pm over MCP). */
export interface ToolCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, string | null>>;
}

/** Which link of a cycle to remove, and how, for a person (CLI) and an agent (MCP). */
export interface CycleRepair {
  readonly edge: CycleEdge;
  /**
   * `history`: every link is dated by its item's history and this one appeared last.
   * `unrecorded`: no history line dates this link (an edit outside pm, or an item without history).
   */
  readonly basis: 'history' | 'unrecorded';
  readonly command: string;
  readonly toolCall: ToolCall;
}

/**
 * When each target of `field` last appeared in one item's history (docs/TRACKER.md "Merges":
 * a merge can close a cycle no branch had): the time of the latest line that put the target in
 * the field when the line it continues did not have it. The field is replayed along the chain
 * (`prev`), so lines of merged branches are judged against their own branch; a `merge` line
 * holds what its parents held. Lines that do not parse are skipped.
 */
export function linkAppearances(text: string, field: CycleField, digest: (line: string) => string): Map<string, string> {
  const states = new Map<string, ReadonlySet<string>>();
  const appeared = new Map<string, string>();
  let previous: ReadonlySet<string> = new Set();
  for (const line of text.split('\n')) {
    const entry = parseLine(line);
    if (!entry) continue;
    const before = entry.op === 'merge' && Array.isArray(entry.parents)
      ? new Set(entry.parents.flatMap((parent) => [...(states.get(parent) ?? [])]))
      : entry.prev === null ? new Set<string>() : (states.get(String(entry.prev)) ?? previous);
    const after = applyToField(before, Array.isArray(entry.patch) ? entry.patch : [], field);
    const at = typeof entry.at === 'string' && !Number.isNaN(Date.parse(entry.at)) ? entry.at : undefined;
    for (const target of after) {
      if (before.has(target) || at === undefined) continue;
      const known = appeared.get(target);
      if (known === undefined || Date.parse(at) >= Date.parse(known)) appeared.set(target, at);
    }
    states.set(digest(line), after);
    previous = after;
  }
  return appeared;
}

/**
 * The link to remove to break `cycle` (a node list whose last element repeats the first, as
 * graph.ts findCycles returns it): the link that appeared last by its item's history, since
 * that is the one the newest change (typically a merge of two branches that each added one
 * link) brought in. A link no history dates ranks newest (it was edited in outside pm, after
 * everything recorded). Ties, and several undated links, go to the link latest in the cycle's
 * order, so the choice is stable. `appearances(itemId)` answers linkAppearances for an item.
 */
export function chooseCycleRepair(cycle: readonly string[], field: CycleField, appearances: (itemId: string) => ReadonlyMap<string, string> | undefined): CycleRepair {
  const edges: CycleEdge[] = [];
  for (let i = 0; i + 1 < cycle.length; i++) {
    const itemId = cycle[i]!;
    const target = cycle[i + 1]!;
    const addedAt = appearances(itemId)?.get(target);
    edges.push({ itemId, field, target, ...(addedAt !== undefined ? { addedAt } : {}) });
  }
  const undated = edges.filter((edge) => edge.addedAt === undefined);
  let chosen: CycleEdge;
  if (undated.length > 0) chosen = undated[undated.length - 1]!;
  else chosen = edges.reduce((best, edge) => (Date.parse(edge.addedAt!) >= Date.parse(best.addedAt!) ? edge : best));
  return { edge: chosen, basis: chosen.addedAt === undefined ? 'unrecorded' : 'history', ...repairCommands(chosen) };
}

/**
 * `cycle` (first node repeated at the end) told from `itemId` on, so a finding starts with the
 * link it tells to remove whatever order the ids sort in: `y -> x -> y; remove … y blocked by x`.
 */
export function cycleFrom(cycle: readonly string[], itemId: string): string[] {
  const nodes = cycle.slice(0, -1);
  const at = nodes.indexOf(itemId);
  if (at <= 0) return [...cycle];
  const rotated = [...nodes.slice(at), ...nodes.slice(0, at)];
  return [...rotated, rotated[0]!];
}

/** The finding text for a cycle and its repair, readable from a terminal and by an MCP host. */
export function describeCycleRepair(cycle: readonly string[], repair: CycleRepair): string {
  const { edge } = repair;
  const kind = edge.field === 'blockedBy' ? 'dependency' : 'parent';
  const link = edge.field === 'blockedBy' ? `${edge.itemId} blocked by ${edge.target}` : `${edge.itemId} under parent ${edge.target}`;
  const which = repair.basis === 'history' ? `the newest link, ${link} (added ${edge.addedAt})` : `${link} (no history line records when it was added)`;
  const args = Object.entries(repair.toolCall.arguments).map(([key, value]) => `${key} ${value === null ? 'null' : value}`).join(', ');
  return `${kind} cycle: ${cycle.join(' -> ')}; remove ${which}: ${repair.command} (MCP: ${repair.toolCall.name} with ${args})`;
}

function repairCommands(edge: CycleEdge): { command: string; toolCall: ToolCall } {
  if (edge.field === 'blockedBy') {
    return {
      command: `pm deps remove ${edge.itemId} --blocked-by ${edge.target}`,
      toolCall: { name: 'pm_deps', arguments: { action: 'remove', id: edge.itemId, kind: 'blockedBy', target: edge.target } },
    };
  }
  return { command: `pm update ${edge.itemId} --no-parent`, toolCall: { name: 'pm_update', arguments: { id: edge.itemId, parent: null } } };
}

/** The field's values after a line's patch (diffDocuments' shapes: set, remove, append). */
function applyToField(before: ReadonlySet<string>, patch: readonly JsonPatchOp[], field: CycleField): ReadonlySet<string> {
  let values = before;
  for (const op of patch) {
    if (op.path === `/${field}`) {
      if (op.op === 'remove') values = new Set();
      else values = new Set((Array.isArray(op.value) ? op.value : [op.value]).filter((v): v is string => typeof v === 'string'));
    } else if (op.path === `/${field}/-` && op.op === 'add' && typeof op.value === 'string') {
      values = new Set([...values, op.value]);
    }
  }
  return values;
}

function parseLine(line: string): Partial<HistoryEntry> | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Partial<HistoryEntry>) : undefined;
  } catch {
    return undefined;
  }
}
