import { ConflictError, ConsentRequiredError, NotFoundError, REMEDY_WORDS, ValidationError, remedyData } from '../errors/index.js';
import { withActiveBlockers } from './blockers.js';
import type { ConsentProvider, ConsentRequest } from './consent.js';
import { findPath } from './graph.js';
import { toIndexEntry, toSummary } from './index-entry.js';
import type { ClaimInput, CloseInput, CreateInput, DependencyInput, MutationOptions, ReleaseInput, UpdateInput } from './inputs.js';
import { applyClaim, applyClose, applyRelease, applyReopen, applyUpdate, buildNewItem, requireItem } from './item-mutations.js';
import type { Item } from './item.js';
import { NextChooser, NothingReady, type ClaimNextResult } from './claim-next.js';
import type { NextQuery } from './next-query.js';
import { isAssignedElsewhere, leaseState, readinessFieldsOf } from './readiness.js';
import type { ApplyMutation, MutationRequest } from './mutation-engine.js';
import type { MutationResult } from './receipt.js';
import { assertId, requireIndexed, type TrackerParts } from './tracker-parts.js';

/**
 * The tracker's changes. Each builds the next state of one item from its current one and hands
 * it to the MutationEngine (lock, guards, write-ahead history, receipt; docs/TRACKER.md
 * "Mutations"); the checks that need other items (references, cycles, referrers) read the
 * refreshed index.
 */
export class TrackerMutations {
  constructor(
    private readonly parts: TrackerParts,
    private readonly get: (id: string) => Promise<Item>,
  ) {}

  async create(input: CreateInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    const config = await this.parts.ready();
    return this.mutate({ op: 'create', params: input }, options, async (current, ctx) => {
      if (current) throw new ConflictError(`item ${ctx.itemId} already exists`, 'exists', { itemId: ctx.itemId });
      const item = buildNewItem(input, config, ctx);
      await this.assertReferences(item);
      return item;
    }) as Promise<MutationResult<Item>>;
  }

  async update(id: string, input: UpdateInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    if (Object.values(input).every((v) => v === undefined)) throw new ValidationError('nothing to update: give at least one field to change', {});
    const config = await this.parts.ready();
    const warnings: string[] = [];
    const result = await this.mutateItem(id, 'update', input, options, async (item, ctx) => {
      const claim = item.claim;
      if (claim && claim.holder !== this.actor(options) && claim.expiresAt > ctx.now) {
        this.warnOrRefuse(warnings, options, `${id} is claimed by ${claim.holder} until ${claim.expiresAt}; you are changing their work`, 'claimed', { itemId: id, holder: claim.holder, expiresAt: claim.expiresAt }, 'ask them');
      }
      const next = applyUpdate(item, input, config);
      await this.assertReferences(next, item);
      return next;
    });
    return withWarnings(result, warnings);
  }

  /**
   * Claims an item. Taking over somebody else's live claim (`force`) is destructive to their
   * work and needs consent like a cancel of it (docs/TRACKER.md "Mutations"; the CLI's
   * `--force` is that consent, MCP asks the host).
   */
  async claim(id: string, input: ClaimInput = {}, options: MutationOptions & { consent?: ConsentProvider } = {}): Promise<MutationResult<Item>> {
    const { index, clock } = this.parts;
    const holder = input.holder ?? this.actor(options);
    const config = await this.parts.ready();
    if (input.force) {
      const item = await this.get(id);
      const claim = item.claim;
      if (claim && claim.holder !== holder && claim.expiresAt > new Date(clock.now()).toISOString()) {
        await requireConsent(options.consent, { action: 'take_claim', itemId: id, title: item.title, message: `Take over ${id} "${item.title}", which ${claim.holder} has claimed until ${claim.expiresAt}?` });
      }
    }
    const warnings: string[] = [];
    const result = await this.mutateItem(id, 'claim', { ...input, holder }, options, async (item, ctx) => {
      const next = applyClaim(item, holder, input, config, ctx);
      this.warnIfAssignedElsewhere(warnings, options, item, holder, ctx.now);
      if (item.blockedBy.length > 0) {
        await this.parts.refreshInMutation();
        const [summary] = withActiveBlockers(index, [{ ...toSummary(toIndexEntry(item)) }]);
        const open = summary?.activeBlockers ?? [];
        if (open.length > 0) {
          const named = open.map((ref) => `${ref} (${index.get(ref)?.status ?? 'missing'})`).join(', ');
          this.warnOrRefuse(warnings, options, `${id} is blocked by unfinished work: ${named}`, 'blocked', { itemId: id, blockers: open }, 'finish or close it first');
        }
      }
      return next;
    });
    return withWarnings(result, warnings);
  }

