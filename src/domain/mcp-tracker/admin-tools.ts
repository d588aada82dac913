import { z } from 'zod';
import { explainMcpConsent } from './consent.js';
import type { JsonObject } from '../mcp/wire-types.js';
import { TRACKER_EXPORT_FORMATS, type TrackerExportFormat } from '../tracker/export.js';
import { enumSchema, GUARD_PROPERTIES, guardShape, idSchema, integerSchema, MAX_CURSOR, OUTPUT, outputObject, RECEIPT_SCHEMA, stringSchema, zEnum, zId, zInt, zText } from './json-schemas.js';
import { decodeOffsetCursor, encodeOffsetCursor } from './offset-cursor.js';
import { budgetLine, budgetOmission, OMITTED_SCHEMA, rowsWithinBudget, type PmMcpBudgetOmission } from './result-bounds.js';
import { defineTrackerTool, mutationOptions, type PmTrackerToolDeps, requestTracker } from './tool-kit.js';

/**
 * `pm_delete` and `pm_validate`, both in the full profile only (docs/MCP.md): one destroys an
 * item, the other reads every file, neither belongs in an everyday tool list.
 *
 * pm_delete is the one destructive tool. Consent goes through the domain's ConsentProvider,
 * chosen by the configured {@link PmMcpConsentResolver} (by default MRTR elicitation on the
 * modern path and the explicit `confirm: true` argument on the legacy path; seed 004 "MRTR,
 * tasks, and cache behavior"). Without consent the tracker writes nothing and the tool
 * returns an isError result saying so.
 */

export function pmDeleteTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_delete',
    title: 'Delete item',
    description: 'Deletes an item file for good (its history is kept and the id is never reused). Refused while other items link to it. Needs consent: a 2026-07-28 host is asked to confirm (elicitation); initialize-era clients pass confirm: true. Without consent nothing is deleted and the result says so.',
    properties: { id: idSchema(), confirm: { type: 'boolean', description: 'Explicit consent to delete.' }, ...GUARD_PROPERTIES },
    required: ['id'],
    shape: { id: zId(), confirm: z.boolean().optional(), ...guardShape() },
    output: { properties: { deleted: OUTPUT.str, receipt: RECEIPT_SCHEMA, changed: OUTPUT.bool, replayed: OUTPUT.bool }, required: ['deleted', 'receipt', 'changed', 'replayed'] },
    effect: 'destructive',
    idempotent: true,
    async run({ id, confirm, ...guards }, ctx) {
      const consent = deps.consent({ tool: 'pm_delete', confirm, ctx });
      try {
        const result = await requestTracker(deps, ctx).delete(id, { ...mutationOptions(deps, ctx, guards), ...(consent ? { consent } : {}) });
        const text = result.replayed
          ? `Replay of idempotency key '${result.receipt.idempotencyKey ?? ''}': ${id} was already deleted. First receipt ${result.receipt.receiptId}.`
          : `Deleted ${id}; its history is kept. Receipt ${result.receipt.receiptId}.`;
        return { data: { deleted: id, receipt: { ...result.receipt }, changed: result.changed, replayed: result.replayed }, text };
      } catch (error) {
        throw explainMcpConsent(error, 'pm_delete');
      }
    },
  });
}

/** A cycle's link to remove and the call that removes it (docs/TRACKER.md "Merges"). */
const EDGE = outputObject({ itemId: OUTPUT.str, field: enumSchema(['blockedBy', 'parent']), target: OUTPUT.str, addedAt: OUTPUT.str });
const TOOL_CALL = outputObject({ name: OUTPUT.str, arguments: { type: 'object' } });
const FINDING = outputObject(
  {
    severity: enumSchema(['error', 'warning']), code: OUTPUT.str, itemId: OUTPUT.str, file: OUTPUT.str, line: OUTPUT.int, column: OUTPUT.int, message: OUTPUT.str,
    files: OUTPUT.strList, cycle: OUTPUT.strList, edge: EDGE, command: OUTPUT.str, toolCall: TOOL_CALL,
  },
);

