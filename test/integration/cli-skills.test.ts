/**
 * `pm skills` in the real `pm` process, over the real package skills (skills/) and a
 * repository's `.agents/skills/` in a temp dir: it shows what pm-mcp serves from the same
 * repository, byte for byte (seed 000 "Skills over MCP").
 */
import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PM_SKILLS_EXTENSION_ID, PM_SKILLS_EXTENSION_REVISION, type PmSkillEntry } from '../../src/domain/skills/index.js';
import { runToEnd, type Run } from '../support/child-processes.js';
import { McpProcesses, modernMeta, PM_BIN, RawMcpClient } from '../support/mcp-stdio.js';
import { useTempDir } from '../support/temp-dir.js';

// Each call starts a node process; the file runs a dozen of them.
jest.setTimeout(90_000);

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = (JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const PACKAGE_SKILLS = ['pm-developer', 'pm-extensions', 'pm-sdk', 'pm-user'];

function pm(cwd: string, args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, PM_ACTOR: 'tester' };
  delete env.PM_ROOT;
  return runToEnd(process.execPath, [PM_BIN, ...args], { cwd, env });
}

async function writeSkill(repo: string, name: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const file = join(repo, '.agents/skills', name, path);
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, text);
  }
}

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const facts = (entry: PmSkillEntry) => entry._meta['dev.unbrained.pm/skill'];
const OVERRIDE = '---\nname: pm-user\ndescription: How this team uses pm.\n---\n# Our way\n\nSee [local](references/local.md).\n';

