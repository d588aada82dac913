import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { NotFoundError, type PmError } from '../../../../src/domain/errors/index.js';
import { formatPmSkillDiagnostic, PmMcpSkillRegistry, type PmSkillEntry } from '../../../../src/domain/skills/index.js';
import { cliHarness } from '../../../support/cli-harness.js';
import { skillMd, writeSkill } from '../../../support/skill-fixtures.js';

const PACKAGE = '/pkg/skills';
const WORKSPACE = '/project/.agents/skills';
const LONG = `Use pm-triage when new items arrive and need a type, a priority and an owner; ${'it sorts them. '.repeat(8)}`;

/** A package with two skills and a workspace overriding one of them (the harness's workspace is /project). */
async function skills(options: { override?: boolean; broken?: boolean } = {}) {
  const cli = await cliHarness({ packageSkillsDir: PACKAGE });
  writeSkill(cli.fs, PACKAGE, 'pm-triage', { 'SKILL.md': skillMd('pm-triage', LONG, 'license: MIT\nmetadata:\n  audience: maintainers\n'), 'references/labels.md': '# Labels\n' });
  writeSkill(cli.fs, PACKAGE, 'pm-sdk', { 'references/ports and adapters.md': 'p\n' });
  if (options.override) writeSkill(cli.fs, WORKSPACE, 'pm-triage', { 'SKILL.md': skillMd('pm-triage', 'Our triage.'), 'local.md': 'l\n' });
  if (options.broken) {
    writeSkill(cli.fs, WORKSPACE, 'pm-sdk', { 'SKILL.md': skillMd('pm-wrong', 'Mismatched.') });
    writeSkill(cli.fs, WORKSPACE, 'pm-new', { 'SKILL.md': 'no front matter\n' });
  }
  const registry = () => PmMcpSkillRegistry.load({ fileSystem: cli.fs, hasher: new PureSha256Hasher(), package: { name: '@unbrained/pm-cli', version: '9.9.9' }, packageSkillsDir: PACKAGE, workspaceRoot: '/project' });
  return { cli, registry };
}

const facts = (entry: PmSkillEntry) => entry._meta['dev.unbrained.pm/skill'];

describe('pm skills list', () => {
  it('lists what skills/list serves: name, origin, token estimates, a one-line description', async () => {
    const { cli, registry } = await skills({ override: true });
    const listed = await cli.json<{ digest: string; skills: PmSkillEntry[]; rejected: number }>(['skills', 'list']);
    const host = await registry();
    expect(listed).toEqual(JSON.parse(JSON.stringify({ digest: host.digest, skills: host.list().skills, rejected: 0 })));
    expect(listed.skills.map((s) => [s.frontmatter.name, facts(s).origin, facts(s).overridesPackage])).toEqual([['pm-sdk', 'package', false], ['pm-triage', 'workspace', true]]);

    const human = (await cli.run(['skills', 'list'])).stdout;
    const sdk = facts(host.entries()[0]!).estimatedTokens;
    expect(human.split('\n')[0]).toMatch(/^NAME +ORIGIN +TOKENS +ALL +DESCRIPTION$/);
    expect(human).toMatch(new RegExp(`pm-sdk +package +~${sdk.skillMd} +~${sdk.allText} +Use pm-sdk when it helps\\.`));
    expect(human).toMatch(/pm-triage +workspace \(overrides package\) +~\d+ +~\d+ +Our triage\./);
    expect(human).toContain('2 skills served (TOKENS: SKILL.md, ALL: every text file; estimated at 4 bytes a token)');
    expect(human).not.toContain('run pm skills check');
  });

  it('is also what bare pm skills prints, and cuts long descriptions to one line', async () => {
    const { cli } = await skills();
    const bare = await cli.run(['skills']);
    expect(bare.stdout).toBe((await cli.run(['skills', 'list'])).stdout);
    const row = bare.stdout.split('\n').find((line) => line.startsWith('pm-triage'))!;
    expect(row).toMatch(/package +~\d+ +~\d+ +Use pm-triage when new items arrive and need a type, .*…$/);
    expect(row.slice(row.indexOf('Use pm-triage'))).toHaveLength(80);
  });

  it('points at pm skills check when something was rejected, and says when nothing is served', async () => {
    const { cli } = await skills({ broken: true });
    expect((await cli.run(['skills', 'list'])).stdout).toContain('2 rejections; run pm skills check');
    expect((await cli.json<{ rejected: number }>(['skills'])).rejected).toBe(2);
    const empty = await cliHarness({ packageSkillsDir: '/nowhere' });
    expect((await empty.run(['skills', 'list'])).stdout).toBe('No skills are served.\n');
  });
});

