import { fileURLToPath } from 'node:url';
import { formatPmSkillDiagnostic, type PmSkillDiagnostic } from '../domain/skills/diagnostics.js';
import { PmMcpSkillRegistry } from '../domain/skills/registry.js';
import type { PmSkillRegistryOptions } from '../domain/skills/registry-load.js';
import type { FileSystem } from '../ports/file-system.js';
import type { Hasher } from '../ports/hasher.js';
import { packageInfo } from './package-info.js';
import type { ProcessLog } from './process-log.js';

/**
 * Where pm's skills come from (seed 000 "Skills over MCP": the published package carries the
 * four canonical skills; a repository may override them below `.agents/skills/`).
 */

/** The package's `skills/` directory (beside dist/, as published). */
export function pmPackageSkillsDir(): string {
  return fileURLToPath(new URL('../../skills', import.meta.url));
}

/** The repository root of a tracker root (`<repo>/.agents/pm` → `<repo>`). */
export function workspaceRootOf(trackerRoot: string): string {
  return trackerRoot.replace(/\/\.agents\/pm\/?$/, '') || '/';
}

/** The options of one registry load over the package's skills and the workspace's. */
export function pmSkillRegistryOptions(fs: FileSystem, hasher: Hasher, packageSkillsDir: string | undefined, workspaceRoot: string | undefined): PmSkillRegistryOptions {
  const pkg = packageInfo();
  return {
    fileSystem: fs,
    hasher,
    package: { name: pkg.name, version: pkg.version },
    ...(packageSkillsDir !== undefined ? { packageSkillsDir } : {}),
    ...(workspaceRoot !== undefined ? { workspaceRoot } : {}),
  };
}

/** Loads one registry (never throws for bad skills: they are diagnostics). */
export function loadPmSkillRegistry(fs: FileSystem, hasher: Hasher, packageSkillsDir: string | undefined, workspaceRoot: string | undefined): Promise<PmMcpSkillRegistry> {
  return PmMcpSkillRegistry.load(pmSkillRegistryOptions(fs, hasher, packageSkillsDir, workspaceRoot));
}

/** Each rejected skill as one stderr line (name, rule, limit, actual). */
export function logPmSkillDiagnostics(log: ProcessLog, diagnostics: readonly PmSkillDiagnostic[]): void {
  for (const diagnostic of diagnostics) log.line(`skills: ${formatPmSkillDiagnostic(diagnostic)}`);
}