  /**
   * Claim-next (docs/TRACKER.md "Claims and leases"): the best ready item for the holder,
   * chosen and claimed in one hold of the write lock ({@link NextChooser}), so concurrent
   * callers always get different items. Filters apply as for next; idempotency keys as for
   * every mutation (a replay answers the first claim).
   */
  async claimNext(query: NextQuery, input: Omit<ClaimInput, 'force' | 'renew'> = {}, options: MutationOptions = {}): Promise<ClaimNextResult> {
    const holder = input.holder ?? this.actor(options);
    const config = await this.parts.ready();
    const chooser = new NextChooser(this.parts, { ...query, assignee: query.assignee ?? holder });
    try {
      const result = await this.mutate({ op: 'claim', params: { next: query, ...input, holder }, choose: () => chooser.choose() }, options, (current, ctx) => applyClaim(requireItem(current, ctx.itemId), holder, input, config, ctx));
      const item = result.item as Item;
      return { item, receipt: result.receipt, ...(result.replayed ? { replayed: true } : {}), ...(result.warnings ? { warnings: result.warnings } : {}),
        rationale: chooser.rationale ?? `${item.id} was claimed by an earlier request with this idempotency key.`, counts: chooser.counts ?? { open: 0, ready: 0, blocked: 0, claimed: 0, containers: 0 } };
    } catch (error) {
      if (error instanceof NothingReady) return NextChooser.nothing(error.counts);
      throw error;
    }
  }

  async release(id: string, input: ReleaseInput = {}, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    return this.mutateItem(id, 'release', input, options, (item, ctx) => applyRelease(item, this.actor(options), input.force, ctx));
  }

  /**
   * Closes (or cancels) an item with evidence. Canceling an item somebody else holds a live
   * claim on is destructive to their work and needs consent (docs/TRACKER.md "Mutations").
   * Closing one warns, as an update does, and is refused under strict: an agent whose lease
   * ran out and was taken over does not close the new holder's work (docs/TRACKER.md "Claims
   * and leases"). The check runs in the mutation, under the write lock.
   */
  async close(id: string, input: CloseInput, options: MutationOptions & { consent?: ConsentProvider } = {}): Promise<MutationResult<Item>> {
    const actor = this.actor(options);
    if (input.as === 'canceled') {
      const item = await this.get(id);
      const claim = item.claim;
      if (claim && claim.holder !== actor && claim.expiresAt > new Date(this.parts.clock.now()).toISOString()) {
        await requireConsent(options.consent, { action: 'cancel_claimed', itemId: id, title: item.title, message: `Cancel ${id} "${item.title}", which ${claim.holder} has claimed until ${claim.expiresAt}?` });
      }
    }
    const warnings: string[] = [];
    const result = await this.mutateItem(id, 'close', input, options, (item, ctx) => {
      const claim = item.claim;
      if (input.as !== 'canceled' && claim && claim.holder !== actor && claim.expiresAt > ctx.now) {
        this.warnOrRefuse(warnings, options, `${id} is claimed by ${claim.holder} until ${claim.expiresAt}; you are closing their work`, 'claimed', { itemId: id, holder: claim.holder, expiresAt: claim.expiresAt }, 'ask them, or close without strict');
      }
      return applyClose(item, actor, input, ctx);
    });
    return withWarnings(result, warnings);
  }

  async reopen(id: string, reason: string | undefined, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    const commentId = `c-${this.parts.ids.randomBase36(8)}`;
    return this.mutateItem(id, 'reopen', { reason: reason ?? null }, options, (item, ctx) => applyReopen(item, reason, this.actor(options), ctx, commentId));
  }

