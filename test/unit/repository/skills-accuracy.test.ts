/**
 * The package's skills (skills/, seed 000 "Skills over MCP") say only what is true of this
 * repository: every command, flag, tool, tool argument, SDK export, environment variable and
 * link they mention in code exists (test/support/skill-accuracy.ts), and the real registry
 * serves all four of them without a rejection.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeFileSystem } from '../../../src/adapters/node/node-file-system.js';
import { NodeHasher } from '../../../src/adapters/node/node-hasher.js';
import { PM_DIRECTORY_MIME_TYPE, PmMcpSkillRegistry } from '../../../src/domain/skills/index.js';
import { checkSkillMarkdown, exportedNames, formatSkillProblem, loadSkillFacts, skillMarkdownFiles, type SkillFacts } from '../../support/skill-accuracy.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SKILLS = join(REPO, 'skills');
const NAMES = ['pm-developer', 'pm-extensions', 'pm-sdk', 'pm-user'];

let facts: SkillFacts;
beforeAll(async () => {
  facts = await loadSkillFacts();
});

const check = (file: string, text: string) => checkSkillMarkdown(SKILLS, file, text, facts).map(formatSkillProblem);

describe('what the facts are read from', () => {
  it('knows every runtime export of the SDK and its type-only exports from the source', async () => {
    const runtime = Object.keys(await import('../../../src/sdk/index.js'));
    expect(runtime.filter((name) => !facts.sdkNames.has(name))).toEqual([]);
    for (const type of ['Transport', 'FileSystem', 'PmMcpServerExtension', 'MutationResult']) {
      expect(facts.sdkNames.has(type)).toBe(true);
      expect(facts.sdkValues.has(type)).toBe(false);
    }
    expect(exportedNames(join(REPO, 'src/ports/transport.ts')).has('TransportPeer')).toBe(true);
  });

  it('reads environment variables, tools and options from the sources', () => {
    for (const name of ['PM_ROOT', 'PM_ACTOR', 'PM_MCP_PROFILE', 'PM_MCP_SKILLS_DECLARATION', 'PM_COMPILE_CACHE']) expect(facts.envVars.has(name)).toBe(true);
    expect(facts.envVars.has('PM_MCP_SUBSCRIPTION_SERVER_OPTIONS')).toBe(false);
    expect(facts.tools.size).toBe(18);
    for (const option of ['expected-revision', 'idempotency-key', 'evidence', 'json']) expect(facts.longOptions.has(option)).toBe(true);
  });
});

describe('the skills in skills/', () => {
  const files = skillMarkdownFiles(SKILLS);

  it('are the four skills, each a SKILL.md with references', () => {
    expect(files.filter((f) => f.endsWith('/SKILL.md'))).toEqual(NAMES.map((n) => `${n}/SKILL.md`));
    expect(files).toContain('README.md');
    for (const name of NAMES) expect(files.filter((f) => f.startsWith(`${name}/references/`)).length).toBeGreaterThan(0);
  });

  it.each(skillMarkdownFiles(SKILLS))('%s mentions only what exists', (file) => {
    expect(check(file, readFileSync(join(SKILLS, file), 'utf8'))).toEqual([]);
  });

  it('link every reference file from their SKILL.md', () => {
    for (const name of NAMES) {
      const skillMd = readFileSync(join(SKILLS, name, 'SKILL.md'), 'utf8');
      const unlinked = files.filter((f) => f.startsWith(`${name}/references/`)).filter((f) => !skillMd.includes(`(${f.slice(name.length + 1)})`));
      expect(unlinked).toEqual([]);
    }
  });

  it('load with the real registry over the real files: four skills, no rejection, each with a subdirectory', async () => {
    const registry = await PmMcpSkillRegistry.load({ fileSystem: new NodeFileSystem(), hasher: new NodeHasher(), package: { name: '@unbrained/pm-cli', version: '0.0.0-test' }, packageSkillsDir: SKILLS });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.size).toBe(4);
    const entries = registry.entries();
    expect(entries.map((e) => e.frontmatter.name)).toEqual(NAMES);
    for (const entry of entries) {
      const root = entry.uri.replace(/\/SKILL\.md$/, '');
      expect(registry.readDirectory(root).resources.filter((r) => r.mimeType === PM_DIRECTORY_MIME_TYPE).map((r) => r.name)).toEqual(['references']);
      expect(entry.frontmatter).toMatchObject({ license: 'MIT' });
      expect(Object.values(entry.frontmatter.metadata as Record<string, unknown>).every((v) => typeof v === 'string')).toBe(true);
      expect((entry.frontmatter.description as string).length).toBeLessThanOrEqual(1024);
      // SKILL.md is what activating a skill loads: it stays short, the references hold the details.
      expect(entry._meta['dev.unbrained.pm/skill'].estimatedTokens.skillMd).toBeLessThan(1200);
    }
    // The conformance directory scenario reads the root of the first listed skill and needs a subdirectory there.
    const first = registry.list({ limit: 1 }).skills[0]!;
    expect(first.frontmatter.name).toBe('pm-developer');
    expect(registry.readDirectory('skill://pm-developer').resources).toContainEqual(expect.objectContaining({ uri: 'skill://pm-developer/references', mimeType: PM_DIRECTORY_MIME_TYPE }));
  });
});

describe('the checker (negative controls)', () => {
  const fake = [
    'Run `pm frobnicate` or `pm list --no-such-flag`, or pass `--no-such-flag` alone.',
    'Use `pm_nope`, `NotAnExport`, `notAnExport()`, `NOT_AN_EXPORT` and `PM_NOPE`.',
    'Claim with `pm claim --lease 30`, then `pm skills frobnicate`, `pm_claim {"id": "pm-a1b2c3", "holder": "x"}`, `pm_close {"id": "pm-a1b2c3"}`.',
    'Pinned: `SEP-2640@deadbeef`. See [missing](references/missing.md) and [elsewhere](../pm-sdk/SKILL.md).',
    '```ts',
    "import { Tracker, NotAnExport, type Transport, Transport as T } from '@unbrained/pm-cli/sdk';",
    "import { main } from '@unbrained/pm-cli/dist/composition/cli-main.js';",
    '```',
    '```sh',
    'PM_ACTOR=bot pm list --json | pm frobnicate --x',
    '```',
    '```json',
    '{ "name": "pm_get", "arguments": { "id": "pm-a1b2c3", "comment": 3 } }',
    '```',
    '```json',
    '{ not json }',
    '```',
  ].join('\n');

  it('reports every fake mention, and only those', () => {
    expect(check('pm-user/fake.md', fake)).toEqual([
      'pm-user/fake.md:6: NotAnExport: not a runtime export of @unbrained/pm-cli/sdk',
      'pm-user/fake.md:6: Transport: not a runtime export of @unbrained/pm-cli/sdk',
      'pm-user/fake.md:7: @unbrained/pm-cli/dist/composition/cli-main.js: the package exports only @unbrained/pm-cli/sdk (and package.json)',
      "pm-user/fake.md:10: pm frobnicate --x: unknown command 'frobnicate'",
      'pm-user/fake.md:13: pm_get {"id":"pm-a1b2c3","comment":3}: unknown arguments comment; pm_get takes id, comments',
      expect.stringMatching(/^pm-user\/fake\.md:16: json block: does not parse: /),
      "pm-user/fake.md:1: pm frobnicate: unknown command 'frobnicate'",
      "pm-user/fake.md:1: pm list --no-such-flag: unknown option '--no-such-flag'",
      'pm-user/fake.md:1: --no-such-flag: no pm command has this option',
      'pm-user/fake.md:2: pm_nope: not a tool of the catalogue',
      'pm-user/fake.md:2: NotAnExport: NotAnExport is not exported by @unbrained/pm-cli/sdk',
      'pm-user/fake.md:2: notAnExport(): notAnExport is not exported by @unbrained/pm-cli/sdk',
      'pm-user/fake.md:2: NOT_AN_EXPORT: NOT_AN_EXPORT is not exported by @unbrained/pm-cli/sdk',
      'pm-user/fake.md:2: PM_NOPE: neither an environment variable pm reads nor an SDK export',
      'pm-user/fake.md:3: pm claim --lease 30: missing <id...> (or --filter)',
      "pm-user/fake.md:3: pm skills frobnicate: unexpected argument 'frobnicate'",
      'pm-user/fake.md:3: pm_claim {"id":"pm-a1b2c3","holder":"x"}: unknown arguments holder; pm_claim takes id, leaseMinutes, leaseSeconds, force, renew, expectedRevision, idempotencyKey',
      expect.stringMatching(/^pm-user\/fake\.md:3: pm_close \{"id":"pm-a1b2c3"\}: rejected by the tool's schema: /),
      'pm-user/fake.md:4: SEP-2640@deadbeef: pm serves SEP-2640@a3e147ca2710f68214247aecc729731ee1ae8d03',
      'pm-user/fake.md:4: references/missing.md: the link names no file',
      'pm-user/fake.md:4: ../pm-sdk/SKILL.md: the link leaves the skill (an MCP host resolves it inside skill://<name>/)',
    ]);
  });

  it('accepts the true counterparts of the same mentions', () => {
    const real = [
      'Run `pm skills show pm-user`, `pm close <id> --evidence "commit 4f2a9c1"`, `pm claim`, `--expected-revision N`, `pm --version`.',
      'Use `pm_claim {"id": "pm-a1b2c3", "leaseMinutes": 30}`, `MemoryTransport`, `Tracker.open`, `initTracker()`, `MCP_TASKS_EXTENSION_ID`, `PM_ROOT`, `PM_MCP_PROTOCOL_VERSION`, `tracker.create()`, `SKILL.md`.',
      'See [the CLI](references/cli.md) and [this](#top).',
      '```ts',
      "import { Tracker, type Transport, type MutationResult } from '@unbrained/pm-cli/sdk';",
      '```',
      '```sh',
      'PM_ACTOR=bot pm list --json | head -1   # pm_context is the MCP twin',
      'pm comment pm-a1b2c3 - < notes.md',
      '```',
    ].join('\n');
    expect(check('pm-user/real.md', real)).toEqual([]);
  });
});
