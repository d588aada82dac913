import type { PmSkillDiagnostic } from './diagnostics.js';
import type { PmLoadedSkill } from './skill-reader.js';
import { compare } from './skill-plan.js';

/** A served skill and whether it replaced a package skill. */
export interface PmResolvedSkill {
  readonly skill: PmLoadedSkill;
  readonly overridesPackage: boolean;
}

/**
 * The override rule (seed 000 "Skills over MCP"): a workspace skill replaces the package skill
 * of the same validated name, and the result is purely the workspace skill: origin
 * `workspace`, its own files and front matter, and nothing inherited (trust included). A
 * workspace skill that was rejected overrides nothing, so the package skill stays served; the
 * rejection's message says so. The result is ordered by name.
 */
export function resolvePmSkillOverrides(
  packageSkills: readonly PmLoadedSkill[],
  workspaceSkills: readonly PmLoadedSkill[],
  workspaceDiagnostics: readonly PmSkillDiagnostic[],
): { readonly skills: readonly PmResolvedSkill[]; readonly diagnostics: readonly PmSkillDiagnostic[] } {
  const byName = new Map<string, PmResolvedSkill>();
  for (const skill of packageSkills) byName.set(skill.name, { skill, overridesPackage: false });
  for (const skill of workspaceSkills) byName.set(skill.name, { skill, overridesPackage: byName.has(skill.name) });
  const diagnostics = workspaceDiagnostics.map((d) =>
    d.name !== undefined && byName.get(d.name)?.skill.origin === 'package' ? { ...d, message: `${d.message} (the package skill ${JSON.stringify(d.name)} is served instead)` } : d,
  );
  const skills = [...byName.values()].sort((a, b) => compare(a.skill.name, b.skill.name));
  return { skills, diagnostics };
}
