import { z } from 'zod';

const isoTime = z.string().datetime({ offset: true });
const itemId = z.string().regex(/^[a-z][a-z0-9]{0,11}-[0-9a-z]{3,16}$/, 'not a pm item id');

export const claimSchema = z.object({
  holder: z.string().min(1),
  claimedAt: isoTime,
  expiresAt: isoTime,
}).strict();

export const commentSchema = z.object({
  id: z.string().min(1),
  author: z.string().min(1),
  at: isoTime,
  text: z.string().min(1),
}).strict();

export const criterionSchema = z.object({
  text: z.string().min(1),
  done: z.boolean().default(false),
}).strict();

export const closureSchema = z.object({
  at: isoTime,
  by: z.string().min(1),
  evidence: z.string().min(1),
}).strict();

/**
 * Front matter of an item file (`.agents/pm/items/<id>.md`). Optional collections are omitted
 * on disk when empty so files stay short and diffs stay small; parsing restores the defaults.
 */
export const itemFrontMatterSchema = z.object({
  id: itemId,
  title: z.string().min(1).max(500),
  type: z.string().min(1),
  status: z.string().min(1),
  priority: z.number().int().min(0).max(4),
  tags: z.array(z.string().min(1)).default([]),
  parent: itemId.optional(),
  assignee: z.string().min(1).optional(),
  claim: claimSchema.optional(),
  blockedBy: z.array(itemId).default([]),
  related: z.array(itemId).default([]),
  acceptance: z.array(criterionSchema).default([]),
  files: z.array(z.string().min(1)).default([]),
  tests: z.array(z.string().min(1)).default([]),
  custom: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  closure: closureSchema.optional(),
  comments: z.array(commentSchema).default([]),
  created: isoTime,
  updated: isoTime,
  revision: z.number().int().min(1),
}).strict();

export type Claim = z.infer<typeof claimSchema>;
export type Comment = z.infer<typeof commentSchema>;
export type Criterion = z.infer<typeof criterionSchema>;
export type Closure = z.infer<typeof closureSchema>;
export type ItemFrontMatter = z.infer<typeof itemFrontMatterSchema>;

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

export const ITEM_ID_PATTERN = /^[a-z][a-z0-9]{0,11}-[0-9a-z]{3,16}$/;
