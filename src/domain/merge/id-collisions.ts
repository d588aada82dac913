import type { Clock } from '../../ports/clock.js';
import type { FileSystem } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import type { IdSource } from '../../ports/id-source.js';
import type { Locker } from '../../ports/locker.js';
import { readTrackerConfig } from '../tracker/config-file.js';
import { digestOf } from '../tracker/digests.js';
import { HISTORY_FILE_READ, ITEM_FILE_READ } from '../tracker/file-caps.js';
import { encodeHistoryLine, splitInterruptedAppend, verifyHistoryChain, type HistoryEntry } from '../tracker/history.js';
import { HistoryLog } from '../tracker/history-log.js';
import { parseItem, serializeItem } from '../tracker/item-codec.js';
import type { Item } from '../tracker/item.js';
import { applyPatch, diffDocuments } from '../tracker/json-patch.js';
import type { TrackerPaths } from '../tracker/tracker-paths.js';
import { rewriteReferences, type ReferencePlan, type ReferenceRepairPorts, type ReferenceRewrite } from './reference-repair.js';

/** One repaired collision: which item kept the id, which got a new one, what to review. */
export interface IdCollisionRepair {
  readonly itemId: string;
  readonly newId: string;
  /** The moved item's receipts (its lines stay in the old history too; none is dropped). */
  readonly movedReceipts: readonly string[];
  /** Whether replaying the moved item's history reproduced its last recorded file exactly. */
  readonly exact: boolean;
  /** References to the old id the merge shows came with the moved item, now pointing at it. */
  readonly referencesRewritten: readonly ReferenceRewrite[];
  /** Items that reference the old id where the merge does not tell which item they meant (they keep the old id). */
  readonly referencesToReview: readonly string[];
}

export interface IdCollisionPorts {
  readonly fs: FileSystem;
  readonly hasher: Hasher;
  readonly ids: IdSource;
  readonly clock: Clock;
  readonly locker: Locker;
  /** PM_LOCK_TIMEOUT_MS: how long the repair waits for the tracker's write lock (default 10 s, the setting's). */
  readonly lockTimeoutMs?: number;
}

/**
 * Repairs ids two branches created independently (docs/TRACKER.md "Merges"): a merged history
 * with two first lines holds two items. The one created first keeps the id (as the item file
 * merge kept it); the other is rebuilt from its own history lines and written under a fresh id
 * with a first history line (`rename`) naming where it came from. The old history gets a
 * `rename` line naming the detached chain, so it verifies again; no line is dropped.
 * With `references`, references to the old id that the merge shows came with the moved item
 * are then rewritten through the tracker (reference-repair.ts); without, all are listed.
 */
export async function repairIdCollisions(ports: IdCollisionPorts, paths: TrackerPaths, actor: string, references?: ReferenceRepairPorts): Promise<IdCollisionRepair[]> {
  const plans: { repair: Omit<IdCollisionRepair, 'referencesRewritten'>; plan: ReferencePlan }[] = [];
  const release = await ports.locker.acquire(paths.writeLock, { timeoutMs: ports.lockTimeoutMs ?? 10_000 });
  try {
    const prefix = (await readTrackerConfig(ports.fs, paths)).idPrefix;
    const history = new HistoryLog(ports.fs, ports.hasher, paths);
    for (const { name, signature } of await ports.fs.scan(paths.history)) {
      // A link or special node is pm validate's to report; it is neither read nor repaired.
      if (!name.endsWith('.jsonl') || signature.kind) continue;
      const id = name.slice(0, -'.jsonl'.length);
      const { complete, torn } = splitInterruptedAppend((await ports.fs.readText(paths.historyFile(id), HISTORY_FILE_READ)) ?? '');
      const { roots } = verifyHistoryChain(complete, id, (line) => digestOf(ports.hasher, line));
      if (roots.length < 2) continue;
      // A line torn by an interrupted append is settled first, so the rename line is not glued to it.
      if (torn !== undefined) await history.settleTail(id);
      const text = splitInterruptedAppend((await ports.fs.readText(paths.historyFile(id), HISTORY_FILE_READ)) ?? '').complete;
      plans.push(...(await repairOne(ports, paths, id, text, prefix, actor)));
    }
  } finally {
    await release();
  }
  // After the lock is released: each rewrite is a tracker mutation, which takes it itself.
  const repairs: IdCollisionRepair[] = [];
  for (const { repair, plan } of plans) {
    if (!references) {
      repairs.push({ ...repair, referencesRewritten: [] });
      continue;
    }
    const outcome = await rewriteReferences(references, ports.fs, paths, plan, actor);
    repairs.push({ ...repair, referencesRewritten: outcome.rewritten, referencesToReview: outcome.toReview });
  }
  return repairs;
}

