import type { FileSystem } from '../../ports/file-system.js';
import type { Locker } from '../../ports/locker.js';
import { IdempotencyConflictError, StaleRevisionError } from '../errors/index.js';
import { canonicalJson, deepFreeze } from '../util/canonical-json.js';
import { digestOf } from './digests.js';
import { assertWritableText } from './field-limits.js';
import type { HistoryEntry } from './history.js';
import { HistoryReconciler, type ReconcileDependencies } from './history-reconciler.js';
import type { IdempotencyLedger } from './idempotency-ledger.js';
import type { IndexSync } from './index-sync.js';
import type { StoredItem } from './item-store.js';
import type { Item } from './item.js';
import { deepEqual, diffDocuments } from './json-patch.js';
import type { ApplyMutation, MutationRequest, ReceiptNote } from './mutation-request.js';
import type { MutationResult, Receipt } from './receipt.js';
import { yieldToEventLoop } from '../util/yield.js';
import { MAX_BATCH, WriteBatch } from './write-batch.js';

export type { ApplyMutation, MutationContext, MutationGuards, MutationRequest, ReceiptNote } from './mutation-request.js';

export interface MutationDependencies extends ReconcileDependencies {
  readonly fs: FileSystem;
  readonly locker: Locker;
  readonly ledger: IdempotencyLedger;
  readonly index: Pick<IndexSync, 'recordItem' | 'recordRemoval' | 'flushRecords' | 'markStale'>;
  readonly idPrefix: string;
  readonly lockTimeoutMs: number;
}

interface QueuedMutation {
  readonly run: () => Promise<MutationResult<Item | null> | Settled>;
  /** The items whose writes this mutation staged in its batch. */
  readonly items: Set<string>;
  readonly resolve: (value: MutationResult<Item | null> | Settled) => void;
  readonly reject: (error: unknown) => void;
}

/** What {@link MutationEngine.settleInterrupted} did to one item. */
export interface Settled {
  readonly itemId: string;
  /** The item's file after settling (undefined: it has none). */
  readonly revision: number | undefined;
}

/** How long one hold of the write lock may last before it is released for other processes (ms). */
const MAX_BATCH_MS = 50;

/**
 * Runs one mutation end to end under the tracker's write lock: idempotency replay, recovery of
 * an interrupted earlier write ({@link HistoryReconciler}), the expectedRevision guard, then write-ahead history, the
 * atomic item write, the derived index and the ledger. The receipt it returns is frozen.
 *
 * Mutations of one process run one at a time, in arrival order. Those that arrive while one
 * runs wait in a queue and run under the same hold of the lock (group commit: at most
 * {@link MAX_BATCH} of them or {@link MAX_BATCH_MS}). Each computes its change from the state
 * the previous ones left (its own history line, revision and receipt); the batch's writes are
 * coalesced per item ({@link WriteBatch}: one append of the item's lines, one replace of its
 * file) and their index records applied in one transaction before the lock is released. No
 * caller is answered before all of that is written, so each is as durable as alone.
 */
export class MutationEngine {
  private readonly queue: QueuedMutation[] = [];
  private draining = false;
  private readonly batch: WriteBatch;
  private readonly reconciler: HistoryReconciler;
  private running: QueuedMutation | undefined;

  constructor(private readonly deps: MutationDependencies) {
    this.batch = new WriteBatch(deps);
    this.reconciler = new HistoryReconciler(deps, this.batch);
  }

