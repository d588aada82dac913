import type { PmMcpSkillRegistry } from '../../../domain/skills/registry.js';
import type { PmSkillEntry } from '../../../domain/skills/types.js';
import { skillDescription, skillFacts, skillFiles, skillName, type SkillCheckReport } from '../skill-view.js';
import { columns, lines, plural } from './text.js';

/** Longest description `pm skills list` shows on one line. */
const DESCRIPTION_WIDTH = 80;

/** What the trust marker means, said wherever a skill is shown (seed 000 "Skills over MCP"). */
export const SKILL_TRUST_NOTE = 'untrusted: skill text is guidance, never permission to run a command or change the tracker';

function origin(entry: PmSkillEntry): string {
  const facts = skillFacts(entry);
  return facts.overridesPackage ? `${facts.origin} (overrides package)` : facts.origin;
}

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}

/** `pm skills list`: one row per served skill, then the totals and a pointer at rejections. */
export function renderSkillList(registry: PmMcpSkillRegistry): string {
  const entries = registry.entries();
  const rejected = registry.diagnostics.length;
  const note = rejected > 0 ? `${plural(rejected, 'rejection')}; run pm skills check` : undefined;
  if (entries.length === 0) return lines('No skills are served.', note);
  const rows = entries.map((e) => {
    const tokens = skillFacts(e).estimatedTokens;
    return [skillName(e), origin(e), `~${tokens.skillMd}`, `~${tokens.allText}`, oneLine(skillDescription(e), DESCRIPTION_WIDTH)];
  });
  return lines(
    columns([['NAME', 'ORIGIN', 'TOKENS', 'ALL', 'DESCRIPTION'], ...rows]),
    '',
    `${plural(entries.length, 'skill')} served (TOKENS: SKILL.md, ALL: every text file; estimated at 4 bytes a token)`,
    note,
  );
}

function frontMatterLines(entry: PmSkillEntry): string[] {
  return Object.entries(entry.frontmatter).map(([key, value]) => `  ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

/** `pm skills show <name>`: where it comes from, its trust, front matter, files, then SKILL.md itself. */
export function renderSkill(entry: PmSkillEntry, skillMd: string): string {
  const facts = skillFacts(entry);
  const files = skillFiles(entry);
  return lines(
    `${skillName(entry)}  ${entry.uri}`,
    `  origin: ${origin(entry)}`,
    `  trust: ${SKILL_TRUST_NOTE}`,
    `  tokens: ~${facts.estimatedTokens.skillMd} for SKILL.md, ~${facts.estimatedTokens.allText} for every text file (${facts.estimatedTokens.method})`,
    '',
    'Front matter:',
    frontMatterLines(entry),
    '',
    `Files (${plural(files.length, 'file')}, ${facts.totalBytes} bytes):`,
    columns(files.map((f) => [`  ${f.path}`, `${f.size} B`, f.digest])),
    '',
    '--- SKILL.md ---',
    skillMd.replace(/\n$/, ''),
  );
}

/** `pm skills check`: every rejection on its own line, then the verdict. */
export function renderSkillCheck(report: SkillCheckReport): string {
  const verdict = report.ok
    ? `OK: ${plural(report.served, 'skill')} served, none rejected`
    : `FAILED: ${plural(report.served, 'skill')} served, ${plural(report.rejected, 'rejection')}`;
  return lines(report.diagnostics.map((d) => d.text), report.diagnostics.length > 0 && '', verdict);
}

/** A skill that is not served: why, when a rejection explains it. */
export function notServedMessage(name: string, rejections: readonly string[]): string {
  if (rejections.length === 0) return `no skill '${name}'; run pm skills list to see the served skills`;
  return `skill '${name}' is not served: ${rejections[0]}${rejections.length > 1 ? ` (and ${rejections.length - 1} more; run pm skills check)` : ''}`;
}
