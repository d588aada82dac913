import type { IndexedItem, ItemIndexStore } from '../../ports/item-index-store.js';
import { TERMINAL_STATUSES } from './config.js';
import type { ItemSummary } from './index-entry.js';

/**
 * The one definition of an active blocker, which list, search, context and the readiness of
 * next all follow (the ReadinessQuery of the ItemIndexStore port states it for the index): a
 * blocker holds an item back until it is closed or canceled; one that is missing (deleted,
 * or its file unreadable) still holds it back, since nobody can show it was done
 * (docs/TRACKER.md "Dependencies").
 */
export function isActiveBlocker(blocker: Pick<IndexedItem, 'status'> | undefined): boolean {
  return blocker === undefined || !TERMINAL_STATUSES.has(blocker.status);
}

/** The summaries with `activeBlockers` filled in from the index: the blockers still holding each back. */
export function withActiveBlockers<T extends ItemSummary>(index: Pick<ItemIndexStore, 'getMany'>, summaries: readonly T[]): T[] {
  const ids = [...new Set(summaries.flatMap((s) => s.blockedBy))];
  if (ids.length === 0) return summaries.map((s) => ({ ...s, activeBlockers: [] }));
  const known = new Map(index.getMany(ids).map((entry) => [entry.id, entry]));
  return summaries.map((s) => ({ ...s, activeBlockers: s.blockedBy.filter((id) => isActiveBlocker(known.get(id))) }));
}
