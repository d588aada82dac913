import { unappliedTail } from './write-batch.js';
import type { FileSignature, FileSystem, OwnFileRead } from '../../ports/file-system.js';
import { periodicYield } from '../util/yield.js';
import type { Hasher } from '../../ports/hasher.js';
import { PmError, RefusedFileError } from '../errors/index.js';
import type { TrackerConfig } from './config.js';
import { digestOf } from './digests.js';
import { HISTORY_FILE_READ, ITEM_FILE_READ, refuseUnlessRegular } from './file-caps.js';
import { chooseCycleRepair, cycleFrom, describeCycleRepair, linkAppearances, type CycleEdge, type CycleField, type ToolCall } from './cycle-repair.js';
import { findCycles } from './graph.js';
import { splitInterruptedAppend, verifyHistoryChain } from './history.js';
import { parseItem } from './item-codec.js';
import { itemLimitProblems } from './field-limits.js';
import { assertItemAgainstConfig } from './item-rules.js';
import { ITEM_ID_PATTERN, type Item } from './item.js';
import type { TrackerPaths } from './tracker-paths.js';

/**
 * How to repair a file git merged as plain text (docs/TRACKER.md "Merges"): with pm's drivers
 * installed, git re-merges it semantically from the three versions it still holds.
 */
export const TEXTUAL_MERGE_REPAIR = "git merged it as plain text. Run 'pm merge install', then, while the merge is in progress, 'git checkout -m -- <file>' re-merges it with pm's driver ('git merge --abort' and merging again also works); after a commit, redo the merge with the drivers installed";

/** Lines git writes around a conflict: `<<<<<<< `, `=======`, `>>>>>>> ` at a line start. */
function hasConflictMarkers(text: string): boolean {
  return /^<{7}( |$)/m.test(text) && /^={7}$/m.test(text) && /^>{7}( |$)/m.test(text);
}

export interface ValidationFinding {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly itemId?: string;
  readonly file?: string;
  /** unmerged_item: every file of the item git merged as plain text (the item file, its history). */
  readonly files?: readonly string[];
  /** 1-based position in `file`, when the problem has one (a YAML error). */
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
  /** dependency_cycle, parent_cycle: the items of the cycle, the first repeated at the end. */
  readonly cycle?: readonly string[];
  /** dependency_cycle, parent_cycle: the link to remove (docs/TRACKER.md "Merges"). */
  readonly edge?: CycleEdge;
  /** The pm command that repairs the finding, when one command does (a cycle, an id collision). */
  readonly command?: string;
  /** The MCP tool call that does what `command` does, when a tool does. */
  readonly toolCall?: ToolCall;
}

export interface ValidationReport {
  readonly ok: boolean;
  readonly items: number;
  readonly errors: number;
  readonly warnings: number;
  readonly findings: ValidationFinding[];
}

/**
 * Checks the whole tracker from the files alone (never from the index): every item parses
 * and fits config.yaml, references resolve, blockers and parents have no cycles, and every
 * history chain is intact and agrees with its item file. Tampering is named by file and line.
 */
