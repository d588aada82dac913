import type { FileSystem } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import type { PmSkillDiagnostic, PmSkillOriginKind } from './diagnostics.js';
import { PM_SKILL_LIMITS, type PmSkillLimits } from './limits.js';
import { planPmSkillOrigin, type PmSkillOriginPlan, type PmSkillOriginSource } from './origin-plan.js';
import { resolvePmSkillOverrides } from './overrides.js';
import { buildPmSkillIndex, pmSkillIndexFingerprint, type PmSkillIndex } from './registry-index.js';
import type { PmSkillPageSizes } from './registry.js';
import { compare } from './skill-plan.js';
import { readPmSkill, type PmLoadedSkill } from './skill-reader.js';

/** Where a repository keeps its own skills and overrides, relative to its root (seed 000). */
export const PM_WORKSPACE_SKILLS_DIR = '.agents/skills';

/** What a registry is loaded from. */
export interface PmSkillRegistryOptions {
  readonly fileSystem: FileSystem;
  readonly hasher: Hasher;
  /** The package serving the skills (reported in each entry's compatibility). */
  readonly package: { readonly name: string; readonly version: string };
  /** The published package's skills directory (each subdirectory one skill). */
  readonly packageSkillsDir?: string;
  /** The repository root; skills below its `.agents/skills/` are served with origin `workspace`. */
  readonly workspaceRoot?: string;
  /** Tighter (or, for tests, other) limits than PM_SKILL_LIMITS. */
  readonly limits?: Partial<PmSkillLimits>;
  readonly pageSizes?: Partial<PmSkillPageSizes>;
}

/** The origins of a load, package first. */
export function pmSkillOrigins(options: Pick<PmSkillRegistryOptions, 'packageSkillsDir' | 'workspaceRoot'>): PmSkillOriginSource[] {
  const origins: PmSkillOriginSource[] = [];
  if (options.packageSkillsDir !== undefined) origins.push({ kind: 'package', root: options.packageSkillsDir });
  if (options.workspaceRoot !== undefined) {
    const anchor = options.workspaceRoot.replace(/\/+$/, '') || '/';
    origins.push({ kind: 'workspace', root: `${anchor === '/' ? '' : anchor}/${PM_WORKSPACE_SKILLS_DIR}`, anchor });
  }
  return origins;
}

/**
 * One load: every origin is planned from metadata first (both budgets reserved for all of
 * them), then the planned bodies are read, then overrides are resolved and the index built.
 * Failures of the file system itself (a permission error, say) reject the skill or origin they
 * hit, as `unreadable`; the load itself does not fail.
 */
export async function loadPmSkills(options: PmSkillRegistryOptions): Promise<{ index: PmSkillIndex; digest: string; diagnostics: readonly PmSkillDiagnostic[] }> {
  const limits: PmSkillLimits = { ...PM_SKILL_LIMITS, ...options.limits };
  const plans: PmSkillOriginPlan[] = [];
  for (const source of pmSkillOrigins(options)) plans.push(await planOrigin(options.fileSystem, source, limits));
  const loaded: Record<PmSkillOriginKind, PmLoadedSkill[]> = { package: [], workspace: [] };
  const diagnostics: Record<PmSkillOriginKind, PmSkillDiagnostic[]> = { package: [], workspace: [] };
  for (const origin of plans) {
    diagnostics[origin.kind].push(...origin.diagnostics);
    for (const plan of origin.plans) {
      const outcome = await readPmSkill(options.fileSystem, options.hasher, plan, origin.kind, limits).catch((error: unknown) => unreadable(error));
      if (outcome.ok) loaded[origin.kind].push(outcome.value);
      else diagnostics[origin.kind].push({ origin: origin.kind, name: plan.name, ...outcome.problem });
    }
  }
  const resolved = resolvePmSkillOverrides(loaded.package, loaded.workspace, diagnostics.workspace);
  const index = buildPmSkillIndex(resolved.skills, options.package);
  const digest = `sha256:${options.hasher.sha256Hex(pmSkillIndexFingerprint(index))}`;
  const all = [...diagnostics.package, ...resolved.diagnostics].sort(byOriginAndName).map((d) => Object.freeze(d));
  return { index, digest, diagnostics: Object.freeze(all) };
}

/** Package before workspace, origin-wide problems first, then by candidate name (a stable sort keeps each skill's order). */
function byOriginAndName(a: PmSkillDiagnostic, b: PmSkillDiagnostic): number {
  if (a.origin !== b.origin) return a.origin === 'package' ? -1 : 1;
  if (a.name === b.name) return 0;
  if (a.name === undefined) return -1;
  if (b.name === undefined) return 1;
  return compare(a.name, b.name);
}

async function planOrigin(fs: FileSystem, source: PmSkillOriginSource, limits: PmSkillLimits): Promise<PmSkillOriginPlan> {
  try {
    return await planPmSkillOrigin(fs, source, limits);
  } catch (error) {
    const problem = unreadable(error).problem;
    return { kind: source.kind, plans: [], diagnostics: [{ origin: source.kind, name: undefined, ...problem }] };
  }
}

function unreadable(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false as const, problem: { rule: 'unreadable' as const, path: '', message: `the file system failed: ${message}` } };
}