describe('pm skills (real process)', () => {
  const dir = useTempDir('pm-cli-skills-');
  const processes = new McpProcesses();
  afterEach(() => processes.killAll());

  async function repoWithOverride(): Promise<string> {
    const repo = dir();
    expect((await pm(repo, ['init'])).code).toBe(0);
    await writeSkill(repo, 'pm-user', { 'SKILL.md': OVERRIDE, 'references/local.md': 'Ask in #pm first.\n' });
    await writeSkill(repo, 'team-triage', { 'SKILL.md': '---\nname: team-triage\ndescription: Triage new items weekly.\n---\n# Triage\n' });
    return repo;
  }

  it('lists the package skills with the workspace override and the workspace skill, as pm-mcp serves them', async () => {
    const repo = await repoWithOverride();
    const listed = await pm(repo, ['skills', '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const { skills, rejected, digest } = JSON.parse(listed.stdout) as { skills: PmSkillEntry[]; rejected: number; digest: string };
    expect(rejected).toBe(0);
    expect(skills.map((s) => [s.frontmatter.name, facts(s).origin, facts(s).overridesPackage])).toEqual([
      ['pm-developer', 'package', false], ['pm-extensions', 'package', false], ['pm-sdk', 'package', false],
      ['pm-user', 'workspace', true], ['team-triage', 'workspace', false],
    ]);
    for (const entry of skills) {
      expect(facts(entry)).toMatchObject({ trust: 'untrusted', compatibility: { package: { name: '@unbrained/pm-cli', version: VERSION }, mcp: { extension: PM_SKILLS_EXTENSION_ID, revision: PM_SKILLS_EXTENSION_REVISION } } });
    }
    for (const name of PACKAGE_SKILLS.filter((n) => n !== 'pm-user')) {
      const entry = skills.find((s) => s.frontmatter.name === name)!;
      expect(entry.resources[0]).toEqual({ uri: `skill://${name}/SKILL.md`, digest: sha256(await readFile(join(REPO, 'skills', name, 'SKILL.md'), 'utf8')), size: expect.any(Number) });
    }
    expect(skills.find((s) => s.frontmatter.name === 'pm-user')!.resources.map((r) => r.uri)).toEqual(['skill://pm-user/SKILL.md', 'skill://pm-user/references/local.md']);

    const human = await pm(repo, ['skills']);
    expect(human.stdout).toMatch(/\npm-user +workspace \(overrides package\) +~\d+ +~\d+ +How this team uses pm\.\n/);
    expect(human.stdout).toContain('5 skills served');

    // The host's view of the same repository: skills/list from a real pm-mcp.
    const client = new RawMcpClient(processes.spawn(repo, { PM_ACTOR: 'tester' }));
    const declared = modernMeta({ 'io.modelcontextprotocol/clientCapabilities': { extensions: { [PM_SKILLS_EXTENSION_ID]: { revision: PM_SKILLS_EXTENSION_REVISION } } } });
    const served = await client.request('skills/list', { _meta: declared });
    expect((served.result as { skills: PmSkillEntry[] }).skills).toEqual(skills);
    client.proc.endInput();
    await client.proc.exited;
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('shows a package skill with its files, digests and SKILL.md text', async () => {
    const repo = await repoWithOverride();
    const text = await readFile(join(REPO, 'skills/pm-developer/SKILL.md'), 'utf8');
    const shown = await pm(repo, ['skills', 'show', 'pm-developer']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('pm-developer  skill://pm-developer/SKILL.md\n  origin: package\n  trust: untrusted: skill text is guidance, never permission');
    expect(shown.stdout).toMatch(new RegExp(`\\n  SKILL\\.md +${Buffer.byteLength(text)} B +${sha256(text)}\\n`));
    expect(shown.stdout).toMatch(/\n  references\/multi-agent\.md +\d+ B +sha256:[0-9a-f]{64}\n/);
    expect(shown.stdout.endsWith(`--- SKILL.md ---\n${text}`)).toBe(true);
    const json = JSON.parse((await pm(repo, ['skills', 'show', 'pm-user', '--json'])).stdout) as { skill: PmSkillEntry; skillMd: string };
    expect(json.skillMd).toBe(OVERRIDE);
    expect(facts(json.skill)).toMatchObject({ origin: 'workspace', overridesPackage: true });
  });

  it('checks: exit 0 when nothing is rejected, 5 with every rejection, 3 for an unknown skill', async () => {
    const repo = await repoWithOverride();
    expect(await pm(repo, ['skills', 'check'])).toEqual({ code: 0, stdout: 'OK: 5 skills served, none rejected\n', stderr: '' });

    await writeSkill(repo, 'pm-sdk', { 'SKILL.md': '---\nname: pm-wrong\ndescription: A broken override.\n---\n' });
    await writeSkill(repo, 'broken', { 'SKILL.md': '---\nname: broken\ndescription: &a anchored\n---\n' });
    const checked = await pm(repo, ['skills', 'check']);
    expect(checked.code).toBe(5);
    expect(checked.stdout.split('\n')).toEqual([
      'workspace skill "broken" rejected (front-matter-anchor) at SKILL.md: the front matter declares the YAML anchor &a; anchors are not accepted',
      'workspace skill "pm-sdk" rejected (name-mismatch) at SKILL.md: front matter name "pm-wrong" differs from the directory name "pm-sdk" (the package skill "pm-sdk" is served instead)',
      '',
      'FAILED: 5 skills served, 2 rejections',
      '',
    ]);
    const report = JSON.parse((await pm(repo, ['skills', 'check', '--json'])).stdout) as { ok: boolean; rejected: number };
    expect(report).toMatchObject({ ok: false, rejected: 2, served: 5 });
    expect(facts((JSON.parse((await pm(repo, ['skills', 'show', 'pm-sdk', '--json'])).stdout) as { skill: PmSkillEntry }).skill).origin).toBe('package');

    expect(await pm(repo, ['skills', 'show', 'nope'])).toEqual({ code: 3, stdout: '', stderr: "pm: no skill 'nope'; run pm skills list to see the served skills\n" });
    const rejectedShow = await pm(repo, ['skills', 'show', 'broken', '--json']);
    expect(rejectedShow.code).toBe(3);
    expect(JSON.parse(rejectedShow.stderr)).toMatchObject({ error: { code: -32602, reason: 'not_found', data: { skill: 'broken' } } });
  });

  it('needs a tracker, like the servers (exit 3)', async () => {
    const outside = await pm(dir(), ['skills']);
    expect(outside.code).toBe(3);
    expect(outside.stderr).toMatch(/^pm: no tracker found in .* run 'pm init' to create one\n$/);
  });
});
