import type { FileSystem } from '../../ports/file-system.js';
import { joinPath } from '../util/paths.js';

/**
 * The repository's agent guidance for `pm://guidance`, so an agent reads the project's own
 * working rules next to its tracker: AGENTS.md at the project root, else CLAUDE.md, else a
 * short built-in text on working with pm. Read through the FileSystem port, bounded.
 */

/** Files consulted, in order, at the project root. */
export const PM_GUIDANCE_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;
/** Longest guidance text served (characters); longer files are cut with a note. */
export const PM_MAX_GUIDANCE_LENGTH = 100_000;

/** The built-in guidance when the repository has none. */
export const PM_BUILTIN_GUIDANCE = `# Working with pm

This repository tracks work with pm: items live in \`.agents/pm/items/\` as Markdown files and
every change is recorded in append-only history.

1. Orient: read \`pm://context\` or call \`pm_context\`; pick work with \`pm_next\`.
2. Claim before you start (\`pm_claim\`), so nobody else picks the same item.
3. Record progress, findings and decisions with \`pm_comment\`.
4. Close with concrete evidence — a commit, a passing test, a link (\`pm_close\`).
5. When you change an item you read earlier, pass its revision as \`expectedRevision\`; pass an
   \`idempotencyKey\` when a call may be retried.
`;

/** What `pm://guidance` serves and where it came from. */
export interface PmGuidance {
  /** `AGENTS.md`, `CLAUDE.md`, or `builtin`. */
  readonly source: string;
  readonly text: string;
}

/** Reads the guidance for the project directory `projectDir`. */
export async function readPmGuidance(fs: FileSystem, projectDir: string): Promise<PmGuidance> {
  for (const name of PM_GUIDANCE_FILES) {
    const text = await fs.readText(joinPath(projectDir, name));
    if (text === undefined || !text.trim()) continue;
    if (text.length <= PM_MAX_GUIDANCE_LENGTH) return { source: name, text };
    return { source: name, text: `${text.slice(0, PM_MAX_GUIDANCE_LENGTH)}\n\n[${name} continues; cut at ${PM_MAX_GUIDANCE_LENGTH} characters]\n` };
  }
  return { source: 'builtin', text: PM_BUILTIN_GUIDANCE };
}
