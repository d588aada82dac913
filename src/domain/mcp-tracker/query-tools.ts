import { z } from 'zod';
import { TERMINAL_STATUSES } from '../tracker/config.js';
import { LIST_SORTS, type ListResult } from '../tracker/list-query.js';
import type { JsonObject } from '../mcp/wire-types.js';
import { jsonCopy } from '../util/json-copy.js';
import type { Tracker, Unreadable } from '../tracker/tracker.js';
import { toIndexEntry, toSummary } from '../tracker/index-entry.js';
import type { ClaimInput, MutationOptions } from '../tracker/inputs.js';
import type { NextQuery } from '../tracker/next-query.js';
import {
  arraySchema, CLAIM_SCHEMA, enumSchema, IDEMPOTENCY_PROPERTY, idempotencyShape, idSchema, integerSchema, MAX_CURSOR, MAX_SHORT_TEXT, OUTPUT, outputObject, stringListSchema, stringSchema, SUMMARY_SCHEMA,
  zEnum, zId, zInt, zList, zStringList, zText,
} from './json-schemas.js';
import { pageFooter, summaryLine, summaryLines } from './render.js';
import { decodeOffsetCursor, encodeOffsetCursor } from './offset-cursor.js';
import { budgetLine, budgetOmission, fitWithinBudget, OMITTED_SCHEMA, type PmMcpBudgetOmission } from './result-bounds.js';
import { defineTrackerTool, mutationOptions, type PmTrackerToolDeps, type PmTrackerToolResult, requestTracker } from './tool-kit.js';

/**
 * The query tools `pm_next` (which also claims, with claim: true), `pm_list` and `pm_search` over
 * the tracker's derived index. Page sizes are bounded below the tracker's own limits so one
 * call stays token-frugal; `pm_list` pages with the tracker's keyset cursors.
 */

const MAX_FILTER = 10;
const MAX_TAG = 64;

/** Status, type and tag filter fragments built from the tracker's configuration. */
function filters(tracker: Tracker) {
  const { statuses, types } = tracker.config;
  return {
    json: {
      status: arraySchema(enumSchema(statuses), MAX_FILTER),
      type: arraySchema(enumSchema(types), MAX_FILTER),
      tag: stringListSchema(MAX_TAG, 'Items must carry every tag.', MAX_FILTER),
    },
    zod: {
      status: zList(zEnum(statuses), MAX_FILTER).optional(),
      type: zList(zEnum(types), MAX_FILTER).optional(),
      tag: zStringList(MAX_TAG, MAX_FILTER).optional(),
    },
  };
}

const SUMMARIES = { type: 'array', items: SUMMARY_SCHEMA };
/** The most unreadable item files one query result names (the count is always given). */
const UNREADABLE_LIMIT = 10;
const UNREADABLE_SCHEMA = { type: 'array', items: outputObject({ id: OUTPUT.str, message: OUTPUT.str }) };
const UNREADABLE_OUTPUT = { unreadable: UNREADABLE_SCHEMA, unreadableTotal: OUTPUT.int };

/**
 * The item files a query left out because they do not parse, as data (bounded, with the total
 * when cut) and as a text line, so a model never reads a short list as the whole tracker.
 */
function leftOut(unreadable: readonly { id: string; message: string }[] | undefined): { data: JsonObject; text: string[] } {
  if (!unreadable?.length) return { data: {}, text: [] };
  const shown = unreadable.slice(0, UNREADABLE_LIMIT).map((u) => ({ ...u }));
  return {
    data: { unreadable: shown, ...(unreadable.length > UNREADABLE_LIMIT ? { unreadableTotal: unreadable.length } : {}) },
    text: [`${unreadable.length} item file(s) could not be read and are left out: ${shown.map((u) => u.id).join(', ')}${unreadable.length > shown.length ? ', ...' : ''} (pm_validate names the problems).`],
  };
}
/** Room for a cursor while a cut page is measured (the real one is known only after the shorter query). */
const CURSOR_ALLOWANCE = 'c'.repeat(160);
/** The most matches the tracker ranks for one search (pm_search pages within them). */
const MAX_SEARCH_RANKED = 200;

