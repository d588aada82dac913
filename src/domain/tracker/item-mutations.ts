import { ConflictError, NotFoundError, REMEDY_WORDS, ValidationError, remedyData } from '../errors/index.js';
import { TERMINAL_STATUSES, type TrackerConfig } from './config.js';
import type { ClaimInput, CloseInput, CreateInput, UpdateInput } from './inputs.js';
import { assertItemAgainstConfig, assertRequiredCustomFields, normalizeList } from './item-rules.js';
import type { Item } from './item.js';
import type { MutationContext } from './mutation-engine.js';

/** Pure state transitions of one item. Each returns the proposed next item or throws. */

export function requireItem(current: Item | undefined, id: string): Item {
  if (!current) throw new NotFoundError(`no item ${id}`, { itemId: id });
  return current;
}

export function buildNewItem(input: CreateInput, config: TrackerConfig, ctx: MutationContext): Item {
  const item: Item = {
    id: ctx.itemId,
    title: input.title.trim(),
    type: input.type ?? config.defaults.type,
    status: input.status ?? config.defaults.status,
    priority: input.priority ?? config.defaults.priority,
    tags: normalizeList(input.tags ?? []),
    ...(input.parent ? { parent: input.parent } : {}),
    ...(input.assignee ? { assignee: input.assignee } : {}),
    blockedBy: normalizeList(input.blockedBy ?? []),
    related: normalizeList(input.related ?? []),
    acceptance: normalizeList(input.acceptance ?? []).map((text) => ({ text, done: false })),
    files: normalizeList(input.files ?? []),
    tests: normalizeList(input.tests ?? []),
    custom: { ...(input.custom ?? {}) },
    comments: [],
    created: ctx.now,
    updated: ctx.now,
    revision: 1,
    body: (input.body ?? '').trim(),
  };
  if (TERMINAL_STATUSES.has(item.status)) throw new ValidationError(`a new item cannot start as ${item.status}`, { field: 'status' });
  assertItemAgainstConfig(item, config);
  assertRequiredCustomFields(item.custom, config);
  return item;
}

export function applyUpdate(item: Item, input: UpdateInput, config: TrackerConfig): Item {
  if (input.status !== undefined && TERMINAL_STATUSES.has(input.status) && input.status !== item.status) {
    throw new ValidationError(`use close (with evidence) to set status ${input.status}`, { field: 'status', value: input.status });
  }
  if (input.status !== undefined && TERMINAL_STATUSES.has(item.status) && !TERMINAL_STATUSES.has(input.status)) {
    throw new ValidationError(`${item.id} is ${item.status}; use reopen to work on it again`, { field: 'status', value: input.status });
  }
  let tags = input.tags ? normalizeList(input.tags) : [...item.tags];
  if (input.addTags) tags = normalizeList([...tags, ...input.addTags]);
  if (input.removeTags) tags = tags.filter((t) => !input.removeTags!.includes(t));
  let acceptance = input.acceptance ? normalizeList(input.acceptance).map((text) => ({ text, done: false })) : [...item.acceptance];
  if (input.addAcceptance) acceptance = [...acceptance, ...normalizeList(input.addAcceptance).map((text) => ({ text, done: false }))];
  acceptance = markCriteria(acceptance, input.checkAcceptance, true, item.id);
  acceptance = markCriteria(acceptance, input.uncheckAcceptance, false, item.id);
  const custom: Record<string, string | number | boolean> = { ...item.custom };
  for (const [key, value] of Object.entries(input.custom ?? {})) {
    if (value === null && config.customFields[key]?.required === true) {
      throw new ValidationError(`custom field '${key}' is required (declared required in config.yaml): it can be changed, not removed`, { field: `custom.${key}` });
    }
    if (value === null) delete custom[key];
    else custom[key] = value;
  }
  const next: Item = {
    ...item,
    ...(input.title !== undefined ? { title: input.title.trim() } : {}),
    ...(input.body !== undefined ? { body: input.body.trim() } : {}),
    ...(input.type !== undefined ? { type: input.type } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.priority !== undefined ? { priority: input.priority } : {}),
    tags,
    acceptance,
    files: editList(item.files, input.addFiles, input.removeFiles),
    tests: editList(item.tests, input.addTests, input.removeTests),
    custom,
  };
  setOptional(next, 'parent', input.parent);
  setOptional(next, 'assignee', input.assignee);
  assertItemAgainstConfig(next, config);
  return next;
}

/** Longest lease: seven days, in either unit. */
const MAX_LEASE_SECONDS = 7 * 24 * 60 * 60;

/**
 * A claim's lease length in ms (docs/TRACKER.md "Claims and leases"): `leaseSeconds` (1 s to
 * 7 days) or `leaseMinutes` (1 to 10080), one of them; neither takes `claimLeaseMinutes` from
 * config.yaml.
 */
export function leaseLengthMs(input: Pick<ClaimInput, 'leaseMinutes' | 'leaseSeconds'>, config: Pick<TrackerConfig, 'claimLeaseMinutes'>): number {
  if (input.leaseMinutes !== undefined && input.leaseSeconds !== undefined) throw new ValidationError('give the lease in minutes or in seconds, not both', { field: 'leaseSeconds' });
  if (input.leaseSeconds !== undefined) {
    const seconds = input.leaseSeconds;
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_LEASE_SECONDS) throw new ValidationError(`lease must be 1 to ${MAX_LEASE_SECONDS} seconds, got ${seconds}`, { field: 'leaseSeconds' });
    return seconds * 1000;
  }
  const minutes = input.leaseMinutes ?? config.claimLeaseMinutes;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 10080) throw new ValidationError(`lease must be 1 to 10080 minutes, got ${minutes}`, { field: 'leaseMinutes' });
  return minutes * 60_000;
}

