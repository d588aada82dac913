import type { FileNodeEntry, FileSystem } from '../../ports/file-system.js';
import { rejected, type PmSkillDiagnostic, type PmSkillOriginKind, type PmSkillOutcome, type PmSkillProblem } from './diagnostics.js';
import type { PmSkillLimits } from './limits.js';
import { compare, planPmSkill, type PmSkillPlan } from './skill-plan.js';
import { pmSkillNameProblem } from './skill-name.js';

/** One place skills are loaded from. */
export interface PmSkillOriginSource {
  readonly kind: PmSkillOriginKind;
  /** The directory whose subdirectories are candidate skills. */
  readonly root: string;
  /**
   * A trusted ancestor of `root` (the repository root for a workspace). Every path component
   * from below it down to `root` must be a real directory, not a link. Defaults to `root`.
   */
  readonly anchor?: string;
}

/** An origin's reservations: the plans it may read, and what it rejected on the way. */
export interface PmSkillOriginPlan {
  readonly kind: PmSkillOriginKind;
  readonly plans: readonly PmSkillPlan[];
  readonly diagnostics: readonly PmSkillDiagnostic[];
}

/**
 * Reserves an origin's budget from metadata alone (seed 000 "Skills over MCP"). A candidate is
 * any directory or link directly in the root. A candidate that breaks a per-skill rule is
 * rejected alone; the origin as a whole is refused, before any body of it is read, when its
 * root lists more than `maxDirectoryEntries` entries, holds more than `maxCandidatesPerOrigin`
 * candidates, or when the skills it would retain exceed `maxOriginBytes` together. A missing
 * root is an empty origin, not a problem (most repositories have no `.agents/skills/`).
 */
export async function planPmSkillOrigin(fs: FileSystem, source: PmSkillOriginSource, limits: PmSkillLimits): Promise<PmSkillOriginPlan> {
  const diagnostics: PmSkillDiagnostic[] = [];
  const refuse = (problem: PmSkillProblem): PmSkillOriginPlan => ({ kind: source.kind, plans: [], diagnostics: [...diagnostics, { origin: source.kind, name: undefined, ...problem }] });
  const path = await rootProblem(fs, source);
  if (path === 'missing') return { kind: source.kind, plans: [], diagnostics };
  if (path) return refuse(path);
  const listing = await fs.listEntries(source.root, { limit: limits.maxDirectoryEntries });
  if (listing.status === 'refused') {
    if (listing.reason === 'missing') return { kind: source.kind, plans: [], diagnostics };
    return refuse({ rule: listing.reason === 'symlink' ? 'symlink' : 'changed', path: '', message: `the skills directory ${source.root} could not be listed (${listing.reason})` });
  }
  if (listing.truncated) {
    const limit = limits.maxDirectoryEntries;
    return refuse({ rule: 'origin-entries', path: '', message: `the skills directory holds more than ${limit} entries`, limit, actual: `>${limit}` });
  }
  const candidates = listing.entries.filter((e) => e.kind === 'directory' || e.kind === 'symlink').sort((a, b) => compare(a.name, b.name));
  if (candidates.length > limits.maxCandidatesPerOrigin) {
    const limit = limits.maxCandidatesPerOrigin;
    return refuse({ rule: 'origin-candidates', path: '', message: `the skills directory holds ${candidates.length} candidate skill directories; at most ${limit} are allowed`, limit, actual: candidates.length });
  }
  const plans: PmSkillPlan[] = [];
  for (const candidate of candidates) {
    const outcome = await planCandidate(fs, source.root, candidate, limits).catch((error: unknown) =>
      rejected<PmSkillPlan>('unreadable', '', `the file system failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    if (outcome.ok) plans.push(outcome.value);
    else diagnostics.push({ origin: source.kind, name: candidate.name, ...outcome.problem });
  }
  const retained = plans.reduce((sum, plan) => sum + plan.totalBytes, 0);
  if (retained > limits.maxOriginBytes) {
    const limit = limits.maxOriginBytes;
    return refuse({ rule: 'origin-bytes', path: '', message: `the ${plans.length} acceptable skills hold ${retained} bytes together; at most ${limit} are allowed per origin`, limit, actual: retained });
  }
  return { kind: source.kind, plans, diagnostics };
}

async function planCandidate(fs: FileSystem, root: string, candidate: FileNodeEntry, limits: PmSkillLimits): Promise<PmSkillOutcome<PmSkillPlan>> {
  if (candidate.kind === 'symlink') return rejected('symlink', '', 'a skill directory must be a directory, not a symbolic link');
  const nameProblem = pmSkillNameProblem(candidate.name);
  if (nameProblem) return rejected('skill-name', '', `directory name: ${nameProblem}`);
  return planPmSkill(fs, `${root}/${candidate.name}`, candidate.name, candidate.id, limits);
}

/** 'missing' when there is no root, a problem when a component from the anchor down is not a real directory. */
async function rootProblem(fs: FileSystem, source: PmSkillOriginSource): Promise<PmSkillProblem | 'missing' | undefined> {
  const anchor = (source.anchor ?? source.root).replace(/\/+$/, '');
  const root = source.root.replace(/\/+$/, '');
  if (root !== anchor && !root.startsWith(`${anchor}/`)) throw new Error(`skills origin ${root} is not below its anchor ${anchor}`);
  const below = root === anchor ? [] : root.slice(anchor.length + 1).split('/');
  const checks = [anchor, ...below.map((_, i) => `${anchor}/${below.slice(0, i + 1).join('/')}`)].slice(root === anchor ? 0 : 1);
  for (const path of checks) {
    const node = await fs.inspect(path);
    if (!node) return 'missing';
    const relative = path === anchor ? '' : path.slice(anchor.length + 1);
    if (node.kind === 'symlink') return { rule: 'symlink', path: relative, message: `${path} is a symbolic link; the skills directory must be a real directory` };
    if (node.kind !== 'directory') return { rule: 'unreadable', path: relative, message: `${path} is not a directory` };
  }
  return undefined;
}
