import type { FileSystem, RawFileRead } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import { decodeUtf8Exactly } from './byte-codec.js';
import { accepted, rejected, type PmSkillOriginKind, type PmSkillOutcome } from './diagnostics.js';
import { parsePmSkillFrontMatter } from './front-matter.js';
import type { PmSkillFrontMatter } from './json-value.js';
import type { PmSkillLimits } from './limits.js';
import { PM_SKILL_MD_MIME_TYPE, pmSkillFileIsText, pmSkillFileMimeType } from './mime-types.js';
import { pmSkillDigest } from './skill-digest.js';
import { checkPmSkillMd } from './skill-md.js';
import type { PmPlannedFile, PmSkillPlan } from './skill-plan.js';
import { pmSkillFileUri } from './skill-uri.js';

/** One served file: its bytes as read, and everything derived from exactly those bytes. */
export interface PmSkillFile {
  readonly path: string;
  readonly uri: string;
  readonly size: number;
  readonly digest: string;
  readonly mimeType: string;
  /** Served as `text` (valid UTF-8 of a non-binary type) or as base64 `blob`. */
  readonly isText: boolean;
  readonly bytes: Uint8Array;
}

/** A skill whose bodies were read and checked. */
export interface PmLoadedSkill {
  readonly name: string;
  readonly origin: PmSkillOriginKind;
  readonly frontMatter: PmSkillFrontMatter;
  readonly description: string;
  /** SKILL.md first, then the rest by path. */
  readonly files: readonly PmSkillFile[];
  readonly directories: readonly string[];
  readonly totalBytes: number;
}

/**
 * Reads a planned skill's bodies. SKILL.md comes first and is checked before any other body is
 * read (a malformed one costs one read). Each read is held to the node and size the plan
 * reserved, so the bytes digested are bytes the budget covered; a file that changed in
 * between rejects the skill (`changed`) rather than serving bytes the plan never saw. All of a
 * skill's bodies are packed into one buffer of the reserved size (one allocation per skill
 * instead of one per file, which about halves what small files cost in memory).
 */
export async function readPmSkill(fs: FileSystem, hasher: Hasher, plan: PmSkillPlan, origin: PmSkillOriginKind, limits: PmSkillLimits): Promise<PmSkillOutcome<PmLoadedSkill>> {
  const [skillMdPlan, ...rest] = plan.files;
  const store = new PackedBodies(plan.totalBytes);
  const skillMd = await readPlanned(fs, skillMdPlan!, store);
  if (!skillMd.ok) return skillMd;
  const text = decodeUtf8Exactly(skillMd.value);
  if (text === undefined) return rejected('skill-md-encoding', 'SKILL.md', 'SKILL.md is not valid UTF-8');
  const front = parsePmSkillFrontMatter(text, limits.maxFrontMatterBytes);
  if (!front.ok) return front;
  const checked = checkPmSkillMd(front.value, plan.name);
  if (!checked.ok) return checked;
  const files: PmSkillFile[] = [fileRecord(hasher, plan.name, skillMdPlan!, skillMd.value, PM_SKILL_MD_MIME_TYPE, true)];
  for (const planned of rest) {
    const bytes = await readPlanned(fs, planned, store);
    if (!bytes.ok) return bytes;
    const utf8 = decodeUtf8Exactly(bytes.value) !== undefined;
    const fileName = planned.path.slice(planned.path.lastIndexOf('/') + 1);
    files.push(fileRecord(hasher, plan.name, planned, bytes.value, pmSkillFileMimeType(fileName, utf8), pmSkillFileIsText(fileName, utf8)));
  }
  return accepted({ name: plan.name, origin, frontMatter: front.value, description: checked.value.description, files, directories: plan.directories, totalBytes: plan.totalBytes });
}

/**
 * One buffer holding a skill's bodies back to back; each file is a view of its part. It has one
 * spare byte at the end, so every read can ask for one byte more than its file (the probe that
 * proves the file did not grow spills into the next file's part, which its own read overwrites).
 */
class PackedBodies {
  private readonly buffer: Uint8Array;
  private used = 0;

  constructor(size: number) {
    this.buffer = new Uint8Array(size + 1);
  }

  /** Where the next file of `size` bytes is read to (its part plus the probe byte). */
  target(size: number): Uint8Array {
    return this.buffer.subarray(this.used, this.used + size + 1);
  }

  /** Keeps bytes (read into {@link target}, or copied when the adapter ignored it) and returns their view. */
  keep(bytes: Uint8Array): Uint8Array {
    const view = this.buffer.subarray(this.used, this.used + bytes.length);
    if (bytes.buffer !== view.buffer || bytes.byteOffset !== view.byteOffset) view.set(bytes);
    this.used += bytes.length;
    return view;
  }
}

async function readPlanned(fs: FileSystem, planned: PmPlannedFile, store: PackedBodies): Promise<PmSkillOutcome<Uint8Array>> {
  const read: RawFileRead = await fs.readBytes(planned.absolute, { maxBytes: planned.size, id: planned.id, into: store.target(planned.size) });
  if (read.status === 'refused') {
    if (read.reason === 'symlink') return rejected('symlink', planned.path, 'the file was replaced by a symbolic link');
    return rejected('changed', planned.path, `the file changed after it was measured (${read.reason}); it will be picked up by the next reload`);
  }
  if (read.bytes.length !== planned.size) {
    return rejected('changed', planned.path, `the file changed after it was measured (${planned.size} bytes then, ${read.bytes.length} now)`, planned.size, read.bytes.length);
  }
  return accepted(store.keep(read.bytes));
}

function fileRecord(hasher: Hasher, name: string, planned: PmPlannedFile, bytes: Uint8Array, mimeType: string, isText: boolean): PmSkillFile {
  return Object.freeze({ path: planned.path, uri: pmSkillFileUri(name, planned.path), size: bytes.length, digest: pmSkillDigest(hasher, bytes), mimeType, isText, bytes });
}
