/** Where a skill comes from: the published package, or the repository's `.agents/skills/`. */
export type PmSkillOriginKind = 'package' | 'workspace';

/** The rule a rejected skill (or origin) broke; stable names for `pm skills check` and logs. */
export type PmSkillRule =
  // the tree
  | 'symlink'
  | 'special-file'
  | 'unreadable'
  | 'changed'
  // the origin's envelope
  | 'origin-candidates'
  | 'origin-entries'
  | 'origin-bytes'
  // one skill's envelope
  | 'directory-entries'
  | 'directory-count'
  | 'depth'
  | 'resource-count'
  | 'resource-bytes'
  | 'skill-bytes'
  // SKILL.md
  | 'skill-name'
  | 'missing-skill-md'
  | 'skill-md-encoding'
  | 'front-matter-missing'
  | 'front-matter-too-large'
  | 'front-matter-malformed'
  | 'front-matter-anchor'
  | 'front-matter-alias'
  | 'front-matter-duplicate-key'
  | 'front-matter-not-mapping'
  | 'front-matter-not-json'
  | 'name-mismatch'
  | 'description'
  | 'compatibility';

/** What went wrong, where, and against which limit: the part a loader step reports. */
export interface PmSkillProblem {
  readonly rule: PmSkillRule;
  /** Path below the skill directory (or the origin root) where it was found; '' for the directory itself. */
  readonly path: string;
  readonly message: string;
  readonly limit?: number | string;
  readonly actual?: number | string;
}

/**
 * One rejection the operator can see (seed 000 "Skills over MCP": a rejected skill is reported
 * and never takes the good skills down with it). `name` is the candidate directory's name (the
 * skill it claims to be), or undefined when the whole origin was refused.
 */
export interface PmSkillDiagnostic extends PmSkillProblem {
  readonly origin: PmSkillOriginKind;
  readonly name: string | undefined;
}

/** A step's outcome: a value, or the problem that rejects the skill. */
export type PmSkillOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: PmSkillProblem };

export function accepted<T>(value: T): PmSkillOutcome<T> {
  return { ok: true, value };
}

export function rejected<T>(rule: PmSkillRule, path: string, message: string, limit?: number | string, actual?: number | string): PmSkillOutcome<T> {
  return { ok: false, problem: { rule, path, message, ...(limit === undefined ? {} : { limit }), ...(actual === undefined ? {} : { actual }) } };
}

/** One line for stderr or `pm skills check`: `workspace skill "x" rejected (resource-count, limit 512, actual 513): …`. */
export function formatPmSkillDiagnostic(d: PmSkillDiagnostic): string {
  const subject = d.name === undefined ? `${d.origin} skills` : `${d.origin} skill ${JSON.stringify(d.name)}`;
  const bounds = [d.rule, d.limit === undefined ? undefined : `limit ${d.limit}`, d.actual === undefined ? undefined : `actual ${d.actual}`].filter(Boolean).join(', ');
  const where = d.path ? ` at ${d.path}` : '';
  return `${subject} rejected (${bounds})${where}: ${d.message}`;
}
