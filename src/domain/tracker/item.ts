import { z } from 'zod';
import { lazy } from '../util/lazy.js';

/** The shape of an item id: a project prefix, a dash, a short random part. */
export const ITEM_ID_PATTERN = /^[a-z][a-z0-9]{0,11}-[0-9a-z]{3,16}$/;

/**
 * The zod schemas of an item file's front matter, built on first use (a `pm-mcp` that only
 * answers discovery never parses an item). Optional collections are omitted on disk when empty
 * so files stay short and diffs stay small; parsing restores the defaults.
 */
function buildItemSchemas() {
  const isoTime = z.string().datetime({ offset: true });
  const itemId = z.string().regex(ITEM_ID_PATTERN, 'not a pm item id');
  const claim = z.object({
    holder: z.string().min(1),
    claimedAt: isoTime,
    expiresAt: isoTime,
  }).strict();
  const comment = z.object({
    id: z.string().min(1),
    author: z.string().min(1),
    at: isoTime,
    text: z.string().min(1),
  }).strict();
  const criterion = z.object({
    text: z.string().min(1),
    done: z.boolean().default(false),
  }).strict();
  const closure = z.object({
    at: isoTime,
    by: z.string().min(1),
    evidence: z.string().min(1),
  }).strict();
  const frontMatter = z.object({
    id: itemId,
    // Lenient read: the length limit is a write rule (field-limits.ts); a longer title still reads.
    title: z.string().min(1),
    type: z.string().min(1),
    status: z.string().min(1),
    priority: z.number().int().min(0).max(4),
    tags: z.array(z.string().min(1)).default([]),
    parent: itemId.optional(),
    assignee: z.string().min(1).optional(),
    claim: claim.optional(),
    blockedBy: z.array(itemId).default([]),
    related: z.array(itemId).default([]),
    acceptance: z.array(criterion).default([]),
    files: z.array(z.string().min(1)).default([]),
    tests: z.array(z.string().min(1)).default([]),
    custom: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    closure: closure.optional(),
    comments: z.array(comment).default([]),
    created: isoTime,
    updated: isoTime,
    revision: z.number().int().min(1),
  }).strict();
  return { claim, comment, criterion, closure, frontMatter };
}

type ItemSchemas = ReturnType<typeof buildItemSchemas>;

/** The schemas of an item file (`.agents/pm/items/<id>.md`), built once on first use. */
export const itemSchemas: () => ItemSchemas = lazy(buildItemSchemas);

export type Claim = z.infer<ItemSchemas['claim']>;
export type Comment = z.infer<ItemSchemas['comment']>;
export type Criterion = z.infer<ItemSchemas['criterion']>;
export type Closure = z.infer<ItemSchemas['closure']>;
export type ItemFrontMatter = z.infer<ItemSchemas['frontMatter']>;

/** A work item: front matter plus its Markdown body (the description). */
export interface Item extends ItemFrontMatter {
  readonly body: string;
}

/** Keys in the order they are written to disk (stable order keeps diffs clean). */
export const ITEM_KEY_ORDER: readonly (keyof ItemFrontMatter)[] = [
  'id', 'title', 'type', 'status', 'priority', 'tags', 'parent', 'assignee', 'claim',
  'blockedBy', 'related', 'acceptance', 'files', 'tests', 'custom', 'closure', 'comments',
  'created', 'updated', 'revision',
];

