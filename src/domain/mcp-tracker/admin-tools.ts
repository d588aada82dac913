import { z } from 'zod';
import { explainMcpConsent } from './consent.js';
import { enumSchema, GUARD_PROPERTIES, guardShape, idSchema, integerSchema, OUTPUT, outputObject, RECEIPT_SCHEMA, zId, zInt } from './json-schemas.js';
import { defineTrackerTool, mutationOptions, type PmTrackerToolDeps } from './tool-kit.js';

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
        const result = await deps.tracker.delete(id, { ...mutationOptions(deps, ctx, guards), ...(consent ? { consent } : {}) });
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

const FINDING = outputObject(
  { severity: enumSchema(['error', 'warning']), code: OUTPUT.str, itemId: OUTPUT.str, file: OUTPUT.str, message: OUTPUT.str },
);

export function pmValidateTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_validate',
    title: 'Validate tracker',
    description: 'Checks the whole tracker from its files: items parse and fit the config, links resolve, no dependency or parent cycles, history hash chains intact. Errors first.',
    properties: { limit: integerSchema(1, 200, 'Findings to return (default 50).') },
    shape: { limit: zInt(1, 200).optional() },
    output: {
      properties: { ok: OUTPUT.bool, items: OUTPUT.int, errorCount: OUTPUT.int, warningCount: OUTPUT.int, findings: { type: 'array', items: FINDING }, findingsTotal: OUTPUT.int },
      required: ['ok', 'items', 'errorCount', 'warningCount', 'findings', 'findingsTotal'],
    },
    effect: 'read',
    idempotent: true,
    async run(args) {
      const report = await deps.tracker.validate();
      const sorted = [...report.findings].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
      const findings = sorted.slice(0, args.limit ?? 50);
      const head = report.ok ? `Tracker is valid: ${report.items} items, ${report.warnings} warnings.` : `Tracker has ${report.errors} errors and ${report.warnings} warnings over ${report.items} items.`;
      const more = findings.length < sorted.length ? [`${sorted.length - findings.length} more findings not shown`] : [];
      const text = [head, ...findings.map((f) => `${f.severity} ${f.code}${f.itemId ? ` ${f.itemId}` : ''}: ${f.message}`), ...more].join('\n');
      return {
        data: { ok: report.ok, items: report.items, errorCount: report.errors, warningCount: report.warnings, findings: JSON.parse(JSON.stringify(findings)), findingsTotal: report.findings.length },
        text,
      };
    },
  });
}