  run(request: MutationRequest, apply: ApplyMutation): Promise<MutationResult<Item | null>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ run: () => this.runLocked(request, apply), items: new Set(), resolve: resolve as QueuedMutation['resolve'], reject });
      if (!this.draining) void this.drain();
    });
  }

  /**
   * Settles what interrupted writes left at one item (`pm validate --fix`), under the write lock
   * like a mutation: an interrupted final append is completed or cut off, and history lines whose
   * item file was never written are rolled forward (docs/TRACKER.md "What reaches the disk when").
   * What the next mutation of the item would do first, without a change of its own.
   */
  settleInterrupted(itemId: string): Promise<Settled> {
    return new Promise((resolve, reject) => {
      const run = async (): Promise<Settled> => {
        // What the batch staged so far is written first, so the files are what this settles.
        await this.batch.flush();
        await this.deps.history.settleTail(itemId);
        const last = await this.deps.history.last(itemId);
        // A chain that does not verify, or an edit made outside pm, is not this repair's to record.
        if (!last || (await this.deps.history.faults(itemId)).length > 0) return { itemId, revision: (await this.deps.store.read(itemId).catch(() => undefined))?.item.revision };
        const stored = await this.reconciler.rollForward(itemId);
        return { itemId, revision: stored?.item.revision };
      };
      this.queue.push({ run, items: new Set([itemId]), resolve: resolve as QueuedMutation['resolve'], reject });
      if (!this.draining) void this.drain();
    });
  }

  /**
   * Writes the running batch's staged changes now. A mutation whose checks read the derived
   * index (references, cycles, blockers) calls this first, so the index holds every earlier
   * change of its batch; outside a batch there is nothing to write.
   */
  async settle(): Promise<void> {
    await this.batch.flush();
  }

  /**
   * The running batch's staged items (their state after its earlier mutations, not yet on disk),
   * for a check that reads the state without writing it first (claim-next, claim-next.ts).
   */
  stagedItems(): ReadonlyMap<string, Item | null> {
    return this.batch.stagedItems();
  }

  private async drain(): Promise<void> {
    const { locker, paths, lockTimeoutMs, clock } = this.deps;
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        // Gather: the requests that arrived with this one (read in the same turn of the event
        // loop) join its batch instead of each taking the lock alone.
        await yieldToEventLoop();
        let release: () => Promise<void>;
        try {
          release = await locker.acquire(paths.writeLock, { timeoutMs: lockTimeoutMs });
        } catch (error) {
          // The mutation that waited longest is refused; the others wait for the lock anew.
          this.queue.shift()!.reject(error);
          continue;
        }
        const done: { mutation: QueuedMutation; outcome: { ok: true; value: MutationResult<Item | null> | Settled } | { ok: false; error: unknown } }[] = [];
        try {
          const started = clock.now();
          for (let n = 0; n < MAX_BATCH && this.queue.length > 0 && (n === 0 || clock.now() - started < MAX_BATCH_MS); n++) {
            const mutation = this.queue.shift()!;
            this.running = mutation;
            try {
              done.push({ mutation, outcome: { ok: true, value: await mutation.run() } });
            } catch (error) {
              done.push({ mutation, outcome: { ok: false, error } });
            }
          }
          this.running = undefined;
          await this.batch.flush();
          for (const entry of done) {
            const failed = [...entry.mutation.items].find((id) => this.batch.hasFailed(id));
            if (entry.outcome.ok && failed !== undefined) entry.outcome = { ok: false, error: this.batch.failure(failed) };
          }
          const indexFailure = this.recordInIndex();
          if (indexFailure) {
            for (const entry of done) {
              const value = entry.outcome.ok ? entry.outcome.value : undefined;
              if (value && 'changed' in value && value.changed) entry.outcome = { ok: true, value: withWarning(value, indexFailure) };
            }
          }
        } catch (error) {
          for (const entry of done) if (entry.outcome.ok) entry.outcome = { ok: false, error };
        } finally {
          this.running = undefined;
          this.batch.reset();
          await release();
        }
        for (const { mutation, outcome } of done) {
          if (outcome.ok) mutation.resolve(outcome.value);
          else mutation.reject(outcome.error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Applies the batch's index records. The index is derived: once the files are written the
   * change is done, so a failure here never fails it (docs/TRACKER.md "Mutations"). The index is
   * marked stale instead, and the warning returned says so.
   */
  private recordInIndex(): string | undefined {
    try {
      this.deps.index.flushRecords();
      return undefined;
    } catch (error) {
      this.deps.index.markStale();
      const why = error instanceof Error ? error.message : String(error);
      return `the change is saved, but the derived index could not be updated (${why}); the next query checks every file and brings it up to date`;
    }
  }

  private async runLocked(request: MutationRequest, apply: ApplyMutation): Promise<MutationResult<Item | null>> {
    const { ledger, clock } = this.deps;
    const fingerprint = request.idempotencyKey ? digestOf(this.deps.hasher, canonicalJson({ op: request.op, itemId: request.itemId ?? null, params: request.params })) : undefined;
    if (request.idempotencyKey && fingerprint) {
      const replay = await this.replay(request.actor, request.idempotencyKey, fingerprint);
      if (replay) return replay;
    }
    const itemId = request.itemId ?? (request.choose ? await request.choose() : await this.allocateId());
    if (this.batch.hasFailed(itemId)) throw this.batch.failure(itemId);
    const staged = this.batch.get(itemId);
    // An item staged in this batch was settled, verified and reconciled by its first mutation.
    if ((request.itemId !== undefined || request.choose) && !staged) {
      await this.deps.history.settleTail(itemId);
      await this.reconciler.assertVerified(itemId);
    }
    const current = staged ? (staged.stored ?? undefined) : await this.reconciler.reconcile(itemId, request.actor);
    if (request.expectedRevision !== undefined && current?.item.revision !== request.expectedRevision) {
      throw new StaleRevisionError(
        current ? `${itemId} is at revision ${current.item.revision}, not ${request.expectedRevision}: it changed since you read it; re-read and retry` : `${itemId} does not exist`,
        { itemId, expectedRevision: request.expectedRevision, actualRevision: current?.item.revision ?? null },
      );
    }
    const nowMs = clock.now();
    const now = new Date(nowMs).toISOString();
    let note: ReceiptNote = {};
    const proposed = await apply(current?.item, { now, nowMs, itemId, annotate: (more) => { note = { ...note, ...more }; } });
    if (proposed && current && sameContent(current.item, proposed)) {
      const head = staged ? staged.head.last : await this.deps.history.last(itemId);
      return deepFreeze({ receipt: head ? toReceipt(head) : this.syntheticReceipt(request, current), item: current.item, replayed: false, changed: false });
    }
    const next = proposed ? { ...proposed, revision: (current?.item.revision ?? 0) + 1, updated: now, ...(current ? {} : { created: now }) } : null;
    // Strict write (docs/TRACKER.md "Field limits"): whatever the entry point, nothing written fails pm's own read.
    if (next) assertWritableText(next, current?.item);
    const receiptId = `rcpt-${this.deps.ids.randomBase36(12)}`;
    if (request.idempotencyKey && fingerprint) await ledger.intend(request.actor, request.idempotencyKey, fingerprint, { itemId, receiptId });
    const entry = await this.write(itemId, receiptId, request, current, next, now, fingerprint, note);
    const receipt = toReceipt(entry);
    if (request.idempotencyKey && fingerprint) {
      // The ledger names only receipts that are on disk.
      await this.batch.flush();
      if (this.batch.hasFailed(itemId)) throw this.batch.failure(itemId);
      await this.recordReceipt(request.actor, request.idempotencyKey, fingerprint, receipt);
    }
    return deepFreeze({ receipt, item: next, replayed: false, changed: true });
  }

  /**
   * The first outcome of a key already used by this actor, or undefined when the request must
   * run. A key used for a different request is refused. A key with only an intent (its writer
   * was killed mid-mutation) is settled from the item's history: the receipt is there (the
   * interrupted write is rolled forward and replayed) or it is not (nothing happened).
   */
  private async replay(actor: string, key: string, fingerprint: string): Promise<MutationResult<Item | null> | undefined> {
    const { ledger, store, history } = this.deps;
    const prior = await ledger.find(actor, key);
    if (!prior) return undefined;
    // What a replay reads comes from the files.
    await this.batch.flush();
    if (prior.fingerprint !== fingerprint) {
      const what = prior.receipt ? `${prior.receipt.op} of ${prior.receipt.itemId}` : `a change of ${prior.intent?.itemId}`;
      throw new IdempotencyConflictError(`idempotency key '${key}' was already used for a different request (${what})`, { idempotencyKey: key, receiptId: prior.receipt?.receiptId ?? prior.intent?.receiptId ?? null });
    }
    let receipt = prior.receipt;
    if (!receipt && prior.intent) {
      const written = (await history.read(prior.intent.itemId)).find((entry) => entry.receiptId === prior.intent!.receiptId);
      if (!written) return undefined;
      await this.reconciler.reconcile(prior.intent.itemId, actor);
      receipt = toReceipt(written);
      await this.recordReceipt(actor, key, fingerprint, receipt);
    }
    if (!receipt) return undefined;
    const item = (await store.read(receipt.itemId))?.item ?? null;
    return deepFreeze({ receipt, item, replayed: true, changed: false });
  }

  /**
   * Records a finished receipt under its key. The change is on disk already and must not be
   * reported as failed: when the ledger cannot be written, its intent (written ahead) still lets
   * a retry find the receipt in the item's history.
   */
  private async recordReceipt(actor: string, key: string, fingerprint: string, receipt: Receipt): Promise<void> {
    try {
      await this.deps.ledger.record(actor, key, fingerprint, receipt);
    } catch {
      // The intent stands in for it (see replay).
    }
  }

  private async write(itemId: string, receiptId: string, request: MutationRequest, current: StoredItem | undefined, next: Item | null, now: string, fingerprint: string | undefined, note: ReceiptNote): Promise<HistoryEntry> {
    const { store, hasher } = this.deps;
    const text = next ? store.encode(next) : null;
    const digest = text === null ? null : digestOf(hasher, text);
    this.running?.items.add(itemId);
    return this.batch.stage(itemId, {
      receiptId,
      op: request.op,
      itemId,
      actor: request.actor,
      ...(request.client ? { client: request.client } : {}),
      at: now,
      revisionBefore: current?.item.revision ?? null,
      revisionAfter: next?.revision ?? null,
      digestBefore: current?.digest ?? null,
      digestAfter: digest,
      patch: diffDocuments(current ? { ...current.item } : {}, next ? { ...next } : {}),
      ...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey, fingerprint } : {}),
      ...note,
    }, next && text !== null && digest !== null ? { item: store.asRead(itemId, next, text), text, digest } : null);
  }

  private async allocateId(): Promise<string> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const length = attempt < 10 ? 6 : 8;
      const id = `${this.deps.idPrefix}-${this.deps.ids.randomBase36(length)}`;
      if (!this.batch.get(id) && !(await this.deps.store.exists(id)) && !(await this.deps.history.exists(id))) return id;
    }
    throw new Error('could not allocate a fresh item id after 20 attempts');
  }

  private syntheticReceipt(request: MutationRequest, current: StoredItem): Receipt {
    return { receiptId: 'rcpt-none', op: request.op, itemId: current.item.id, actor: request.actor, ...(request.client ? { client: request.client } : {}), at: current.item.updated, seq: 0, revisionBefore: current.item.revision, revisionAfter: current.item.revision, digestBefore: current.digest, digestAfter: current.digest };
  }
}

function withWarning(result: MutationResult<Item | null>, warning: string): MutationResult<Item | null> {
  return Object.freeze({ ...result, warnings: Object.freeze([...(result.warnings ?? []), warning]) });
}

function sameContent(a: Item, b: Item): boolean {
  return deepEqual({ ...a, updated: '', revision: 0 }, { ...b, updated: '', revision: 0 });
}

function toReceipt(entry: HistoryEntry): Receipt {
  const { patch: _patch, prev: _prev, fingerprint: _fingerprint, ...receipt } = entry;
  return receipt;
}
