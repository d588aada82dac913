import type { FileSignature } from '../../ports/file-system.js';
import type { IndexedItem } from '../../ports/item-index-store.js';
import type { Item } from './item.js';

/**
 * What the derived index keeps per item (the ItemIndexStore port's record): the fields
 * list/next/search filter and sort on, plus lowercased text for lexical search. Derived from the
 * item file; never the source of truth.
 */
export type IndexEntry = IndexedItem;

export function toIndexEntry(item: Item): IndexEntry {
  return {
    id: item.id,
    title: item.title,
    type: item.type,
    status: item.status,
    priority: item.priority,
    tags: item.tags,
    ...(item.parent ? { parent: item.parent } : {}),
    ...(item.assignee ? { assignee: item.assignee } : {}),
    ...(item.claim ? { claimHolder: item.claim.holder, claimExpiresAt: item.claim.expiresAt } : {}),
    blockedBy: item.blockedBy,
    related: item.related,
    created: item.created,
    updated: item.updated,
    revision: item.revision,
    comments: item.comments.length,
    text: {
      title: item.title.toLowerCase(),
      body: item.body.toLowerCase(),
      comments: item.comments.map((c) => c.text).join('\n').toLowerCase(),
    },
  };
}

/** The summary of an item returned by list, next and search. */
export interface ItemSummary {
  readonly id: string;
  readonly title: string;
  readonly type: string;
  readonly status: string;
  readonly priority: number;
  readonly tags: readonly string[];
  readonly parent?: string;
  /** The parent's title, where the CLI asks for it (`pm list`, `pm ready`, `pm blocked`, `pm tree`: backlog-views.ts); MCP summaries leave it out. */
  readonly parentTitle?: string;
  readonly assignee?: string;
  readonly claimHolder?: string;
  /** True when the claim's lease has run out (readiness.ts markLapsed): next offers the item to others. */
  readonly claimExpired?: boolean;
  readonly blockedBy: readonly string[];
  /** The blockers still holding the item back (not closed or canceled, or missing); see blockers.ts. */
  readonly activeBlockers?: readonly string[];
  readonly updated: string;
  readonly revision: number;
}

export function toSummary(entry: IndexEntry): ItemSummary {
  return {
    id: entry.id,
    title: entry.title,
    type: entry.type,
    status: entry.status,
    priority: entry.priority,
    tags: entry.tags,
    ...(entry.parent ? { parent: entry.parent } : {}),
    ...(entry.assignee ? { assignee: entry.assignee } : {}),
    ...(entry.claimHolder ? { claimHolder: entry.claimHolder } : {}),
    blockedBy: entry.blockedBy,
    updated: entry.updated,
    revision: entry.revision,
  };
}

export function sameSignature(a: FileSignature, b: FileSignature): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.ctimeMs === b.ctimeMs;
}
