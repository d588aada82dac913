import { z } from 'zod';
import type { JsonObject } from '../mcp/wire-types.js';
import type { Item } from '../tracker/item.js';
import { PARSED_ITEMS_LIMIT } from '../tracker/item-store.js';
import { BoundedCache } from '../util/bounded-cache.js';
import { idSchema, integerSchema, ITEM_SCHEMA, MAX_CURSOR, OUTPUT, outputObject, stringSchema, zId, zInt, zText } from './json-schemas.js';
import { decodeOffsetCursor, encodeOffsetCursor } from './offset-cursor.js';
import { budgetLine, budgetOmission, OMITTED_SCHEMA, rowsWithinBudget, type PmMcpBudgetOmission } from './result-bounds.js';
import { renderItem } from './render.js';
import { defineTrackerTool, type PmTrackerToolDeps, requestTracker } from './tool-kit.js';

/**
 * `pm_get` (one whole item) and `pm_history` (its append-only mutation log). Both bound what
 * they return, so one call stays small whatever the item's age: the latest comments and
 * history lines, with totals, and history patches only on request.
 */

/**
 * The item as JSON with only its latest `comments` comments. A shallow copy: the item is plain
 * JSON data, deep-frozen by the tracker, so its fields are shared rather than cloned.
 */
export function itemData(item: Item, comments: number): JsonObject {
  return { ...(item as unknown as JsonObject), comments: comments > 0 ? item.comments.slice(-comments) : [] };
}

/**
 * How many items the pm_get caches below keep: as many as the tracker's item store keeps
 * parsed, since an item the store forgot comes back as a new object (a miss here anyway).
 */
const PM_GET_CACHE_LIMIT = PARSED_ITEMS_LIMIT;

/**
 * The version number given to each recently served item object (see {@link itemVersion}).
 * Keyed by the object, not by its id: one object is one version of the file's content.
 */
export const pmGetItemVersions = new BoundedCache<Item, number>('pm_get item versions', PM_GET_CACHE_LIMIT);
/** The last number handed out; it only grows, so no number is ever handed out twice. */
let lastVersion = 0;

/**
 * A process-unique number for one item object, the key of pm_get's serialized result (its
 * memoKey; the dispatcher keeps results by it for as long as it runs). `Tracker.get` returns
 * the same deep-frozen object while the item file is unchanged and a new one after any change,
 * so equal numbers mean equal content.
 *
 * The numbers come from a counter that is never reset or reused (2^53 numbers outlast any
 * process), and {@link pmGetItemVersions} only remembers which object got which one. So a
 * number stays unique to its object for as long as any key built from it can be looked up:
 * an object the cache forgot, or every object while caches are bypassed, simply gets a new
 * number, which only makes the next result a miss; two different objects can never share one.
 * Numbering by position in the cache, or restarting the count when the cache forgets, could
 * give a new item an old item's number and serve the old item's bytes.
 */
export function itemVersion(item: Item): number {
  let version = pmGetItemVersions.get(item);
  if (version === undefined) {
    version = ++lastVersion;
    pmGetItemVersions.set(item, version);
  }
  return version;
}

/** pm_get's data and text for one item object, for its latest `shown` comment count. */
interface ItemView {
  readonly shown: number;
  readonly expired: boolean;
  readonly data: JsonObject;
  readonly text: string;
}

/** pm_get's data and text of each recently served item object (items are frozen, so a view never goes stale). */
export const pmGetItemViews = new BoundedCache<Item, ItemView>('pm_get item views', PM_GET_CACHE_LIMIT);

/** pm_get's data and text for an item version, kept for its latest `shown`. */
export function itemView(item: Item, shown: number, claimExpired = false): { readonly data: JsonObject; readonly text: string } {
  const known = pmGetItemViews.get(item);
  if (known?.shown === shown && known.expired === claimExpired) return known;
  const view = { shown, expired: claimExpired, data: { item: itemData(item, shown), commentsTotal: item.comments.length, ...(claimExpired ? { claimExpired: true } : {}) }, text: renderItem(item, shown, claimExpired) };
  pmGetItemViews.set(item, view);
  return view;
}

export function pmGetTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_get',
    title: 'Get item',
    description: 'One item in full: fields, description, acceptance criteria, links, claim, closure and the latest comments. Use its revision as expectedRevision when you change it.',
    // x-mcp-header: Streamable HTTP mirrors the id in Mcp-Param-Item-Id, so proxies can route and log by item without
    // reading the body (2026-07-28 `basic/transports/streamable-http`; seed 004 "Transport behavior").
    properties: { id: { ...idSchema(), 'x-mcp-header': 'Item-Id' }, comments: integerSchema(0, 50, 'Latest comments to include (default 10).') },
    required: ['id'],
    shape: { id: zId(), comments: zInt(0, 50).optional() },
    output: { properties: { item: ITEM_SCHEMA, commentsTotal: OUTPUT.int, claimExpired: OUTPUT.bool }, required: ['item', 'commentsTotal'] },
    effect: 'read',
    idempotent: true,
    async run(args, ctx) {
      const item = await requestTracker(deps, ctx).get(args.id);
      // The tracker hands out one frozen object per version of the file: its version number
      // keys the serialized result.
      const expired = requestTracker(deps, ctx).leaseOf(item).state === 'expired';
      const view = itemView(item, args.comments ?? 10, expired);
      return { data: view.data, text: view.text, memoKey: `${itemVersion(item)}${expired ? 'x' : ''}` };
    },
  });
}