export async function validateTracker(fs: FileSystem, hasher: Hasher, paths: TrackerPaths, config: TrackerConfig): Promise<ValidationReport> {
  const findings: ValidationFinding[] = [];
  const add = (f: ValidationFinding) => findings.push(f);
  const items = new Map<string, { item: Item; digest: string }>();
  /** Item files that exist but do not parse: reported once, never as missing or dangling. */
  const unreadable = new Set<string>();
  const pause = periodicYield();
  const strays: string[] = [];
  for (const { name, signature } of await fs.scan(paths.items)) {
    await pause();
    const file = `${paths.items}/${name}`;
    const id = name.replace(/\.md$/, '');
    if (!name.endsWith('.md') || !ITEM_ID_PATTERN.test(id)) {
      // A directory not named like an item is the user's (pm neither reads nor reports it).
      if (signature.kind === 'directory') continue;
      if (signature.kind) refusedFinding(file, signature, add);
      else strays.push(name);
      continue;
    }
    const text = await readOwn(fs, file, id, signature, ITEM_FILE_READ, add);
    if (text === undefined) {
      unreadable.add(id);
      continue;
    }
    const marked = hasConflictMarkers(text);
    try {
      const item = parseItem(text, file);
      if (marked) add({ severity: 'error', code: 'unresolved_conflict', itemId: id, file, message: `${file}: the body holds conflict markers (both branches edited the same lines); edit the body, keep what is right, remove the markers` });
      if (item.id !== id) add({ severity: 'error', code: 'id_mismatch', itemId: id, file, message: `${file} declares id ${item.id}; the file name says ${id}` });
      assertItemAgainstConfig(item, config);
      for (const problem of itemLimitProblems(item)) {
        add({ severity: 'error', code: 'field_limit', itemId: id, file, message: `${file}: ${problem.message}; pm reads the item, but writes only text within the limits: fix it with pm update (or pm edit)` });
      }
      items.set(id, { item, digest: digestOf(hasher, text) });
    } catch (error) {
      if (marked) {
        // The file is there, only unmerged: never again reported as missing or as a dangling link.
        unreadable.add(id);
        add({ severity: 'error', code: 'unmerged_item', itemId: id, file, message: `${file} holds git conflict markers: ${TEXTUAL_MERGE_REPAIR}` });
        continue;
      }
      const message = error instanceof PmError ? error.message : String(error);
      const invalid = error instanceof PmError && error.reason === 'invalid_input';
      if (!invalid) unreadable.add(id);
      const data = error instanceof PmError ? error.data : {};
      const position = typeof data.line === 'number' && typeof data.column === 'number' ? { line: data.line, column: data.column } : {};
      add({ severity: 'error', code: invalid ? 'invalid_field' : 'corrupt_item', itemId: id, file, ...position, message: invalid ? `${file}: ${message}` : message });
    }
  }
  await reportStrays(fs, paths.items, strays, add);
  const cycles = checkReferences(items, unreadable, add);
  const cyclesAt = findings.length;
  const histories = await checkHistories(fs, hasher, paths, items, unreadable, findings, new Set(cycles.flatMap((c) => c.cycle)));
  findings.splice(cyclesAt, 0, ...cycleFindings(cycles, histories, (line) => digestOf(hasher, line)));
  const errors = findings.filter((f) => f.severity === 'error').length;
  return { ok: errors === 0, items: items.size, errors, warnings: findings.length - errors, findings };
}

/**
 * Reports the files of items/ that are no item file, after removing the temp files of atomic
 * writes whose writer is gone (the file system tells them; docs/TRACKER.md "The derived index":
 * the next check removes them, and validate is a check). A writer killed between its temp file
 * and the rename leaves one, which is no finding once removed.
 */
async function reportStrays(fs: FileSystem, dir: string, strays: readonly string[], add: (f: ValidationFinding) => void): Promise<void> {
  if (strays.length === 0) return;
  const removed = new Set(await fs.removeAbandonedTemps?.(dir, strays) ?? []);
  for (const name of strays) {
    if (!removed.has(name)) add({ severity: 'warning', code: 'stray_file', file: `${dir}/${name}`, message: `${dir}/${name} is not an item file (<id>.md); pm ignores it` });
  }
}

interface FoundCycle {
  readonly field: CycleField;
  readonly cycle: string[];
}