/**
 * `pm_next`: the best ready item for the caller (the tracker's one readiness rule), or with
 * `claim: true` claim-next — chosen and claimed in one step under the write lock, so agents
 * asking together get different items (docs/MCP.md "pm_next"). A write tool for that reason.
 */
export function pmNextTool(deps: PmTrackerToolDeps) {
  const f = filters(deps.tracker);
  return defineTrackerTool({
    name: 'pm_next',
    title: 'Next item',
    description: 'The best item for you now (open or claim expired, unblocked, not held by or assigned to others; highest priority, oldest) with the reason and runners-up. claim: true also claims it in one step, no race with other agents: the way to take work.',
    properties: {
      type: f.json.type,
      tag: f.json.tag,
      alternatives: integerSchema(0, 10, 'Runners-up to return (default 3).'),
      claim: { type: 'boolean', description: 'Claim it for you.' },
      leaseMinutes: integerSchema(1, 10080, 'Lease with claim.'),
      leaseSeconds: integerSchema(1, 604800, 'Or in seconds.'),
      ...IDEMPOTENCY_PROPERTY,
    },
    shape: { type: f.zod.type, tag: f.zod.tag, alternatives: zInt(0, 10).optional(), claim: z.boolean().optional(), leaseMinutes: zInt(1, 10080).optional(), leaseSeconds: zInt(1, 604800).optional(), ...idempotencyShape() },
    output: {
      properties: {
        item: OUTPUT.nullable(SUMMARY_SCHEMA),
        rationale: OUTPUT.str,
        alternatives: SUMMARIES,
        counts: outputObject({ open: OUTPUT.int, ready: OUTPUT.int, blocked: OUTPUT.int, claimed: OUTPUT.int, containers: OUTPUT.int }),
        claim: CLAIM_SCHEMA,
        receiptId: OUTPUT.str,
        replayed: OUTPUT.bool,
        ...UNREADABLE_OUTPUT,
      },
      required: ['item', 'rationale', 'alternatives', 'counts'],
    },
    effect: 'write',
    idempotent: false,
    async run({ claim, leaseMinutes, leaseSeconds, idempotencyKey, ...args }, ctx) {
      const assignee = deps.actorOf(ctx);
      const tracker = requestTracker(deps, ctx);
      if (claim) return claimNext(tracker, { ...args, ...(assignee !== undefined ? { assignee } : {}) }, { ...(leaseMinutes !== undefined ? { leaseMinutes } : {}), ...(leaseSeconds !== undefined ? { leaseSeconds } : {}) }, mutationOptions(deps, ctx, { ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) }));
      const { unreadable, ...result } = await tracker.next({ ...args, ...(assignee !== undefined ? { assignee } : {}) });
      const missing = leftOut(unreadable);
      const text = result.item
        ? [`Next: ${summaryLine(result.item)}`, `  why: ${result.rationale}`, ...(result.alternatives.length ? ['Also ready:', ...summaryLines(result.alternatives)] : []), `Take it with pm_next {"claim":true} (or pm_claim {"id":"${result.item.id}"}).`, ...missing.text].join('\n')
        : [`Nothing is ready. ${result.rationale}`, ...missing.text].join('\n');
      return { data: { ...(jsonCopy(result) as JsonObject), ...missing.data }, text };
    },
  });
}

