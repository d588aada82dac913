import type { FileSignature } from '../../ports/file-system.js';
import type { Item } from './item.js';

/**
 * What the derived index keeps per item: the fields list/next/search filter and sort on, plus
 * lowercased text for lexical search. Derived from the item file; never the source of truth.
 */
export interface IndexEntry {
  readonly id: string;
  readonly title: string;
  readonly type: string;
  readonly status: string;
  readonly priority: number;
  readonly tags: readonly string[];
  readonly parent?: string;
  readonly assignee?: string;
  readonly claimHolder?: string;
  readonly claimExpiresAt?: string;
  readonly blockedBy: readonly string[];
  readonly related: readonly string[];
  readonly created: string;
  readonly updated: string;
  readonly revision: number;
  readonly comments: number;
  readonly text: { readonly title: string; readonly body: string; readonly comments: string };
  readonly sig: FileSignature;
}

export function toIndexEntry(item: Item, sig: FileSignature): IndexEntry {
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
    sig: { size: sig.size, mtimeMs: sig.mtimeMs, ino: sig.ino },
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
  readonly assignee?: string;
  readonly claimHolder?: string;
  readonly blockedBy: readonly string[];
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
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}