/** Adds the findings of dangling and self references; returns the cycles, whose findings need the histories. */
function checkReferences(items: Map<string, { item: Item }>, unreadable: ReadonlySet<string>, add: (f: ValidationFinding) => void): FoundCycle[] {
  const exists = (id: string) => items.has(id) || unreadable.has(id);
  for (const { item } of items.values()) {
    if (item.parent && !exists(item.parent)) add({ severity: 'error', code: 'dangling_parent', itemId: item.id, message: `${item.id} has parent ${item.parent}, which does not exist` });
    if (item.parent === item.id) add({ severity: 'error', code: 'parent_cycle', itemId: item.id, message: `${item.id} is its own parent` });
    for (const field of ['blockedBy', 'related'] as const) {
      for (const ref of item[field]) {
        if (ref === item.id) add({ severity: 'error', code: 'self_reference', itemId: item.id, message: `${item.id} lists itself in ${field}` });
        else if (!exists(ref)) add({ severity: 'error', code: 'dangling_dependency', itemId: item.id, message: `${item.id} lists ${ref} in ${field}, which does not exist` });
      }
    }
  }
  const ids = [...items.keys()].sort();
  const blockers = findCycles(ids, (id) => items.get(id)?.item.blockedBy ?? []).filter((cycle) => cycle.length > 2);
  const parents = findCycles(ids, (id) => { const p = items.get(id)?.item.parent; return p && p !== id ? [p] : []; });
  return [...blockers.map((cycle) => ({ field: 'blockedBy' as const, cycle })), ...parents.map((cycle) => ({ field: 'parent' as const, cycle }))];
}

/**
 * One finding per cycle, naming the link to remove and the command that removes it: the link
 * that appeared last by the items' histories (cycle-repair.ts; docs/TRACKER.md "Merges").
 */
function cycleFindings(cycles: readonly FoundCycle[], histories: ReadonlyMap<string, string>, digest: (line: string) => string): ValidationFinding[] {
  const cache = new Map<string, ReadonlyMap<string, string>>();
  return cycles.map(({ field, cycle }) => {
    const appearances = (id: string) => {
      const key = `${field} ${id}`;
      const text = histories.get(id);
      if (text !== undefined && !cache.has(key)) cache.set(key, linkAppearances(text, field, digest));
      return cache.get(key);
    };
    const repair = chooseCycleRepair(cycle, field, appearances);
    const code = field === 'blockedBy' ? 'dependency_cycle' : 'parent_cycle';
    const told = cycleFrom(cycle, repair.edge.itemId);
    return { severity: 'error', code, itemId: told[0], message: describeCycleRepair(told, repair), cycle: told, edge: repair.edge, command: repair.command, toolCall: repair.toolCall };
  });
}

