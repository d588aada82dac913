import type { DirectoryListing, FileNodeEntry, FileSystem } from '../../ports/file-system.js';
import { accepted, rejected, type PmSkillOutcome } from './diagnostics.js';
import type { PmSkillLimits } from './limits.js';
import { PM_SKILL_MD } from './skill-uri.js';

/** One file a skill will serve, as its metadata described it (no body read yet). */
export interface PmPlannedFile {
  /** '/'-separated path below the skill directory. */
  readonly path: string;
  readonly absolute: string;
  readonly size: number;
  /** The node id the listing saw; the body read must find the same node. */
  readonly id: string;
}

/**
 * A skill's reservation: every file and directory below it, found from metadata alone and
 * already held to the per-skill limits. Reading bodies starts only from plans.
 */
export interface PmSkillPlan {
  readonly name: string;
  readonly directory: string;
  /** SKILL.md first, then the rest by path. */
  readonly files: readonly PmPlannedFile[];
  /** Every subdirectory's path below the skill directory, by path (the root itself is ''). */
  readonly directories: readonly string[];
  readonly totalBytes: number;
}

interface Pending {
  readonly path: string;
  readonly absolute: string;
  readonly id: string;
  readonly depth: number;
}

/**
 * Walks one candidate skill directory from metadata (seed 000 "Skills over MCP": file counts
 * and byte budgets are reserved before a body is read). The walk stops at the first broken
 * rule, so a hostile tree costs at most one over-limit step: a link or special node at any
 * depth, a directory listing over `maxDirectoryEntries`, more than `maxDirectoriesPerSkill`
 * directories or `maxDepth` levels, a file over `maxResourceBytes`, more than
 * `maxResourcesPerSkill` files, or more than `maxSkillBytes` in total. `id` is the directory's
 * node id from its parent's listing; each directory must still be that node when it is listed.
 */
export async function planPmSkill(fs: FileSystem, directory: string, name: string, id: string, limits: PmSkillLimits): Promise<PmSkillOutcome<PmSkillPlan>> {
  const files: PmPlannedFile[] = [];
  const directories: string[] = [];
  let totalBytes = 0;
  const pending: Pending[] = [{ path: '', absolute: directory, id, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const listing = await fs.listEntries(next.absolute, { limit: limits.maxDirectoryEntries });
    const entries = listedEntries(listing, next, limits);
    if (!entries.ok) return entries;
    for (const entry of entries.value) {
      const path = next.path ? `${next.path}/${entry.name}` : entry.name;
      const absolute = `${next.absolute}/${entry.name}`;
      if (entry.kind === 'symlink') return rejected('symlink', path, 'symbolic links are not accepted in a skill');
      if (entry.kind === 'other') return rejected('special-file', path, 'only regular files and directories are accepted in a skill');
      if (entry.kind === 'directory') {
        if (directories.length >= limits.maxDirectoriesPerSkill) {
          return rejected('directory-count', path, `the skill has more than ${limits.maxDirectoriesPerSkill} directories`, limits.maxDirectoriesPerSkill, directories.length + 1);
        }
        if (next.depth + 1 > limits.maxDepth) return rejected('depth', path, `the skill nests directories more than ${limits.maxDepth} levels deep`, limits.maxDepth, next.depth + 1);
        directories.push(path);
        pending.push({ path, absolute, id: entry.id, depth: next.depth + 1 });
        continue;
      }
      if (entry.size > limits.maxResourceBytes) {
        return rejected('resource-bytes', path, `the file has ${entry.size} bytes; at most ${limits.maxResourceBytes} are allowed per file`, limits.maxResourceBytes, entry.size);
      }
      if (files.length >= limits.maxResourcesPerSkill) {
        return rejected('resource-count', path, `the skill has more than ${limits.maxResourcesPerSkill} files`, limits.maxResourcesPerSkill, files.length + 1);
      }
      totalBytes += entry.size;
      if (totalBytes > limits.maxSkillBytes) {
        return rejected('skill-bytes', path, `the skill's files exceed ${limits.maxSkillBytes} bytes in total`, limits.maxSkillBytes, totalBytes);
      }
      files.push({ path, absolute, size: entry.size, id: entry.id });
    }
  }
  return ordered(name, directory, files, directories, totalBytes);
}

function listedEntries(listing: DirectoryListing, at: Pending, limits: PmSkillLimits): PmSkillOutcome<readonly FileNodeEntry[]> {
  if (listing.status === 'refused') {
    if (listing.reason === 'symlink') return rejected('symlink', at.path, 'symbolic links are not accepted in a skill');
    return rejected('changed', at.path, `the directory changed while it was being listed (${listing.reason})`);
  }
  if (listing.id !== at.id) return rejected('changed', at.path, 'the directory was replaced while it was being listed');
  if (listing.truncated) {
    return rejected('directory-entries', at.path, `the directory holds more than ${limits.maxDirectoryEntries} entries`, limits.maxDirectoryEntries, `>${limits.maxDirectoryEntries}`);
  }
  return accepted([...listing.entries].sort((a, b) => compare(a.name, b.name)));
}

function ordered(name: string, directory: string, files: PmPlannedFile[], directories: string[], totalBytes: number): PmSkillOutcome<PmSkillPlan> {
  const skillMd = files.find((f) => f.path === PM_SKILL_MD);
  if (!skillMd) return rejected('missing-skill-md', '', `the skill directory has no ${PM_SKILL_MD} file`);
  const rest = files.filter((f) => f !== skillMd).sort((a, b) => compare(a.path, b.path));
  return accepted({ name, directory, files: [skillMd, ...rest], directories: directories.sort(compare), totalBytes });
}

/** Lexical order by UTF-16 code units: stable across runs and platforms. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
