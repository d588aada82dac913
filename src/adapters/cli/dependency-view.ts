import { NotFoundError } from '../../domain/errors/index.js';
import { TERMINAL_STATUSES } from '../../domain/tracker/config.js';
import type { Tracker } from '../../domain/tracker/tracker.js';

/** An item at the other end of a dependency link. */
export interface DependencyRef {
  readonly id: string;
  readonly title: string | null;
  /** 'missing' when the link points at an item that no longer exists (pm validate reports it). */
  readonly status: string;
}

/**
 * What `pm deps <id>` shows: what the item waits for, what waits for it, and what it is
 * related to. The tracker stores one direction on disk (blockedBy), so "blocks" is found by
 * scanning the index for items that list this one as a blocker.
 */
export interface DependencyView {
  readonly id: string;
  readonly title: string;
  readonly status: string;
  readonly blockedBy: DependencyRef[];
  readonly blocks: DependencyRef[];
  readonly related: DependencyRef[];
  /** How many blockers are not closed or canceled yet. */
  readonly openBlockers: number;
}

const PAGE = 500;

/** Gathers the dependency picture of one item (blockers and related resolved to titles). */
export async function buildDependencyView(tracker: Tracker, id: string): Promise<DependencyView> {
  const item = await tracker.get(id);
  const ref = async (other: string): Promise<DependencyRef> => {
    try {
      const found = await tracker.get(other);
      return { id: other, title: found.title, status: found.status };
    } catch (error) {
      if (error instanceof NotFoundError) return { id: other, title: null, status: 'missing' };
      throw error;
    }
  };
  const blockedBy = await Promise.all(item.blockedBy.map(ref));
  const related = await Promise.all(item.related.map(ref));
  const blocks: DependencyRef[] = [];
  let cursor: string | undefined;
  do {
    const page = await tracker.list({ all: true, sort: 'id', limit: PAGE, ...(cursor ? { cursor } : {}) });
    for (const s of page.items) if (s.blockedBy.includes(id)) blocks.push({ id: s.id, title: s.title, status: s.status });
    cursor = page.nextCursor;
  } while (cursor);
  const openBlockers = blockedBy.filter((b) => !TERMINAL_STATUSES.has(b.status)).length;
  return { id: item.id, title: item.title, status: item.status, blockedBy, blocks, related, openBlockers };
}
