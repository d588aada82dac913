const MIB = 1024 * 1024;

/**
 * The declared memory envelope of the skills registry (seed 000 "Skills over MCP"). Per skill
 * the bounds are SEP-2640's "Limits" (512 resources, 16 MiB of content); a single resource is
 * held to the same 16 MiB; an origin (the package, or a workspace) is limited to 100 candidate
 * skill directories and 32 MiB across the bodies it retains. All of them are reserved from
 * metadata before any body is read.
 *
 * The last four bound the metadata walk itself, so a hostile tree cannot make the listing
 * costly before a budget check runs: entries read from one directory, directories per skill,
 * nesting depth, and the YAML front matter the parser is given.
 */
export interface PmSkillLimits {
  readonly maxResourcesPerSkill: number;
  readonly maxSkillBytes: number;
  readonly maxResourceBytes: number;
  readonly maxCandidatesPerOrigin: number;
  readonly maxOriginBytes: number;
  readonly maxDirectoryEntries: number;
  readonly maxDirectoriesPerSkill: number;
  readonly maxDepth: number;
  readonly maxFrontMatterBytes: number;
}

/** pm's limits (the values the seed declares; the walk bounds are pm's own). */
export const PM_SKILL_LIMITS: PmSkillLimits = Object.freeze({
  maxResourcesPerSkill: 512,
  maxSkillBytes: 16 * MIB,
  maxResourceBytes: 16 * MIB,
  maxCandidatesPerOrigin: 100,
  maxOriginBytes: 32 * MIB,
  maxDirectoryEntries: 1024,
  maxDirectoriesPerSkill: 512,
  maxDepth: 16,
  maxFrontMatterBytes: 64 * 1024,
});
