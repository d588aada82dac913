import type { PmSkillOriginKind } from './diagnostics.js';
import type { PmSkillFrontMatter } from './json-value.js';
import type { PmSkillTokenEstimate } from './token-estimate.js';

/** The Skills extension id (SEP-2640 "Capability Declaration"). */
export const PM_SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
/** The draft revision pm implements, exactly (seed 000 "Skills over MCP"). */
export const PM_SKILLS_EXTENSION_REVISION = 'SEP-2640@a3e147ca2710f68214247aecc729731ee1ae8d03';
/** The `_meta` key under which a skill entry carries pm's facts about it. */
export const PM_SKILL_META_KEY = 'dev.unbrained.pm/skill';

/**
 * Skill text is guidance for a model, never permission: it does not authorize running a
 * command or mutating the tracker, whatever it says (seed 000 "Skills over MCP"). Every skill
 * carries this marker, package skills and workspace overrides alike (overrides inherit nothing).
 */
export type PmSkillTrust = 'untrusted';

/** The package serving a skill and the extension revision its descriptor follows. */
export interface PmSkillCompatibility {
  readonly package: { readonly name: string; readonly version: string };
  readonly mcp: { readonly extension: typeof PM_SKILLS_EXTENSION_ID; readonly revision: typeof PM_SKILLS_EXTENSION_REVISION };
}

/** pm's facts about one skill, beyond what SEP-2640's entry defines. */
export interface PmSkillFacts {
  readonly origin: PmSkillOriginKind;
  /** True when this workspace skill replaces the package skill of the same name. */
  readonly overridesPackage: boolean;
  readonly trust: PmSkillTrust;
  readonly estimatedTokens: PmSkillTokenEstimate;
  /** Sum of the sizes of all its files. */
  readonly totalBytes: number;
  readonly compatibility: PmSkillCompatibility;
}

/** One file of a skill in its entry: exactly `{uri, digest, size}` (SEP-2640 "Resources"). */
export interface PmSkillResourceRef {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/**
 * A skill entry as `skills/list` and `skills/get` return it (SEP-2640 "Enumeration"): the
 * SKILL.md URI, the front matter verbatim, and every file once (SKILL.md first). pm's own
 * facts travel in `_meta` under pm's prefix, leaving the SEP's three fields untouched.
 */
export interface PmSkillEntry {
  readonly uri: string;
  readonly frontmatter: PmSkillFrontMatter;
  readonly resources: readonly PmSkillResourceRef[];
  readonly _meta: { readonly [PM_SKILL_META_KEY]: PmSkillFacts };
}

/** A base MCP `Resource` in the skill namespace (for `resources/list` and directory reads). */
export interface PmSkillResource {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly description?: string;
  readonly size?: number;
}

/** One `resources/read` content item: UTF-8 bodies as `text`, everything else as base64 `blob`. */
export type PmSkillResourceContents =
  | { readonly uri: string; readonly mimeType: string; readonly text: string }
  | { readonly uri: string; readonly mimeType: string; readonly blob: string };

/** `skills/list` body (the caller adds `resultType`, `ttlMs`, `cacheScope`). */
export interface PmSkillsListBody {
  readonly skills: readonly PmSkillEntry[];
  readonly nextCursor?: string;
}

/** `skills/get` body. */
export interface PmSkillsGetBody {
  readonly skill: PmSkillEntry;
}

/** `resources/read` body for a skill file: exactly one content item. */
export interface PmSkillReadBody {
  readonly contents: readonly [PmSkillResourceContents];
}

/** `resources/directory/read` body, and one page of the skill part of `resources/list`. */
export interface PmSkillResourcePage {
  readonly resources: readonly PmSkillResource[];
  readonly nextCursor?: string;
}
