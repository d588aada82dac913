/**
 * Agent Skills naming (the format SEP-2640 "Skill Format" delegates to): 1-64 characters of
 * `a-z`, `0-9` and `-`, no leading or trailing hyphen and no `--`. ASCII only, so a name is
 * also a valid URI authority and path segment.
 */
const NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

/** Why name is not a valid skill name, or undefined when it is. */
export function pmSkillNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return `the name must be a string, got ${name === null ? 'null' : typeof name}`;
  if (name.length === 0) return 'the name is empty';
  if (name.length > 64) return `the name has ${name.length} characters; at most 64 are allowed`;
  if (!NAME.test(name)) return `${JSON.stringify(name)} is not a valid skill name: use lowercase a-z, 0-9 and single hyphens, not at either end`;
  return undefined;
}

/** Whether name follows the Agent Skills naming rules. */
export function isValidPmSkillName(name: unknown): name is string {
  return pmSkillNameProblem(name) === undefined;
}
