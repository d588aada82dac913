import type { JsonObject } from '../mcp/wire-types.js';
import type { Tracker, TrackerContext } from '../tracker/tracker.js';
import { outputObject, OUTPUT, SUMMARY_SCHEMA } from './json-schemas.js';
import { renderContext } from './render.js';
import { defineTrackerTool, type PmTrackerToolDeps } from './tool-kit.js';

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
  recent: { type: 'array', items: SUMMARY_SCHEMA },
  unreadable: { type: 'array', items: outputObject({ id: OUTPUT.str, message: OUTPUT.str }) },
};
const CONTEXT_REQUIRED = ['idPrefix', 'total', 'byStatus', 'byType', 'next', 'nextRationale', 'claims', 'recent', 'unreadable'];

/** The snapshot as JSON data (no root path). */
export function contextData(context: TrackerContext): JsonObject & Omit<TrackerContext, 'root'> {
  const { root: _root, ...rest } = context;
  return JSON.parse(JSON.stringify(rest)) as JsonObject & Omit<TrackerContext, 'root'>;
}

/** Reads the snapshot. */
export async function readContext(tracker: Tracker): Promise<JsonObject & Omit<TrackerContext, 'root'>> {
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
    async run() {
      const data = await readContext(deps.tracker);
      return { data, text: renderContext(data) };
    },
  });
}