/**
 * A patch operation's `value`: any JSON value, spelled out type by type so the schema carries a
 * validation keyword (an empty `{}` schema is flagged by strict checkers such as the MCP
 * Inspector's; docs/MCP.md "Portable schemas").
 */
const ANY_JSON_VALUE: JsonObject = { anyOf: ['string', 'number', 'boolean', 'object', 'array', 'null'].map((type) => ({ type })) };
const PATCH_OP = outputObject({ op: OUTPUT.str, path: OUTPUT.str, value: ANY_JSON_VALUE });
const ENTRY_SCHEMA = outputObject(
  {
    seq: OUTPUT.int, receiptId: OUTPUT.str, op: OUTPUT.str, actor: OUTPUT.str, client: OUTPUT.str, at: OUTPUT.str,
    revisionBefore: OUTPUT.nullable(OUTPUT.int), revisionAfter: OUTPUT.nullable(OUTPUT.int),
    idempotencyKey: OUTPUT.str, patch: { type: 'array', items: PATCH_OP },
    verified: { type: 'boolean' },
  }
);

export function pmHistoryTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_history',
    title: 'Item history',
    description: "An item's append-only change log, oldest first: who changed it, when, how, and each receipt. Works for deleted items too. Pass nextCursor back as cursor for older entries.",
    properties: {
      id: idSchema(),
      limit: integerSchema(1, 100, 'Latest entries to return (default 20).'),
      patches: { type: 'boolean', description: 'Include each change as a JSON Patch.' },
      cursor: stringSchema(MAX_CURSOR),
    },
    required: ['id'],
    shape: { id: zId(), limit: zInt(1, 100).optional(), patches: z.boolean().optional(), cursor: zText(MAX_CURSOR).optional() },
    output: {
      properties: { id: OUTPUT.str, entries: { type: 'array', items: ENTRY_SCHEMA }, total: OUTPUT.int, nextCursor: OUTPUT.str, omitted: OMITTED_SCHEMA },
      required: ['id', 'entries', 'total'],
    },
    effect: 'read',
    idempotent: true,
    async run(args, ctx) {
      const { entries: all, faults } = await requestTracker(deps, ctx).verifiedHistory(args.id);
      const bad = new Set(faults.map((f) => f.line));
      // A page is the latest `limit` entries before a position (the end, or the cursor's), newest kept when the budget cuts.
      const key = { id: args.id, patches: args.patches === true };
      const before = args.cursor === undefined ? all.length : Math.min(all.length, decodeOffsetCursor('pm_history', key, args.cursor));
      const window = all.slice(Math.max(0, before - (args.limit ?? 20)), before).map((e) => ({
        seq: e.seq,
        receiptId: e.receiptId,
        op: e.op,
        actor: e.actor,
        ...(e.client ? { client: e.client } : {}),
        at: e.at,
        revisionBefore: e.revisionBefore,
        revisionAfter: e.revisionAfter,
        ...(e.idempotencyKey ? { idempotencyKey: e.idempotencyKey } : {}),
        ...(args.patches ? { patch: JSON.parse(JSON.stringify(e.patch)) as JsonObject[] } : {}),
        ...(bad.has(e.seq) ? { verified: false } : {}),
      }));
      const warning = faults.length > 0 ? [`The history of ${args.id} does not verify (${faults.map((f) => `line ${f.line}: ${f.problem}`).join('; ')}); lines marked UNVERIFIED cannot be trusted and changes to the item are refused until the history file is restored (run pm_validate).`] : [];
      const view = (n: number, omitted?: PmMcpBudgetOmission) => {
        const entries = window.slice(window.length - n);
        const start = before - entries.length;
        const nextCursor = start > 0 ? encodeOffsetCursor('pm_history', key, start) : undefined;
        const lines = entries.map((e) => `#${e.seq} ${e.at} ${e.actor}${e.client ? ` via ${e.client}` : ''} ${e.op} (revision ${e.revisionBefore ?? '-'} -> ${e.revisionAfter ?? 'deleted'}) ${e.receiptId}${e.verified === false ? ' UNVERIFIED' : ''}`);
        const head = entries.length < all.length ? `History of ${args.id}: latest ${entries.length} of ${all.length} changes` : `History of ${args.id}: ${all.length} changes`;
        const tail = [...(omitted ? [budgetLine(omitted)] : []), ...(nextCursor ? [`Older entries: cursor ${nextCursor}`] : [])];
        return { data: { id: args.id, entries, total: all.length, ...(nextCursor ? { nextCursor } : {}), ...(omitted ? { omitted } : {}) }, text: [head, ...lines, ...warning, ...tail].join('\n') };
      };
      const recovery = args.patches ? 'pass nextCursor as cursor for them, or leave patches out' : 'pass nextCursor as cursor for them';
      const fit = rowsWithinBudget(window.length, (n) => view(n, n < window.length ? budgetOmission(window.length - n, recovery) : undefined));
      return fit >= window.length ? view(window.length) : view(fit, budgetOmission(window.length - fit, recovery));
    },
  });
}
