import { accepted, rejected, type PmSkillOutcome } from './diagnostics.js';
import type { PmSkillFrontMatter } from './json-value.js';
import { pmSkillNameProblem } from './skill-name.js';

const MAX_DESCRIPTION = 1024;
const MAX_COMPATIBILITY = 500;

/**
 * The Agent Skills rules SKILL.md's front matter must meet before the skill is served
 * (SEP-2640 "Skill Format" delegates to Agent Skills): a valid `name` equal to the skill's
 * directory name, compared verbatim (SEP-2640 "Resource Mapping": the last path segment MUST
 * equal `name`); a non-empty `description` of at most 1024 characters; and, when present, a
 * `compatibility` string of at most 500. Every other field passes through unchecked.
 */
export function checkPmSkillMd(front: PmSkillFrontMatter, directoryName: string): PmSkillOutcome<{ name: string; description: string }> {
  const { name, description, compatibility } = front;
  const nameProblem = pmSkillNameProblem(name);
  if (nameProblem) return rejected('skill-name', 'SKILL.md', `front matter name: ${nameProblem}`);
  if (name !== directoryName) {
    return rejected('name-mismatch', 'SKILL.md', `front matter name ${JSON.stringify(name)} differs from the directory name ${JSON.stringify(directoryName)}`);
  }
  if (typeof description !== 'string' || description.trim() === '') return rejected('description', 'SKILL.md', 'front matter description must be a non-empty string');
  if (description.length > MAX_DESCRIPTION) {
    return rejected('description', 'SKILL.md', `front matter description has ${description.length} characters; at most ${MAX_DESCRIPTION} are allowed`, MAX_DESCRIPTION, description.length);
  }
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility.length === 0 || compatibility.length > MAX_COMPATIBILITY)) {
    return rejected('compatibility', 'SKILL.md', `front matter compatibility must be a string of 1 to ${MAX_COMPATIBILITY} characters`, MAX_COMPATIBILITY, typeof compatibility === 'string' ? compatibility.length : typeof compatibility);
  }
  return accepted({ name: name as string, description });
}