/** pm_next with claim: the claimed item's summary, its lease and receipt, or nothing ready with the counts. */
async function claimNext(tracker: Tracker, query: NextQuery, lease: Pick<ClaimInput, 'leaseMinutes' | 'leaseSeconds'>, options: MutationOptions): Promise<PmTrackerToolResult> {
  const result = await tracker.claimNext(query, lease, options);
  const { item } = result;
  if (!item) return { data: jsonCopy({ item: null, rationale: result.rationale, alternatives: [], counts: result.counts }) as JsonObject, text: `Nothing is ready to claim. ${result.rationale}` };
  const claim = item.claim!;
  const summary = toSummary(toIndexEntry(item));
  const data = jsonCopy({ item: summary, rationale: result.rationale, alternatives: [], counts: result.counts, claim, receiptId: result.receipt?.receiptId, ...(result.replayed ? { replayed: true } : {}) }) as JsonObject;
  const head = result.replayed ? `Replay of idempotency key '${result.receipt?.idempotencyKey ?? ''}': nothing written; you hold` : 'Claimed';
  const takeover = result.receipt?.takeover ? ` (took over from ${result.receipt.takeover.from}, whose lease expired ${result.receipt.takeover.expiredAt})` : '';
  return { data, text: [`${head} ${summaryLine(summary)} until ${claim.expiresAt}${takeover}.`, `  why: ${result.rationale}`].join('\n'), ...(result.warnings ? { warnings: result.warnings } : {}) };
}

export function pmListTool(deps: PmTrackerToolDeps) {
  const f = filters(deps.tracker);
  return defineTrackerTool({
    name: 'pm_list',
    title: 'List items',
    description: 'Lists item summaries with filters, sorted and paged. Closed and canceled items are hidden unless all is true or status names them. Pass nextCursor back as cursor for the next page.',
    properties: {
      status: f.json.status,
      type: f.json.type,
      tag: f.json.tag,
      assignee: stringSchema(MAX_SHORT_TEXT),
      parent: idSchema('Only children of this item.'),
      text: stringSchema(MAX_SHORT_TEXT, 'Case-insensitive substring of title or body.'),
      all: { type: 'boolean', description: 'Include closed and canceled items.' },
      sort: enumSchema(LIST_SORTS, 'Default priority.'),
      order: enumSchema(['asc', 'desc']),
      limit: integerSchema(1, 100, 'Default 20.'),
      cursor: stringSchema(MAX_CURSOR),
    },
    shape: {
      status: f.zod.status,
      type: f.zod.type,
      tag: f.zod.tag,
      assignee: zText(MAX_SHORT_TEXT).optional(),
      parent: zId().optional(),
      text: zText(MAX_SHORT_TEXT).optional(),
      all: z.boolean().optional(),
      sort: z.enum(LIST_SORTS).optional(),
      order: z.enum(['asc', 'desc']).optional(),
      limit: zInt(1, 100).optional(),
      cursor: zText(MAX_CURSOR).optional(),
    },
    output: { properties: { items: SUMMARIES, total: OUTPUT.int, nextCursor: OUTPUT.str, omitted: OMITTED_SCHEMA, ...UNREADABLE_OUTPUT }, required: ['items', 'total'] },
    effect: 'read',
    idempotent: true,
    async run(args, ctx) {
      const query = { ...args, limit: args.limit ?? 20 };
      const hidden = !args.all && !args.status?.length ? ` (${[...TERMINAL_STATUSES].join(' and ')} hidden; all: true shows them)` : '';
      const view = ({ unreadable, ...result }: ListResult & Unreadable, omitted?: PmMcpBudgetOmission) => {
        const missing = leftOut(unreadable);
        return {
          data: { ...(jsonCopy(result) as JsonObject), ...(omitted ? { omitted } : {}), ...missing.data },
          text: [
            ...(result.items.length
              ? [...result.items.map(summaryLine), pageFooter(result.items.length, result.total, result.nextCursor), ...(omitted ? [budgetLine(omitted)] : [])]
              : [result.total > 0 ? 'No more items.' : `No items match${hidden}.`]),
            ...missing.text,
          ].join('\n'),
        };
      };
      const result = await requestTracker(deps, ctx).list(query);
      // A page over the token budget is asked for again with fewer rows, so its cursor continues right after them.
      const omission = (rows: number) => budgetOmission(rows, 'pass nextCursor as cursor for them');
      const fit = fitWithinBudget(result.items.length, (n) =>
        n < result.items.length ? view({ ...result, items: result.items.slice(0, n), nextCursor: CURSOR_ALLOWANCE }, omission(result.items.length - n)) : view(result),
      );
      if (fit.rows >= result.items.length) return fit.result!;
      const shorter = await requestTracker(deps, ctx).list({ ...query, limit: Math.max(1, fit.rows) });
      return view(shorter, omission(result.items.length - shorter.items.length));
    },
  });
}