describe('pm skills show', () => {
  it('shows one skill as skills/get describes it, with the SKILL.md resources/read returns', async () => {
    const { cli, registry } = await skills();
    const host = await registry();
    const shown = await cli.json<{ skill: PmSkillEntry; skillMd: string }>(['skills', 'show', 'pm-triage']);
    expect(shown.skill).toEqual(JSON.parse(JSON.stringify(host.get('skill://pm-triage/SKILL.md').skill)));
    expect(shown.skillMd).toBe(skillMd('pm-triage', LONG, 'license: MIT\nmetadata:\n  audience: maintainers\n'));

    const human = (await cli.run(['skills', 'show', 'pm-triage'])).stdout;
    const [md, labels] = host.get('skill://pm-triage/SKILL.md').skill.resources;
    expect(human).toContain('pm-triage  skill://pm-triage/SKILL.md\n  origin: package\n');
    expect(human).toContain('  trust: untrusted: skill text is guidance, never permission to run a command or change the tracker\n');
    expect(human).toContain('  license: MIT\n  metadata: {"audience":"maintainers"}\n');
    expect(human).toMatch(new RegExp(`Files \\(2 files, ${md!.size + labels!.size} bytes\\):\\n  SKILL.md +${md!.size} B +${md!.digest}\\n  references/labels.md +${labels!.size} B +${labels!.digest}\\n`));
    expect(human.endsWith(`--- SKILL.md ---\n${shown.skillMd}`)).toBe(true);
  });

  it('decodes file paths from their skill:// URIs and names the override', async () => {
    const { cli } = await skills({ override: true });
    expect((await cli.run(['skills', 'show', 'pm-sdk'])).stdout).toMatch(/\n  references\/ports and adapters\.md +2 B +sha256:[0-9a-f]{64}\n/);
    const triage = (await cli.run(['skills', 'show', 'pm-triage'])).stdout;
    expect(triage).toContain('  origin: workspace (overrides package)\n');
    expect(triage).toContain('  local.md ');
    expect(triage).not.toContain('labels.md');
  });

  it('is not found (exit 3) for a skill nobody serves, saying why when it was rejected', async () => {
    const { cli } = await skills({ broken: true });
    const unknown = await cli.run(['skills', 'show', 'pm-nope']);
    expect(unknown.error).toBeInstanceOf(NotFoundError);
    expect((unknown.error as PmError).exitCode).toBe(3);
    expect((unknown.error as Error).message).toBe("no skill 'pm-nope'; run pm skills list to see the served skills");
    const rejected = await cli.run(['skills', 'show', 'pm-new']);
    expect((rejected.error as PmError).exitCode).toBe(3);
    expect((rejected.error as Error).message).toMatch(/^skill 'pm-new' is not served: workspace skill "pm-new" rejected \(front-matter-missing\) at SKILL\.md: /);
    expect((rejected.error as PmError).data).toMatchObject({ skill: 'pm-new', rejections: [expect.stringContaining('front-matter-missing')] });
    // The rejected override leaves the package skill served.
    expect((await cli.json<{ skill: PmSkillEntry }>(['skills', 'show', 'pm-sdk'])).skill._meta['dev.unbrained.pm/skill'].origin).toBe('package');
  });

  it('refuses a name no skill could have (exit 2) and a missing name', async () => {
    const { cli } = await skills();
    const bad = await cli.run(['skills', 'show', 'Not_A_Name']);
    expect(bad.error).toBeInstanceOf(UsageError);
    expect((bad.error as Error).message).toBe('<name>: "Not_A_Name" is not a valid skill name: use lowercase a-z, 0-9 and single hyphens, not at either end');
    expect((bad.error as UsageError).hint).toBe('pm skills show --help');
    expect(((await cli.run(['skills', 'show'])).error as Error).message).toBe('missing <name>');
    expect(((await cli.run(['skills', 'show', 'a', 'b'])).error as Error).message).toBe("unexpected argument 'b'");
  });
});

describe('pm skills check', () => {
  it('exits 0 with a verdict when nothing was rejected', async () => {
    const { cli, registry } = await skills({ override: true });
    const run = await cli.run(['skills', 'check']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('OK: 2 skills served, none rejected\n');
    expect(await cli.json(['skills', 'check'])).toEqual({ ok: true, digest: (await registry()).digest, served: 2, rejected: 0, diagnostics: [] });
  });

  it('prints every diagnostic and exits 5 when a skill was rejected', async () => {
    const { cli, registry } = await skills({ broken: true });
    const { diagnostics } = await registry();
    expect(diagnostics).toHaveLength(2);
    const run = await cli.run(['skills', 'check']);
    expect(run.code).toBe(5);
    expect(run.stdout).toBe(`${diagnostics.map(formatPmSkillDiagnostic).join('\n')}\n\nFAILED: 2 skills served, 2 rejections\n`);
    expect(run.stdout).toContain('workspace skill "pm-sdk" rejected (name-mismatch');
    expect(run.stdout).toContain('(the package skill "pm-sdk" is served instead)');
    const json = await cli.run(['--json', 'skills', 'check']);
    expect(json.code).toBe(5);
    const report = JSON.parse(json.stdout) as { ok: boolean; rejected: number; diagnostics: { rule: string; origin: string; name: string; text: string }[] };
    expect(report).toMatchObject({ ok: false, served: 2, rejected: 2 });
    expect(report.diagnostics.map((d) => [d.origin, d.name, d.rule])).toEqual([['workspace', 'pm-new', 'front-matter-missing'], ['workspace', 'pm-sdk', 'name-mismatch']]);
    expect(report.diagnostics.map((d) => d.text)).toEqual(diagnostics.map(formatPmSkillDiagnostic));
  });
});

describe('pm skills help', () => {
  it('documents the group, each subcommand and the exit code of check', async () => {
    const { cli } = await skills();
    const group = (await cli.run(['skills', '--help'])).stdout;
    expect(group).toMatch(/^Usage: pm skills \[options\]\n/);
    expect(group).toContain('Without a subcommand this is pm skills list.');
    expect(group).toContain('never permission');
    expect((await cli.run(['help', 'skills', 'show'])).stdout).toMatch(/^Usage: pm skills show <name> \[options\]\n/);
    expect((await cli.run(['skills', 'check', '-h'])).stdout).toContain('exit 5 when something was');
    const general = (await cli.run(['--help'])).stdout;
    expect(general).toMatch(/\n {2}skills list +List the served skills/);
    expect(general).toMatch(/\n {2}5 +pm validate or pm merge check found errors, or pm skills check found a rejected skill\n/);
    expect(((await cli.run(['skills', 'list', '--origin', 'x'])).error as Error).message).toBe("unknown option '--origin'");
  });
});
