import type { FileSystem, OwnFileRead } from '../../ports/file-system.js';
import { RefusedFileError } from '../errors/index.js';
import { joinPath } from '../util/paths.js';
import { utf8Length } from '../util/utf8.js';

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

/**
 * How a guidance file is read: a regular file only, never through a link (a committed
 * `AGENTS.md -> ~/.ssh/id_rsa` must not be served to an MCP client, nor one to /dev/zero read
 * until memory runs out), and only its first bytes (4 per character served at most).
 */
const GUIDANCE_READ: OwnFileRead = Object.freeze({ maxBytes: 64 * 1024 * 1024 });
const GUIDANCE_BYTES = PM_MAX_GUIDANCE_LENGTH * 4;

/**
 * Reads the guidance for the project directory `projectDir`. A guidance file pm refuses (a
 * link, a FIFO, over 64 MiB; docs/TRACKER.md "Hostile files: links and directories") is passed over for the next one, and the
 * text served says so, so the refusal is seen rather than silent.
 */
export async function readPmGuidance(fs: FileSystem, projectDir: string): Promise<PmGuidance> {
  const refused: string[] = [];
  const noted = (text: string) => (refused.length ? `${text}\n\n${refused.map((why) => `[pm did not read ${why}]`).join('\n')}\n` : text);
  for (const name of PM_GUIDANCE_FILES) {
    let text: string;
    try {
      text = await fs.readTextRange(joinPath(projectDir, name), 0, GUIDANCE_BYTES + 1, GUIDANCE_READ);
    } catch (error) {
      if (!(error instanceof RefusedFileError)) throw error;
      refused.push(`${name}: ${error.message.slice(error.message.lastIndexOf(': ') + 2)}`);
      continue;
    }
    if (!text.trim()) continue;
    if (text.length <= PM_MAX_GUIDANCE_LENGTH && utf8Length(text) <= GUIDANCE_BYTES) return { source: name, text: noted(text) };
    return { source: name, text: noted(`${text.slice(0, PM_MAX_GUIDANCE_LENGTH)}\n\n[${name} continues; cut at ${PM_MAX_GUIDANCE_LENGTH} characters]\n`) };
  }
  return { source: 'builtin', text: noted(PM_BUILTIN_GUIDANCE) };
}

