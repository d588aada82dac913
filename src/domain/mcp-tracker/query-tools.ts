import { z } from 'zod';
import { TERMINAL_STATUSES } from '../tracker/config.js';
import { LIST_SORTS } from '../tracker/list-query.js';
import type { Tracker } from '../tracker/tracker.js';
import {
  arraySchema, enumSchema, idSchema, integerSchema, MAX_CURSOR, MAX_SHORT_TEXT, OUTPUT, outputObject, stringListSchema, stringSchema, SUMMARY_SCHEMA,
  zEnum, zId, zInt, zList, zStringList, zText,
} from './json-schemas.js';
import { pageFooter, summaryLine, summaryLines } from './render.js';
import { defineTrackerTool, type PmTrackerToolDeps } from './tool-kit.js';

/**
 * The read-only query tools `pm_next`, `pm_list` and `pm_search` over
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

export function pmNextTool(deps: PmTrackerToolDeps) {
  const f = filters(deps.tracker);
  return defineTrackerTool({
    name: 'pm_next',
    title: 'Next item',
    description: 'The single best item to work on now (open, unblocked, unclaimed, highest priority, oldest) with the reason, plus runners-up. Items assigned to someone else are skipped.',
    properties: { type: f.json.type, tag: f.json.tag, alternatives: integerSchema(0, 10, 'Runners-up to return (default 3).') },
    shape: { type: f.zod.type, tag: f.zod.tag, alternatives: zInt(0, 10).optional() },
    output: {
      properties: {
        item: OUTPUT.nullable(SUMMARY_SCHEMA),
        rationale: OUTPUT.str,
        alternatives: SUMMARIES,
        counts: outputObject({ open: OUTPUT.int, ready: OUTPUT.int, blocked: OUTPUT.int, claimed: OUTPUT.int, containers: OUTPUT.int }),
      },
      required: ['item', 'rationale', 'alternatives', 'counts'],
    },
    effect: 'read',
    idempotent: true,
    async run(args, ctx) {
      const assignee = deps.actorOf(ctx);
      const result = await deps.tracker.next({ ...args, ...(assignee !== undefined ? { assignee } : {}) });
      const text = result.item
        ? [`Next: ${summaryLine(result.item)}`, `  why: ${result.rationale}`, ...(result.alternatives.length ? ['Also ready:', ...summaryLines(result.alternatives)] : []), `Start it with pm_claim {"id":"${result.item.id}"}.`].join('\n')
        : `Nothing is ready. ${result.rationale}`;
      return { data: JSON.parse(JSON.stringify(result)), text };
    },
  });
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
    output: { properties: { items: SUMMARIES, total: OUTPUT.int, nextCursor: OUTPUT.str }, required: ['items', 'total'] },
    effect: 'read',
    idempotent: true,
    async run(args) {
      const result = await deps.tracker.list({ ...args, limit: args.limit ?? 20 });
      const hidden = !args.all && !args.status?.length ? ` (${[...TERMINAL_STATUSES].join(' and ')} hidden; all: true shows them)` : '';
      const text = result.items.length
        ? [...result.items.map(summaryLine), pageFooter(result.items.length, result.total, result.nextCursor)].join('\n')
        : result.total > 0 ? 'No more items.' : `No items match${hidden}.`;
      return { data: JSON.parse(JSON.stringify(result)), text };
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
    description: 'Ranked full-text search over item ids, titles, bodies and comments. Every word must match; if no item has all words, partial matches are returned (mode "any").',
    properties: {
      query: stringSchema(MAX_SHORT_TEXT),
      status: f.json.status,
      openOnly: { type: 'boolean', description: 'Leave out closed and canceled items.' },
      limit: integerSchema(1, 50, 'Default 10.'),
    },
    required: ['query'],
    shape: { query: zText(MAX_SHORT_TEXT), status: f.zod.status, openOnly: z.boolean().optional(), limit: zInt(1, 50).optional() },
    output: { properties: { results: { type: 'array', items: HIT_SCHEMA }, total: OUTPUT.int, mode: enumSchema(['all', 'any']) }, required: ['results', 'total', 'mode'] },
    effect: 'read',
    idempotent: true,
    async run(args) {
      const result = await deps.tracker.search({ ...args, limit: args.limit ?? 10 });
      const lines = result.results.flatMap((hit) => [`${summaryLine(hit)} (score ${hit.score})`, ...(hit.snippet ? [`    ${hit.snippet}`] : [])]);
      const head = result.mode === 'any' ? ['No item contains every word; partial matches:'] : [];
      const text = result.results.length ? [...head, ...lines, pageFooter(result.results.length, result.total, undefined, 'matches')].join('\n') : 'No matches.';
      return { data: JSON.parse(JSON.stringify(result)), text };
    },
  });
}
