import type { ValidationFinding, ValidationReport } from '../tracker/validate.js';

/**
 * The validate findings a git merge can leave behind although every branch was valid
 * (docs/TRACKER.md "Merges"): links that close a cycle only together, ids created on two
 * branches, links to an item the other branch deleted, and files or bodies git could not merge.
 */
export const MERGE_FINDING_CODES: readonly string[] = [
  'dependency_cycle', 'parent_cycle', 'id_collision', 'dangling_dependency', 'dangling_parent',
  'unresolved_conflict', 'unmerged_item', 'unmerged_history',
];

/** What `pm merge check` found after a merge. */
export interface MergeCheckReport {
  /** True when the tracker has no errors at all (as `pm validate` would exit 0). */
  readonly ok: boolean;
  /** The errors a merge can cause, in validate's order. */
  readonly problems: readonly ValidationFinding[];
  /** The commands that repair them, each once, in the order of the problems. */
  readonly commands: readonly string[];
  /** Errors of other kinds (`pm validate` names them). */
  readonly otherErrors: number;
}

/**
 * The post-merge check: validate's report (one check of the files, not a second one), narrowed
 * to what merges cause, with the repair commands the findings carry. It is what git's
 * post-merge hook runs after `pm merge install`, and what to run after finishing a merge that
 * stopped on conflicts (git runs no post-merge hook then).
 */
export function mergeCheck(report: ValidationReport): MergeCheckReport {
  const errors = report.findings.filter((f) => f.severity === 'error');
  const problems = errors.filter((f) => MERGE_FINDING_CODES.includes(f.code));
  const commands = [...new Set(problems.flatMap((f) => (f.command ? [f.command] : [])))];
  return { ok: report.ok, problems, commands, otherErrors: errors.length - problems.length };
}