/** Checks every history file; returns the verified text of those `keep` names (the items of a cycle). */
async function checkHistories(fs: FileSystem, hasher: Hasher, paths: TrackerPaths, items: Map<string, { item: Item; digest: string }>, unreadable: ReadonlySet<string>, findings: ValidationFinding[], keep: ReadonlySet<string>): Promise<Map<string, string>> {
  const add = (f: ValidationFinding) => findings.push(f);
  const withHistory = new Set<string>();
  const kept = new Map<string, string>();
  const pause = periodicYield();
  for (const { name, signature } of await fs.scan(paths.history)) {
    await pause();
    const file = `${paths.history}/${name}`;
    if (!name.endsWith('.jsonl')) {
      if (signature.kind && signature.kind !== 'directory') refusedFinding(file, signature, add);
      continue;
    }
    const id = name.slice(0, -'.jsonl'.length);
    withHistory.add(id);
    const read = await readOwn(fs, file, id, signature, HISTORY_FILE_READ, add);
    if (read === undefined) continue;
    const { complete: text, torn } = splitInterruptedAppend(read);
    if (keep.has(id)) kept.set(id, text);
    if (hasConflictMarkers(text)) {
      unmergedHistory(findings, id, file, add);
      continue;
    }
    const { entries, faults, roots } = verifyHistoryChain(text, id, (line) => digestOf(hasher, line));
    if (torn !== undefined) add({ severity: 'warning', code: 'interrupted_append', itemId: id, file, line: lineCount(text) + 1, message: `${file} line ${lineCount(text) + 1}: an append was interrupted before its newline (a full disk, a killed writer); the next pm write to ${id}, or 'pm validate --fix', completes the line when it is whole and cuts it off otherwise` });
    for (const fault of faults) {
      if (roots.length > 1 && roots.includes(fault.line)) add({ severity: 'error', code: 'id_collision', itemId: id, file, message: `${file} line ${fault.line}: two items were created as ${id} on different branches and merged; run 'pm merge fix-ids' to give the later one a new id`, command: 'pm merge fix-ids' });
      else add({ severity: 'error', code: 'history_tampered', itemId: id, file, message: `${file} line ${fault.line}: ${fault.problem}` });
    }
    const last = entries[entries.length - 1];
    const current = items.get(id);
    if (!last || unreadable.has(id)) continue;
    const digest = current?.digest ?? null;
    if (last.digestAfter === digest) continue;
    if (last.op === 'merge') {
      // A merge line cannot know the merged file's bytes; the next pm write records them.
      if (current || entries.some((entry) => entry.op === 'delete')) continue;
    }
    if (last.digestBefore === digest || unappliedTail(entries, digest).length > 0) {
      add({ severity: 'warning', code: 'interrupted_write', itemId: id, file, message: `${id}: the last recorded change (${last.op}, seq ${last.seq}) was interrupted before the item file was written; the next pm write to ${id} completes it` });
    } else if (!current) {
      add({ severity: 'error', code: 'missing_item', itemId: id, file, message: `${id}: the item file is gone but its history does not end with a delete (removed outside pm?)` });
    } else {
      add({ severity: 'warning', code: 'unrecorded_change', itemId: id, message: `${id}: the item file was edited outside pm since history seq ${last.seq}; the next pm write records it as an external edit` });
    }
  }
  for (const id of items.keys()) {
    if (!withHistory.has(id)) add({ severity: 'warning', code: 'untracked_item', itemId: id, message: `${id} has no history yet (created outside pm); the next pm write adopts it` });
  }
  return kept;
}

/**
 * A history git merged as plain text: one finding, and nothing the unmerged state explains
 * (its chain is broken by the markers, its last line need not match the item). When the item
 * file is unmerged too, its finding names both files: one finding per item, one repair
 * (docs/CLI.md "pm validate").
 */
function unmergedHistory(findings: ValidationFinding[], id: string, file: string, add: (f: ValidationFinding) => void): void {
  const at = findings.findIndex((f) => f.code === 'unmerged_item' && f.itemId === id);
  if (at < 0) {
    add({ severity: 'error', code: 'unmerged_history', itemId: id, file, message: `${file} holds git conflict markers: ${TEXTUAL_MERGE_REPAIR}` });
    return;
  }
  const item = findings[at]!;
  findings[at] = { ...item, files: [item.file!, file], message: `${item.file} and ${file} hold git conflict markers: ${TEXTUAL_MERGE_REPAIR}` };
}

/**
 * A tracker file's text read as pm reads it (a regular file, no link, under its cap), or
 * undefined after adding the finding that names why it was refused (docs/TRACKER.md "What pm
 * reads and writes"): `symlink`, `not_a_regular_file` or `file_too_large`.
 */
async function readOwn(fs: FileSystem, file: string, id: string, signature: FileSignature, own: OwnFileRead, add: (f: ValidationFinding) => void): Promise<string | undefined> {
  try {
    refuseUnlessRegular(file, signature);
    return (await fs.readText(file, own)) ?? '';
  } catch (error) {
    if (!(error instanceof RefusedFileError)) throw error;
    add({ severity: 'error', code: findingCode(error), itemId: id, file, message: error.message });
    return undefined;
  }
}

/** The finding for a stray entry that is a link or a special node. */
function refusedFinding(file: string, signature: FileSignature, add: (f: ValidationFinding) => void): void {
  try {
    refuseUnlessRegular(file, signature);
  } catch (error) {
    if (!(error instanceof RefusedFileError)) throw error;
    add({ severity: 'error', code: findingCode(error), file, message: error.message });
  }
}

function findingCode(error: RefusedFileError): string {
  return error.reason === 'too_large' ? 'file_too_large' : error.reason;
}

function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
