import { deepFreeze } from '../util/canonical-json.js';
import { PM_DIRECTORY_MIME_TYPE, PM_SKILL_MD_MIME_TYPE } from './mime-types.js';
import type { PmResolvedSkill } from './overrides.js';
import type { PmSkillFile } from './skill-reader.js';
import { compare } from './skill-plan.js';
import { pmSkillFileUri } from './skill-uri.js';
import { estimatePmSkillTokens, PM_SKILL_TOKEN_ESTIMATE_METHOD } from './token-estimate.js';
import { PM_SKILL_META_KEY, PM_SKILLS_EXTENSION_ID, PM_SKILLS_EXTENSION_REVISION, type PmSkillCompatibility, type PmSkillEntry, type PmSkillResource } from './types.js';

/** The lookup tables of one immutable registry, all computed once when it is built. */
export interface PmSkillIndex {
  /** By name (the same order as by URI: names are ASCII). */
  readonly entries: readonly PmSkillEntry[];
  readonly entryByUri: ReadonlyMap<string, PmSkillEntry>;
  readonly files: ReadonlyMap<string, PmSkillFile>;
  /** Directory URI to its direct children, by name. */
  readonly directories: ReadonlyMap<string, readonly PmSkillResource[]>;
  /** Each SKILL.md as a `resources/list` item, by name. */
  readonly skillMdResources: readonly PmSkillResource[];
}

/** Builds the index; entries and resource items are deep-frozen, file bytes stay private. */
export function buildPmSkillIndex(skills: readonly PmResolvedSkill[], pkg: { readonly name: string; readonly version: string }): PmSkillIndex {
  const compatibility: PmSkillCompatibility = { package: { name: pkg.name, version: pkg.version }, mcp: { extension: PM_SKILLS_EXTENSION_ID, revision: PM_SKILLS_EXTENSION_REVISION } };
  const entries: PmSkillEntry[] = [];
  const entryByUri = new Map<string, PmSkillEntry>();
  const files = new Map<string, PmSkillFile>();
  const directories = new Map<string, readonly PmSkillResource[]>();
  const skillMdResources: PmSkillResource[] = [];
  for (const resolved of skills) {
    const entry = deepFreeze(entryOf(resolved, compatibility));
    entries.push(entry);
    entryByUri.set(entry.uri, entry);
    for (const file of resolved.skill.files) files.set(file.uri, file);
    for (const [uri, children] of directoriesOf(resolved)) directories.set(uri, deepFreeze(children));
    const skillMd = resolved.skill.files[0]!;
    skillMdResources.push(deepFreeze({ uri: skillMd.uri, name: resolved.skill.name, description: resolved.skill.description, mimeType: PM_SKILL_MD_MIME_TYPE, size: skillMd.size }));
  }
  return { entries: Object.freeze(entries), entryByUri, files, directories, skillMdResources: Object.freeze(skillMdResources) };
}

/**
 * What the registry digest covers: for each entry, its URI, pm's facts, and every file's URI,
 * digest and size. The front matter needs no separate line: it is parsed from SKILL.md, whose
 * digest is listed.
 */
export function pmSkillIndexFingerprint(index: PmSkillIndex): string {
  const lines: string[] = [];
  for (const entry of index.entries) {
    lines.push(`entry ${entry.uri} ${JSON.stringify(entry._meta)}`);
    for (const ref of entry.resources) lines.push(`file ${ref.uri} ${ref.digest} ${ref.size}`);
  }
  return lines.join('\n');
}

function entryOf({ skill, overridesPackage }: PmResolvedSkill, compatibility: PmSkillCompatibility): PmSkillEntry {
  const text = skill.files.filter((f) => f.isText);
  return {
    uri: skill.files[0]!.uri,
    frontmatter: skill.frontMatter,
    resources: skill.files.map((f) => ({ uri: f.uri, digest: f.digest, size: f.size })),
    _meta: {
      [PM_SKILL_META_KEY]: {
        origin: skill.origin,
        overridesPackage,
        trust: 'untrusted',
        estimatedTokens: {
          skillMd: estimatePmSkillTokens(skill.files[0]!.size),
          allText: text.reduce((sum, f) => sum + estimatePmSkillTokens(f.size), 0),
          method: PM_SKILL_TOKEN_ESTIMATE_METHOD,
        },
        totalBytes: skill.totalBytes,
        compatibility,
      },
    },
  };
}

/** Every directory of a skill (its root included) with its direct children's metadata. */
function directoriesOf({ skill }: PmResolvedSkill): Map<string, PmSkillResource[]> {
  const byPath = new Map<string, { uri: string; children: PmSkillResource[] }>([['', { uri: pmSkillFileUri(skill.name, ''), children: [] }]]);
  for (const dir of skill.directories) byPath.set(dir, { uri: pmSkillFileUri(skill.name, dir), children: [] });
  for (const dir of skill.directories) byPath.get(parentOf(dir))!.children.push({ uri: byPath.get(dir)!.uri, name: baseName(dir), mimeType: PM_DIRECTORY_MIME_TYPE });
  for (const file of skill.files) byPath.get(parentOf(file.path))!.children.push({ uri: file.uri, name: baseName(file.path), mimeType: file.mimeType, size: file.size });
  const out = new Map<string, PmSkillResource[]>();
  for (const { uri, children } of byPath.values()) out.set(uri, children.sort((a, b) => compare(a.name, b.name)));
  return out;
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '' : path.slice(0, cut);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
