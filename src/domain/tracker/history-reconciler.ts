import type { Clock } from '../../ports/clock.js';
import type { Hasher } from '../../ports/hasher.js';
import type { IdSource } from '../../ports/id-source.js';
import { HistoryUnverifiableError } from '../errors/index.js';
import { digestOf } from './digests.js';
import type { HistoryEntry } from './history.js';
import type { HistoryLog } from './history-log.js';
import type { ItemStore, StoredItem } from './item-store.js';
import type { Item } from './item.js';
import { applyPatch, diffDocuments, type JsonPatchOp } from './json-patch.js';
import type { TrackerPaths } from './tracker-paths.js';
import { unappliedTail, type WriteBatch } from './write-batch.js';

export interface ReconcileDependencies {
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly hasher: Hasher;
  readonly paths: TrackerPaths;
  readonly store: ItemStore;
  readonly history: HistoryLog;
}

/**
 * Brings an item's file and its history chain into agreement before a mutation extends the
 * chain (docs/TRACKER.md "History", "Mutations" step 3): a write interrupted after its
 * write-ahead history lines is rolled forward from their patches, a change made outside pm (an
 * editor, a merge) is recorded as an `external_edit` line, and a chain that does not verify is
 * refused. Runs under the write lock, inside the mutation engine's batch.
 */
export class HistoryReconciler {
  constructor(
    private readonly deps: ReconcileDependencies,
    private readonly batch: Pick<WriteBatch, 'commit'>,
  ) {}

  /**
   * Refuses to extend a history chain that does not verify (the check `pm validate` runs): a
   * change appended to a forged record would lend it the credibility of the lines after it.
   */
  async assertVerified(itemId: string): Promise<void> {
    const faults = await this.deps.history.faults(itemId);
    const first = faults[0];
    if (!first) return;
    const file = this.deps.paths.historyFile(itemId);
    throw new HistoryUnverifiableError(
      `refusing to change ${itemId}: its history does not verify (${file} line ${first.line}: ${first.problem}); nothing was changed. ` +
        `Repair: restore that file from version control (git checkout -- ${file}), then run 'pm validate'`,
      { itemId, file, line: first.line, problem: first.problem, faults: faults.map((f) => ({ ...f })) },
    );
  }

  /**
   * Compares the item file with the last history line. A write interrupted after its history
   * lines (the write-ahead record; one batch appends several) is rolled forward from the
   * recorded patches; a change made outside pm (an editor, a merge) is recorded as an
   * external_edit line so the chain stays an honest account of every state the file had.
   */
  async reconcile(itemId: string, actor: string): Promise<StoredItem | undefined> {
    const { store, history } = this.deps;
    const current = await store.read(itemId);
    const last = await history.last(itemId);
    if (!last) {
      if (current) await this.recordExternal(itemId, actor, undefined, current);
      return current;
    }
    const rolled = await this.completePending(itemId, current, last);
    if (rolled !== false) return rolled;
    await this.recordExternal(itemId, actor, last, current);
    return current;
  }

  /**
   * Rolls an interrupted write forward (`pm validate --fix`): what {@link reconcile} does when the
   * item file lags behind its history's last lines, and nothing else — a change made outside pm
   * is left for the next mutation to record. Returns the item as its file now holds it.
   */
  async rollForward(itemId: string): Promise<StoredItem | undefined> {
    const current = await this.deps.store.read(itemId);
    const last = await this.deps.history.last(itemId);
    if (!last) return current;
    const rolled = await this.completePending(itemId, current, last);
    return rolled === false ? current : rolled;
  }

  /**
   * The item as its history's last line says, when the file holds it or lags behind a run of
   * lines that starts from the file's state (then those lines are applied and the file written);
   * false when the file was changed outside pm.
   */
  private async completePending(itemId: string, current: StoredItem | undefined, last: HistoryEntry): Promise<StoredItem | undefined | false> {
    const { store, history } = this.deps;
    const digest = current?.digest ?? null;
    if (last.digestAfter === digest) return current;
    const pending = last.digestBefore === digest ? [last] : unappliedTail(await history.read(itemId), digest);
    if (pending.length === 0) return false;
    let state: Item | null = current ? current.item : null;
    for (const entry of pending) state = entry.digestAfter === null ? null : (applyPatch(state ? { ...state } : {}, entry.patch) as unknown as Item);
    const text = state ? store.encode(state) : null;
    if (text !== null && digestOf(this.deps.hasher, text) !== last.digestAfter) return false;
    await this.batch.commit(itemId, state, text);
    return store.read(itemId);
  }

  private async recordExternal(itemId: string, actor: string, last: HistoryEntry | undefined, current: StoredItem | undefined): Promise<void> {
    const now = new Date(this.deps.clock.now()).toISOString();
    const patch: JsonPatchOp[] = last ? [] : diffDocuments({}, current ? { ...current.item } : {});
    await this.deps.history.append(itemId, {
      receiptId: `rcpt-${this.deps.ids.randomBase36(12)}`,
      op: 'external_edit',
      itemId,
      actor,
      at: now,
      revisionBefore: last?.revisionAfter ?? null,
      revisionAfter: current?.item.revision ?? null,
      digestBefore: last?.digestAfter ?? null,
      digestAfter: current?.digest ?? null,
      patch,
    });
  }
}