  async comment(id: string, text: string, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    if (!text.trim()) throw new ValidationError('comment text must not be empty', { field: 'text' });
    const commentId = `c-${this.parts.ids.randomBase36(8)}`;
    return this.mutateItem(id, 'comment', { text }, options, (item, ctx) => ({
      ...item,
      comments: [...item.comments, { id: commentId, author: this.actor(options), at: ctx.now, text: text.trim() }],
    }));
  }

  /**
   * Adds a dependency. `blocks` is stored on the target as blockedBy (one direction on disk,
   * so one file changes per mutation); a blocker edge that would close a cycle is refused.
   */
  async addDependency(id: string, input: DependencyInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    const { index } = this.parts;
    const [holder, other] = input.kind === 'blocks' ? [input.target, id] : [id, input.target];
    const field = input.kind === 'related' ? 'related' : 'blockedBy';
    assertId(other);
    if (holder === other) throw new ValidationError(`${id} cannot depend on itself`, { field: 'target' });
    return this.mutateItem(holder, 'deps', { add: field, other }, options, async (item) => {
      await this.parts.refreshInMutation();
      requireIndexed(index, other);
      if (field === 'blockedBy') {
        const path = findPath(other, holder, (n) => index.get(n)?.blockedBy ?? []);
        if (path) throw new ConflictError(`adding ${holder} blocked by ${other} would close a cycle: ${[holder, ...path].join(' -> ')}`, 'dependency_cycle', { cycle: [holder, ...path] });
      }
      return item[field].includes(other) ? item : { ...item, [field]: [...item[field], other] };
    });
  }

  async removeDependency(id: string, input: DependencyInput, options: MutationOptions = {}): Promise<MutationResult<Item>> {
    const [holder, other] = input.kind === 'blocks' ? [input.target, id] : [id, input.target];
    const field = input.kind === 'related' ? 'related' : 'blockedBy';
    return this.mutateItem(holder, 'deps', { remove: field, other }, options, (item) => {
      if (!item[field].includes(other)) throw new NotFoundError(`${holder} has no ${field} entry ${other}`, { itemId: holder, field, target: other });
      return { ...item, [field]: item[field].filter((v) => v !== other) };
    });
  }

  /**
   * Deletes an item after explicit consent. Items other items still point at (as parent,
   * blocker or related) are refused with the list of referrers; history is kept, ending in a
   * delete line, and the id is never reused.
   */
  async delete(id: string, options: MutationOptions & { consent?: ConsentProvider } = {}): Promise<MutationResult<null>> {
    const { store, sync, index } = this.parts;
    assertId(id);
    const stored = await store.read(id);
    if (!stored) {
      // Already gone: a replay of an earlier delete (same idempotency key) still returns its receipt.
      if (options.idempotencyKey) return this.mutateItem(id, 'delete', {}, options, () => null) as unknown as Promise<MutationResult<null>>;
      throw new NotFoundError(`no item ${id}`, { itemId: id });
    }
    const item = stored.item;
    const referrers = await sync.query(() => index.referrers(id));
    if (referrers.length) throw new ConflictError(`${id} is still referenced by ${referrers.join(', ')}; remove those links first`, 'referenced', { itemId: id, referrers });
    await requireConsent(options.consent, { action: 'delete', itemId: id, title: item.title, message: `Delete ${id} "${item.title}"? The file is removed; its history is kept.` });
    return this.mutateItem(id, 'delete', {}, options, () => null) as unknown as Promise<MutationResult<null>>;
  }

  /** Settles an item's interrupted writes without a change of its own (`pm validate --fix`). */
  async settleInterrupted(id: string): Promise<void> {
    assertId(id);
    await this.parts.engine.settleInterrupted(id);
  }

  /**
   * Claiming an item assigned to somebody else takes it from them: a warning like update's, a
   * refusal under strict (readiness.ts: an assignment that lapsed with its holder's claim, or
   * one whose holder's live claim was taken with consent, does not count).
   */
  private warnIfAssignedElsewhere(warnings: string[], options: MutationOptions, item: Item, holder: string, now: string): void {
    const fields = readinessFieldsOf(item);
    const lease = leaseState(fields, now);
    if (!isAssignedElsewhere(fields, holder, now) || (lease.state === 'live' && lease.holder === item.assignee)) return;
    this.warnOrRefuse(warnings, options, `${item.id} is assigned to ${item.assignee}; claiming it makes you the assignee instead`, 'assigned_elsewhere', { itemId: item.id, assignee: item.assignee }, 'ask them');
  }

