import { MemoryFileSystem } from '../../src/adapters/memory/memory-file-system.js';
import { PureSha256Hasher } from '../../src/adapters/memory/pure-hasher.js';
import { PmMcpSkillRegistry, type PmSkillDiagnostic, type PmSkillRegistryOptions } from '../../src/domain/skills/index.js';

/** Skill trees in the in-memory file system, and registries loaded over them. */

export const PKG = Object.freeze({ name: '@unbrained/pm-cli', version: '0.1.0' });
export const PACKAGE_DIR = '/pkg/skills';
export const REPO = '/repo';
export const WORKSPACE_DIR = '/repo/.agents/skills';

const encoder = new TextEncoder();

/** A minimal valid SKILL.md; `extra` is more front matter lines (each ending in a newline). */
export function skillMd(name: string, description = `Use ${name} when it helps.`, extra = '', body = `# ${name}\n\nGuidance.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`;
}

/** Writes a skill directory: SKILL.md (unless given in files) plus files (text or bytes). */
export function writeSkill(fs: MemoryFileSystem, root: string, name: string, files: Record<string, string | Uint8Array> = {}): void {
  const all: Record<string, string | Uint8Array> = { 'SKILL.md': skillMd(name), ...files };
  for (const [path, content] of Object.entries(all)) fs.writeBytes(`${root}/${name}/${path}`, typeof content === 'string' ? encoder.encode(content) : content);
}

/** A file of `size` zero bytes (cheap to allocate, never read in the metadata-only tests). */
export function zeros(size: number): Uint8Array {
  return new Uint8Array(size);
}

export function load(fs: MemoryFileSystem, options: Partial<PmSkillRegistryOptions> = {}): Promise<PmMcpSkillRegistry> {
  return PmMcpSkillRegistry.load({ fileSystem: fs, hasher: new PureSha256Hasher(), package: PKG, packageSkillsDir: PACKAGE_DIR, workspaceRoot: REPO, ...options });
}

/** The served names, in listing order. */
export function names(registry: PmMcpSkillRegistry): string[] {
  return registry.entries().map((e) => e.frontmatter.name as string);
}

/** Diagnostics as `origin:name:rule` strings, for compact assertions. */
export function rules(registry: PmMcpSkillRegistry): string[] {
  return registry.diagnostics.map((d: PmSkillDiagnostic) => `${d.origin}:${d.name ?? '*'}:${d.rule}`);
}

export function newFs(): MemoryFileSystem {
  return new MemoryFileSystem();
}
