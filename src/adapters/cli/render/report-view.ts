import type { ChainFault, HistoryEntry } from '../../../domain/tracker/history.js';
import type { FieldChange } from '../../../domain/tracker/history-changes.js';
import type { InitResult } from '../../../domain/tracker/init.js';
import type { TrackerContext } from '../../../domain/tracker/tracker.js';
import type { ValidationReport } from '../../../domain/tracker/validate.js';
import type { DependencyRef, DependencyView } from '../dependency-view.js';
import { summaryTable } from './list-view.js';
import { columns, indent, lines, oneLine, plural, shortTime } from './text.js';

/** `pm init`: where the tracker is and what to do next. */
export function renderInit(result: InitResult): string {
  if (!result.created) return lines(`A pm tracker already exists at ${result.root}; nothing changed.`);
  return lines(
    `Initialized a pm tracker in ${result.root}`,
    `  id prefix: ${result.config.idPrefix}`,
    `  types: ${result.config.types.join(', ')}`,
    '',
    `Next: pm create "My first task"   (commit .agents/pm with your code; .runtime/ is git-ignored)`,
  );
}

/** `pm history`: one line per recorded change, oldest first. */
export function renderHistory(id: string, entries: readonly HistoryEntry[], faults: readonly ChainFault[] = [], changes: readonly (readonly FieldChange[])[] = []): string {
  if (entries.length === 0 && faults.length === 0) return lines(`${id} has no recorded history.`);
  const bad = new Set(faults.map((f) => f.line));
  const rows = entries.map((e) => [`#${e.seq}`, shortTime(e.at), e.client ? `${e.actor} via ${e.client}` : e.actor, e.op, revisions(e), changedFields(e)]);
  const marked = columns(rows).flatMap((l, i) => [
    `  ${faults.length === 0 ? '' : bad.has(entries[i]!.seq) ? '! ' : '  '}${l}`,
    ...(changes[i] ?? []).map((c) => `${faults.length === 0 ? '' : '  '}      ${oneLine(describeChange(c))}`),
  ]);
  const warning = faults.length > 0 && [
    '',
    `The history of ${id} does not verify; the lines marked ! cannot be trusted:`,
    ...faults.map((f) => `  ! line ${f.line}: ${f.problem}`),
    "Changes to this item are refused until the file is restored (git checkout -- the history file); see 'pm validate'.",
  ];
  return lines(`History of ${id} (${plural(entries.length, 'change')}):`, marked, warning);
}

/** `priority: 2 -> 0`, `assignee: (none) -> "bob"`, `comments: + "looks good"`. */
function describeChange(c: FieldChange): string {
  if (c.added) return `${c.field}: ${c.added.map((v) => `+ ${v}`).join(', ')}`;
  return `${c.field}: ${c.before ?? '(none)'} -> ${c.after ?? '(none)'}`;
}

function revisions(e: HistoryEntry): string {
  const r = (n: number | null) => (n === null ? '-' : `r${n}`);
  return `${r(e.revisionBefore)} -> ${r(e.revisionAfter)}`;
}

function changedFields(e: HistoryEntry): string {
  if (e.op === 'create') return '(new item)';
  if (e.op === 'delete') return '(item removed)';
  const keys = [...new Set(e.patch.map((op) => op.path.split('/')[1] ?? ''))].filter((k) => k && k !== 'updated' && k !== 'revision');
  return keys.join(', ');
}

/** `pm validate`: every finding, then the verdict. */
export function renderValidation(report: ValidationReport): string {
  const rows = report.findings.map((f) => [f.severity, f.code, f.message]);
  const verdict = report.ok
    ? `OK: ${plural(report.items, 'item')} checked, ${plural(report.warnings, 'warning')}`
    : `FAILED: ${plural(report.items, 'item')} checked, ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`;
  return lines(columns(rows), rows.length > 0 && '', verdict);
}

/** `pm context` / `pm status`: the project at a glance. */
export function renderContext(c: TrackerContext): string {
  const counts = (record: Record<string, number>) => Object.entries(record).map(([k, n]) => `${k} ${n}`).join(' · ') || 'none';
  return lines(
    `Tracker ${c.root} (prefix ${c.idPrefix}): ${plural(c.total, 'item')}`,
    `  by status: ${counts(c.byStatus)}`,
    `  by type:   ${counts(c.byType)}`,
    '',
    c.next ? `Next: ${c.next.id}  P${c.next.priority}  ${c.next.title}` : 'Next: nothing is ready',
    indent(c.nextRationale),
    c.claims.length > 0 && ['', 'Active claims:', ...columns(c.claims.map((cl) => [cl.id, cl.holder, `until ${shortTime(cl.expiresAt)}`, cl.title])).map((l) => `  ${l}`)],
    c.expiredClaims.length > 0 && ['', 'Expired claims (offered by pm next):', ...columns(c.expiredClaims.map((cl) => [cl.id, cl.holder, `expired ${shortTime(cl.expiresAt)}`, cl.title])).map((l) => `  ${l}`)],
    c.recent.length > 0 && ['', 'Recently updated:', ...summaryTable(c.recent, false).map((l) => `  ${l}`)],
    c.unreadable.length > 0 && ['', 'Unreadable item files (run pm validate):', ...c.unreadable.map((u) => `  ${u.id}: ${u.message}`)],
  );
}

/** `pm deps <id>`: blockers, what it blocks, related items. */
export function renderDependencies(view: DependencyView): string {
  const section = (title: string, refs: readonly DependencyRef[]) =>
    [`${title}:`, ...(refs.length ? columns(refs.map((r) => [r.id, r.status, r.title ?? '(missing item)'])).map((l) => `  ${l}`) : ['  (none)'])];
  const readiness = view.blockedBy.length === 0 ? 'no blockers' : view.openBlockers === 0 ? 'all blockers done' : `waiting on ${plural(view.openBlockers, 'open blocker')}`;
  return lines(
    `${view.id}  ${view.title}  (${view.status}; ${readiness})`,
    section('Blocked by', view.blockedBy),
    section('Blocks', view.blocks),
    section('Related', view.related),
  );
}