  /**
   * A risky but allowed change: a warning returned with the result, or under strict (the
   * option, else `strict` in config.yaml) a refusal with the same words and how to proceed.
   */
  private warnOrRefuse(warnings: string[], options: MutationOptions, message: string, reason: string, data: Record<string, unknown>, proceed: string): void {
    if (options.strict ?? this.parts.config().strict) throw new ConflictError(`${message}; ${proceed}; ${REMEDY_WORDS.strict}`, reason, { ...data, strict: true, ...remedyData('strict') });
    warnings.push(message);
  }

  private actor(options: MutationOptions): string {
    return options.actor ?? this.parts.defaultActor;
  }

  private mutate(partial: Omit<MutationRequest, 'actor' | 'expectedRevision' | 'idempotencyKey'>, options: MutationOptions, apply: ApplyMutation): Promise<MutationResult<Item | null>> {
    const request: MutationRequest = { ...partial, actor: this.actor(options), ...(options.client ? { client: options.client } : {}), ...(options.expectedRevision !== undefined ? { expectedRevision: options.expectedRevision } : {}), ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}) };
    return this.parts.engine.run(request, apply);
  }

  private mutateItem(id: string, op: MutationRequest['op'], params: unknown, options: MutationOptions, apply: (item: Item, ctx: Parameters<ApplyMutation>[1]) => Item | null | Promise<Item | null>): Promise<MutationResult<Item>> {
    assertId(id);
    return this.mutate({ op, itemId: id, params }, options, (current, ctx) => apply(requireItem(current, id), ctx)) as Promise<MutationResult<Item>>;
  }

  /**
   * Checks the references an item gains (a new parent, blockers or related items): they must
   * exist and must not close a cycle. References it already had were checked when they were
   * added, so a change that adds none needs no index at all (an update of a title stays a
   * one-file operation, also at 100k items).
   */
  private async assertReferences(item: Item, before?: Item): Promise<void> {
    const { index } = this.parts;
    const newParent = item.parent !== undefined && item.parent !== before?.parent ? item.parent : undefined;
    const newBlockers = item.blockedBy.filter((ref) => !before?.blockedBy.includes(ref));
    const newRelated = item.related.filter((ref) => !before?.related.includes(ref));
    if (newParent === undefined && newBlockers.length === 0 && newRelated.length === 0) return;
    await this.parts.refreshInMutation();
    if (newParent !== undefined) {
      if (newParent === item.id) throw new ValidationError(`${item.id} cannot be its own parent`, { field: 'parent' });
      requireIndexed(index, newParent);
      const path = findPath(newParent, item.id, (n) => { const p = index.get(n)?.parent; return p ? [p] : []; });
      if (path) throw new ConflictError(`making ${newParent} the parent of ${item.id} would close a cycle: ${[item.id, ...path].join(' -> ')}`, 'parent_cycle', { cycle: [item.id, ...path] });
    }
    for (const ref of [...newBlockers, ...newRelated]) {
      if (ref === item.id) throw new ValidationError(`${item.id} cannot depend on itself`, { field: 'blockedBy' });
      requireIndexed(index, ref);
    }
    for (const ref of newBlockers) {
      const path = findPath(ref, item.id, (n) => index.get(n)?.blockedBy ?? []);
      if (path) throw new ConflictError(`${item.id} blocked by ${ref} would close a cycle: ${[item.id, ...path].join(' -> ')}`, 'dependency_cycle', { cycle: [item.id, ...path] });
    }
  }
}

async function requireConsent(consent: ConsentProvider | undefined, request: ConsentRequest): Promise<void> {
  if (!consent) throw new ConsentRequiredError(`${request.message} ${REMEDY_WORDS.consent}`, { consentRequest: request, ...remedyData('consent') });
  if (!(await consent(request))) throw new ConsentRequiredError(`consent declined: ${request.itemId} was left unchanged`, { consentRequest: request, declined: true });
}

function withWarnings<T>(result: MutationResult<T>, warnings: readonly string[]): MutationResult<T> {
  return warnings.length && !result.replayed ? Object.freeze({ ...result, warnings: Object.freeze([...(result.warnings ?? []), ...warnings]) }) : result;
}