async function repairOne(ports: IdCollisionPorts, paths: TrackerPaths, id: string, text: string, prefix: string, actor: string): Promise<{ repair: Omit<IdCollisionRepair, 'referencesRewritten'>; plan: ReferencePlan }[]> {
  const digest = (line: string) => digestOf(ports.hasher, line);
  const lines = text.split('\n').filter(Boolean);
  const owner = new Map<string, number>();
  const chains = new Map<number, { root: string; entries: HistoryEntry[] }>();
  lines.forEach((line, index) => {
    const entry = JSON.parse(line) as HistoryEntry;
    if (entry.op === 'merge' || entry.op === 'rename') return;
    const chain = entry.prev === null ? index : owner.get(entry.prev);
    if (chain === undefined) return;
    owner.set(digest(line), chain);
    if (entry.prev === null) chains.set(index, { root: digest(line), entries: [] });
    chains.get(chain)!.entries.push(entry);
  });
  const detachedAlready = new Set(lines.flatMap((line) => ((JSON.parse(line) as { detached?: { root: string }[] }).detached ?? []).map((d) => d.root)));
  const ordered = [...chains.values()].filter((c) => !detachedAlready.has(c.root)).sort((a, b) => (a.entries[0]!.at < b.entries[0]!.at ? -1 : a.entries[0]!.at > b.entries[0]!.at ? 1 : a.root < b.root ? -1 : 1));
  const moved = ordered.slice(1);
  if (moved.length === 0) return [];
  const now = new Date(ports.clock.now()).toISOString();
  const referrers = await referencing(ports.fs, paths, id);
  const references = referrers.map((item) => item.id);
  const keptRoot = ordered[0]!.entries[0]!.receiptId;
  const repairs: { repair: Omit<IdCollisionRepair, 'referencesRewritten'>; plan: ReferencePlan }[] = [];
  const detached: { root: string; itemId: string }[] = [];
  const written = new WrittenFiles(ports.fs);
  try {
    await writeMoved();
  } catch (error) {
    await written.undo();
    throw error;
  }
  return repairs;

  /** The moved items under their new ids, then the old history's rename line; undone as a whole when a write fails. */
  async function writeMoved(): Promise<void> {
    for (const chain of moved) {
      const newId = await freshId(ports, paths, prefix);
      const { item, exact } = replay(chain.entries, newId, id, ports.hasher);
      const fileText = serializeItem(item);
      const first: HistoryEntry = { receiptId: `rcpt-${ports.ids.randomBase36(12)}`, op: 'rename', itemId: newId, actor, at: now, seq: 1, revisionBefore: null, revisionAfter: item.revision, digestBefore: null, digestAfter: digestOf(ports.hasher, fileText), patch: diffDocuments({}, { ...item }), prev: null, ...{ renamedFrom: id, movedReceipts: chain.entries.map((e) => e.receiptId) } };
      await written.create(paths.historyFile(newId), () => ports.fs.append(paths.historyFile(newId), `${encodeHistoryLine(first)}\n`));
      await written.create(paths.itemFile(newId), () => ports.fs.writeAtomic(paths.itemFile(newId), fileText));
      detached.push({ root: chain.root, itemId: newId });
      repairs.push({
        repair: { itemId: id, newId, movedReceipts: chain.entries.map((e) => e.receiptId), exact, referencesToReview: references },
        plan: { oldId: id, newId, keptRoot, movedRoot: chain.entries[0]!.receiptId, referrers },
      });
    }
    const last = JSON.parse(lines[lines.length - 1]!) as HistoryEntry;
    const current = await ports.fs.readText(paths.itemFile(id), ITEM_FILE_READ);
    const revision = current === undefined ? null : parseItem(current, paths.itemFile(id)).revision;
    const digestNow = current === undefined ? null : digestOf(ports.hasher, current);
    const note: HistoryEntry = { receiptId: `rcpt-${ports.ids.randomBase36(12)}`, op: 'rename', itemId: id, actor, at: now, seq: last.seq + 1, revisionBefore: revision, revisionAfter: revision, digestBefore: digestNow, digestAfter: digestNow, patch: [], prev: digest(lines[lines.length - 1]!), ...{ detached } };
    await written.append(paths.historyFile(id), `${encodeHistoryLine(note)}\n`);
  }
}

