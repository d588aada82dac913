import type { JsonObject } from '../mcp/wire-types.js';
import type { Tracker, TrackerContext } from '../tracker/tracker.js';
import { outputObject, OUTPUT, SUMMARY_SCHEMA } from './json-schemas.js';
import { renderContext } from './render.js';
import { defineTrackerTool, type PmTrackerToolDeps, requestTracker } from './tool-kit.js';

/**
 * `pm_context`: the project snapshot an agent reads first (the same data backs the
 * `pm://context` resource). The tracker's absolute root path is left out: it says
 * nothing useful to a model and would leak the host's file layout over HTTP.
 */

const CLAIM_ROW = outputObject({ id: OUTPUT.str, title: OUTPUT.str, holder: OUTPUT.str, expiresAt: OUTPUT.str });
const COUNTS = { type: 'object', additionalProperties: OUTPUT.int };

/** `structuredContent` members of pm_context (and the body of pm://context). */
export const CONTEXT_PROPERTIES: Record<string, JsonObject> = {
  idPrefix: OUTPUT.str,
  total: OUTPUT.int,
  byStatus: COUNTS,
  byType: COUNTS,
  next: OUTPUT.nullable(SUMMARY_SCHEMA),
  nextRationale: OUTPUT.str,
  claims: { type: 'array', items: CLAIM_ROW },
  expiredClaims: { type: 'array', items: CLAIM_ROW },
  recent: { type: 'array', items: SUMMARY_SCHEMA },
  unreadable: { type: 'array', items: outputObject({ id: OUTPUT.str, message: OUTPUT.str }) },
  claimsTotal: OUTPUT.int,
  unreadableTotal: OUTPUT.int,
};
const CONTEXT_REQUIRED = ['idPrefix', 'total', 'byStatus', 'byType', 'next', 'nextRationale', 'claims', 'recent', 'unreadable'];

/**
 * The most active claims and unreadable files a snapshot lists (docs/DISCOVERY.md "Bounded
 * reads"): a snapshot is read first and often, so it stays small however many items are claimed
 * or broken; `claimsTotal` and `unreadableTotal` appear when the lists are cut, and the text
 * says where the rest is (pm_list, pm_validate).
 */
export const PM_CONTEXT_LIST_LIMIT = 10;

/** The snapshot as JSON data (no root path), its lists bounded. */
export function contextData(context: TrackerContext): PmContextData {
  const { root: _root, ...rest } = context;
  const { claims, unreadable, expiredClaims } = rest;
  // Overriding the lists keeps their place among the members (the bytes of an uncut snapshot do not change).
  return JSON.parse(JSON.stringify({
    ...rest,
    claims: claims.slice(0, PM_CONTEXT_LIST_LIMIT),
    // Only when there are some (undefined drops out): the snapshot stays as small as before while every lease is live.
    expiredClaims: expiredClaims.length ? expiredClaims.slice(0, PM_CONTEXT_LIST_LIMIT) : undefined,
    unreadable: unreadable.slice(0, PM_CONTEXT_LIST_LIMIT),
    ...(claims.length > PM_CONTEXT_LIST_LIMIT ? { claimsTotal: claims.length } : {}),
    ...(unreadable.length > PM_CONTEXT_LIST_LIMIT ? { unreadableTotal: unreadable.length } : {}),
  })) as PmContextData;
}

/** pm_context's data: the snapshot without its root, with totals of the lists it cut. */
export type PmContextData = JsonObject & Omit<TrackerContext, 'root' | 'expiredClaims'> & { readonly expiredClaims?: TrackerContext['expiredClaims']; readonly claimsTotal?: number; readonly unreadableTotal?: number };

/** Reads the snapshot. */
export async function readContext(tracker: Tracker): Promise<PmContextData> {
  return contextData(await tracker.context());
}

export function pmContextTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_context',
    title: 'Project context',
    description: 'Project snapshot: item counts by status and type, the next ready item and why, active claims, recently updated items. Call this first.',
    properties: {},
    shape: {},
    output: { properties: CONTEXT_PROPERTIES, required: CONTEXT_REQUIRED },
    effect: 'read',
    idempotent: true,
    async run(_args, ctx) {
      const data = await readContext(requestTracker(deps, ctx));
      return { data, text: renderContext(data) };
    },
  });
}