/**
 * Claims an item for `holder` (docs/TRACKER.md "Claims and leases"): status open or draft
 * becomes in_progress, the holder becomes the assignee, and the lease runs its length
 * ({@link leaseLengthMs}) from now. The holder claiming again renews the lease (keeping claimedAt while it is live); taking
 * an expired lease of somebody else is a takeover, noted on the receipt and history line.
 */
export function applyClaim(item: Item, holder: string, input: ClaimInput, config: TrackerConfig, ctx: MutationContext): Item {
  if (TERMINAL_STATUSES.has(item.status)) throw new ConflictError(`${item.id} is ${item.status}; reopen it before claiming`, 'not_claimable', { itemId: item.id, status: item.status });
  const claim = item.claim;
  if (input.renew && claim?.holder !== holder) {
    throw new ConflictError(`${item.id} is ${claim ? `claimed by ${claim.holder}` : 'not claimed'}, not by ${holder}; only the holder renews a lease (claim it instead)`, 'not_held', { itemId: item.id, holder: claim?.holder ?? null });
  }
  if (claim && claim.holder !== holder && claim.expiresAt > ctx.now && !input.force) {
    throw new ConflictError(`${item.id} is claimed by ${claim.holder} until ${claim.expiresAt}; wait for the lease to expire, ask them to release it, or ${REMEDY_WORDS.force}`, 'claimed', { itemId: item.id, holder: claim.holder, expiresAt: claim.expiresAt, ...remedyData('force') });
  }
  const leaseMs = leaseLengthMs(input, config);
  const keepSince = claim && claim.holder === holder && claim.expiresAt > ctx.now;
  if (claim && claim.holder !== holder && claim.expiresAt <= ctx.now) ctx.annotate({ takeover: { from: claim.holder, expiredAt: claim.expiresAt } });
  return {
    ...item,
    status: item.status === 'open' || item.status === 'draft' ? 'in_progress' : item.status,
    assignee: holder,
    claim: { holder, claimedAt: keepSince ? claim.claimedAt : ctx.now, expiresAt: new Date(ctx.nowMs + leaseMs).toISOString() },
  };
}

/**
 * Gives a claimed item back to the pool (docs/TRACKER.md "Claims and leases"): the claim goes,
 * in_progress becomes open, and the assignee goes when it is the holder (the claim made them
 * assignee); an assignment to somebody else stays. Anybody may release an expired claim.
 */
export function applyRelease(item: Item, actor: string, force: boolean | undefined, ctx: MutationContext): Item {
  const claim = item.claim;
  if (!claim) throw new ConflictError(`${item.id} is not claimed`, 'not_claimed', { itemId: item.id });
  if (claim.holder !== actor && claim.expiresAt > ctx.now && !force) {
    throw new ConflictError(`${item.id} is claimed by ${claim.holder}, not ${actor}; ${REMEDY_WORDS.force} to release somebody else's claim`, 'claimed', { itemId: item.id, holder: claim.holder, expiresAt: claim.expiresAt, ...remedyData('force') });
  }
  const { claim: _claim, assignee, ...rest } = item;
  return { ...rest, ...(assignee !== undefined && assignee !== claim.holder ? { assignee } : {}), status: item.status === 'in_progress' ? 'open' : item.status };
}

export function applyClose(item: Item, actor: string, input: CloseInput, ctx: MutationContext): Item {
  const evidence = input.evidence.trim();
  if (!evidence) throw new ValidationError('closing needs evidence: say what shows the work is done (a commit, a test, a link)', { field: 'evidence' });
  const as = input.as ?? 'closed';
  if (TERMINAL_STATUSES.has(item.status)) throw new ConflictError(`${item.id} is already ${item.status}`, 'already_closed', { itemId: item.id, status: item.status });
  const { claim: _claim, ...rest } = item;
  return { ...rest, status: as, closure: { at: ctx.now, by: actor, evidence } };
}

export function applyReopen(item: Item, reason: string | undefined, actor: string, ctx: MutationContext, commentId: string): Item {
  if (!TERMINAL_STATUSES.has(item.status)) throw new ConflictError(`${item.id} is ${item.status}, not closed or canceled`, 'not_closed', { itemId: item.id, status: item.status });
  const { closure: _closure, ...rest } = item;
  const comments = reason?.trim() ? [...item.comments, { id: commentId, author: actor, at: ctx.now, text: `Reopened: ${reason.trim()}` }] : item.comments;
  return { ...rest, status: 'open', comments };
}

function markCriteria(list: Item['acceptance'], indexes: readonly number[] | undefined, done: boolean, id: string): Item['acceptance'] {
  if (!indexes?.length) return list;
  const out = [...list];
  for (const index of indexes) {
    if (!Number.isInteger(index) || index < 1 || index > out.length) {
      throw new ValidationError(`${id} has ${out.length} acceptance criteria; there is no criterion ${index}`, { field: 'acceptance', value: index });
    }
    out[index - 1] = { ...out[index - 1]!, done };
  }
  return out;
}

function editList(list: readonly string[], add: readonly string[] | undefined, remove: readonly string[] | undefined): string[] {
  const added = normalizeList([...list, ...(add ?? [])]);
  return remove ? added.filter((v) => !remove.includes(v)) : added;
}

function setOptional(item: Item, key: 'parent' | 'assignee', value: string | null | undefined): void {
  const record = item as unknown as Record<string, unknown>;
  if (value === null) delete record[key];
  else if (value !== undefined) record[key] = value;
}