/**
 * The files one repair wrote, so a failed write (a full disk) leaves the tracker as it was
 * (docs/TRACKER.md "What reaches the disk when"): files it created are removed, appends are cut
 * back to the size the file had. Removing and cutting back need no free space.
 */
class WrittenFiles {
  private readonly created: string[] = [];
  private readonly appended: { path: string; size: number }[] = [];

  constructor(private readonly fs: FileSystem) {}

  async create(path: string, write: () => Promise<void>): Promise<void> {
    this.created.push(path);
    await write();
  }

  async append(path: string, text: string): Promise<void> {
    this.appended.push({ path, size: (await this.fs.stat(path))?.size ?? 0 });
    await this.fs.append(path, text);
  }

  async undo(): Promise<void> {
    for (const { path, size } of this.appended.reverse()) await this.fs.truncate(path, size).catch(() => undefined);
    for (const path of this.created.reverse()) await this.fs.remove(path).catch(() => undefined);
  }
}

/** The moved item as its own history last recorded it, under its new id. */
function replay(entries: readonly HistoryEntry[], newId: string, oldId: string, hasher: Hasher): { item: Item; exact: boolean } {
  let doc: Record<string, unknown> = {};
  for (const entry of entries) if (entry.patch.length > 0) doc = applyPatch(doc, entry.patch);
  const recorded = doc as unknown as Item;
  const exact = digestOf(hasher, serializeItem(recorded)) === entries[entries.length - 1]!.digestAfter;
  const swap = (ref: string) => (ref === oldId ? newId : ref);
  const item: Item = { ...recorded, id: newId, blockedBy: (recorded.blockedBy ?? []).map(swap), related: (recorded.related ?? []).map(swap), ...(recorded.parent ? { parent: swap(recorded.parent) } : {}) };
  return { item, exact };
}

async function referencing(fs: FileSystem, paths: TrackerPaths, id: string): Promise<Item[]> {
  const out: Item[] = [];
  for (const { name, signature } of await fs.scan(paths.items)) {
    if (!name.endsWith('.md') || name === `${id}.md` || signature.kind) continue;
    try {
      const item = parseItem((await fs.readText(`${paths.items}/${name}`, ITEM_FILE_READ)) ?? '', name);
      if (item.parent === id || item.blockedBy.includes(id) || item.related.includes(id)) out.push(item);
    } catch {
      // A file that does not parse is pm validate's to report.
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

async function freshId(ports: IdCollisionPorts, paths: TrackerPaths, prefix: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const id = `${prefix}-${ports.ids.randomBase36(attempt < 10 ? 6 : 8)}`;
    if (!(await ports.fs.stat(paths.itemFile(id))) && !(await ports.fs.stat(paths.historyFile(id)))) return id;
  }
  throw new Error('could not allocate a fresh item id after 20 attempts');
}