const HIT_SCHEMA = outputObject(
  { ...(SUMMARY_SCHEMA.properties as Record<string, unknown>), score: { type: 'number' }, matchedIn: OUTPUT.strList, snippet: OUTPUT.str },
);

export function pmSearchTool(deps: PmTrackerToolDeps) {
  const f = filters(deps.tracker);
  return defineTrackerTool({
    name: 'pm_search',
    title: 'Search items',
    description: 'Ranked full-text search over item ids, titles, bodies and comments. Every word must match; if no item has all words, partial matches are returned (mode "any"). Pass nextCursor back as cursor for more.',
    properties: {
      query: stringSchema(MAX_SHORT_TEXT),
      status: f.json.status,
      openOnly: { type: 'boolean', description: 'Leave out closed and canceled items.' },
      limit: integerSchema(1, 50, 'Default 10.'),
      cursor: stringSchema(MAX_CURSOR),
    },
    required: ['query'],
    shape: { query: zText(MAX_SHORT_TEXT), status: f.zod.status, openOnly: z.boolean().optional(), limit: zInt(1, 50).optional(), cursor: zText(MAX_CURSOR).optional() },
    output: {
      properties: { results: { type: 'array', items: HIT_SCHEMA }, total: OUTPUT.int, mode: enumSchema(['all', 'any']), nextCursor: OUTPUT.str, omitted: OMITTED_SCHEMA, ...UNREADABLE_OUTPUT },
      required: ['results', 'total', 'mode'],
    },
    effect: 'read',
    idempotent: true,
    async run({ cursor, limit = 10, ...query }, ctx) {
      // Pages are positions in the ranking of one query (the tracker ranks at most MAX_SEARCH_RANKED).
      const key = { query: query.query, status: query.status ?? [], openOnly: query.openOnly ?? false };
      const offset = cursor === undefined ? 0 : decodeOffsetCursor('pm_search', key, cursor);
      const result = await requestTracker(deps, ctx).search({ ...query, limit: Math.max(1, Math.min(MAX_SEARCH_RANKED, offset + limit)) });
      const hits = result.results.slice(offset);
      const missing = leftOut(result.unreadable);
      const ranked = Math.min(result.total, MAX_SEARCH_RANKED);
      const view = (n: number, omitted?: PmMcpBudgetOmission) => {
        const shown = hits.slice(0, n);
        const nextCursor = offset + n < ranked && n > 0 ? encodeOffsetCursor('pm_search', key, offset + n) : undefined;
        const lines = shown.flatMap((hit) => [`${summaryLine(hit)} (score ${hit.score})`, ...(hit.snippet ? [`    ${hit.snippet}`] : [])]);
        const head = result.mode === 'any' ? ['No item contains every word; partial matches:'] : [];
        const text = [
          ...(shown.length
            ? [...head, ...lines, pageFooter(offset + shown.length, result.total, nextCursor, 'matches'), ...(omitted ? [budgetLine(omitted)] : [])]
            : [offset ? 'No more matches.' : 'No matches.']),
          ...missing.text,
        ].join('\n');
        const data = { results: jsonCopy<unknown>(shown) as JsonObject[], total: result.total, mode: result.mode, ...(nextCursor ? { nextCursor } : {}), ...(omitted ? { omitted } : {}), ...missing.data };
        return { data, text };
      };
      const fit = fitWithinBudget(hits.length, (n) => view(n, n < hits.length ? budgetOmission(hits.length - n, 'pass nextCursor as cursor for them') : undefined));
      // The measured rendering is sent as it is; a page not even one row of fits is sent with that row.
      return fit.result ?? view(1, budgetOmission(hits.length - 1, 'pass nextCursor as cursor for them'));
    },
  });
}
