import { formatPmSkillDiagnostic, type PmSkillDiagnostic } from '../../domain/skills/diagnostics.js';
import type { PmMcpSkillRegistry } from '../../domain/skills/registry.js';
import { PM_SKILL_URI_SCHEME } from '../../domain/skills/skill-uri.js';
import { PM_SKILL_META_KEY, type PmSkillEntry, type PmSkillFacts } from '../../domain/skills/types.js';

/**
 * What `pm skills` prints, taken from the registry exactly as an MCP host gets it (seed 000
 * "Skills over MCP"): entries as `skills/list` returns them, files as their URIs, digests and
 * sizes, and the diagnostics of the load. Nothing here re-reads a file.
 */

/** pm's facts about a skill (origin, trust, token estimate), from the entry's `_meta`. */
export function skillFacts(entry: PmSkillEntry): PmSkillFacts {
  return entry._meta[PM_SKILL_META_KEY];
}

/** The skill's name: the front matter's, which the registry holds equal to its directory. */
export function skillName(entry: PmSkillEntry): string {
  return String(entry.frontmatter.name);
}

/** The skill's description from its front matter. */
export function skillDescription(entry: PmSkillEntry): string {
  return typeof entry.frontmatter.description === 'string' ? entry.frontmatter.description : '';
}

/** One file of a skill: its path below the skill directory, and what the entry says about it. */
export interface SkillFileView {
  readonly path: string;
  readonly uri: string;
  readonly size: number;
  readonly digest: string;
}

/** The files of an entry with their paths decoded from the `skill://<name>/<path>` URIs, SKILL.md first. */
export function skillFiles(entry: PmSkillEntry): SkillFileView[] {
  const root = `${PM_SKILL_URI_SCHEME}${skillName(entry)}/`;
  return entry.resources.map((ref) => ({
    path: ref.uri.startsWith(root) ? ref.uri.slice(root.length).split('/').map(decodeURIComponent).join('/') : ref.uri,
    uri: ref.uri,
    size: ref.size,
    digest: ref.digest,
  }));
}

/** The entry serving `name`, or undefined when no served skill has that name. */
export function findSkill(registry: PmMcpSkillRegistry, name: string): PmSkillEntry | undefined {
  return registry.entries().find((entry) => skillName(entry) === name);
}

/** The diagnostics about candidates called `name`. */
export function diagnosticsOf(registry: PmMcpSkillRegistry, name: string): readonly PmSkillDiagnostic[] {
  return registry.diagnostics.filter((d) => d.name === name);
}

/** `pm skills check --json`: the verdict, what is served, and every rejection with its one-line text. */
export interface SkillCheckReport {
  readonly ok: boolean;
  readonly digest: string;
  readonly served: number;
  readonly rejected: number;
  readonly diagnostics: readonly (PmSkillDiagnostic & { readonly text: string })[];
}

export function skillCheckReport(registry: PmMcpSkillRegistry): SkillCheckReport {
  const diagnostics = registry.diagnostics.map((d) => ({ ...d, text: formatPmSkillDiagnostic(d) }));
  return { ok: diagnostics.length === 0, digest: registry.digest, served: registry.size, rejected: diagnostics.length, diagnostics };
}