export function pmValidateTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_validate',
    title: 'Validate tracker',
    description: 'Checks the whole tracker from its files: items parse and fit the config, links resolve, no cycles, history hash chains intact. A cycle names the link to remove (edge) and the call that removes it (toolCall). Errors first; pass nextCursor back as cursor for more.',
    properties: { limit: integerSchema(1, 200, 'Findings to return (default 50).'), cursor: stringSchema(MAX_CURSOR) },
    shape: { limit: zInt(1, 200).optional(), cursor: zText(MAX_CURSOR).optional() },
    output: {
      properties: { ok: OUTPUT.bool, items: OUTPUT.int, errorCount: OUTPUT.int, warningCount: OUTPUT.int, findings: { type: 'array', items: FINDING }, findingsTotal: OUTPUT.int, nextCursor: OUTPUT.str, omitted: OMITTED_SCHEMA },
      required: ['ok', 'items', 'errorCount', 'warningCount', 'findings', 'findingsTotal'],
    },
    effect: 'read',
    idempotent: true,
    longRunning: true,
    async run(args, ctx) {
      const report = await requestTracker(deps, ctx).validate();
      const sorted = [...report.findings].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
      const offset = args.cursor === undefined ? 0 : Math.min(sorted.length, decodeOffsetCursor('pm_validate', {}, args.cursor));
      const page = sorted.slice(offset, offset + (args.limit ?? 50));
      const head = report.ok ? `Tracker is valid: ${report.items} items, ${report.warnings} warnings.` : `Tracker has ${report.errors} errors and ${report.warnings} warnings over ${report.items} items.`;
      const view = (n: number, omitted?: PmMcpBudgetOmission) => {
        const findings = page.slice(0, n);
        const end = offset + findings.length;
        const nextCursor = end < sorted.length ? encodeOffsetCursor('pm_validate', {}, end) : undefined;
        const more = end < sorted.length ? [`${sorted.length - end} more findings not shown${nextCursor ? `; next page: cursor ${nextCursor}` : ''}`] : [];
        const text = [head, ...findings.map((f) => `${f.severity} ${f.code}${f.itemId ? ` ${f.itemId}` : ''}: ${f.message}`), ...more, ...(omitted ? [budgetLine(omitted)] : [])].join('\n');
        const data = {
          ok: report.ok, items: report.items, errorCount: report.errors, warningCount: report.warnings, findings: JSON.parse(JSON.stringify(findings)) as JsonObject[], findingsTotal: report.findings.length,
          ...(nextCursor ? { nextCursor } : {}), ...(omitted ? { omitted } : {}),
        };
        return { data, text };
      };
      const fit = rowsWithinBudget(page.length, (n) => view(n, n < page.length ? budgetOmission(page.length - n, 'pass nextCursor as cursor for them') : undefined));
      return fit >= page.length ? view(page.length) : view(Math.max(1, fit), budgetOmission(page.length - Math.max(1, fit), 'pass nextCursor as cursor for them'));
    },
  });
}

/**
 * `pm_export`: every item, written as JSON or JSONL to a new file in the tracker's git-ignored
 * runtime area (docs/TRACKER.md "Export"). Long-running: a request that negotiated the tasks
 * extension gets it as a durable task (seed 004 "MRTR, tasks, and cache behavior"), and a
 * cancel stops it before anything is written.
 */
export function pmExportTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_export',
    title: 'Export tracker',
    description: "Writes every item (open and closed, with comments and body) to a new file in the tracker's git-ignored runtime area; returns its path, size and sha256 digest. format json (default) or jsonl (one item per line). Runs as a durable task for clients that declare the tasks extension.",
    properties: { format: enumSchema(TRACKER_EXPORT_FORMATS, 'json (default) or jsonl.') },
    shape: { format: zEnum(TRACKER_EXPORT_FORMATS).optional() },
    output: { properties: { format: OUTPUT.str, path: OUTPUT.str, items: OUTPUT.int, bytes: OUTPUT.int, digest: OUTPUT.str, exportedAt: OUTPUT.str }, required: ['format', 'path', 'items', 'bytes', 'digest', 'exportedAt'] },
    effect: 'write', // it writes a file (in the runtime area), so it is not read-only,
    idempotent: false,
    longRunning: true,
    async run({ format }, ctx) {
      const done = await requestTracker(deps, ctx).export((format ?? 'json') as TrackerExportFormat, ctx.signal);
      return { data: { ...done }, text: `Exported ${done.items} items as ${done.format} to ${done.path} (${done.bytes} bytes, ${done.digest}).` };
    },
  });
}
