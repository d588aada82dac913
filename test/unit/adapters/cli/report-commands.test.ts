import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { COMMANDS } from '../../../../src/adapters/cli/registry.js';
import type { HistoryEntry } from '../../../../src/domain/tracker/history.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { NextResult } from '../../../../src/domain/tracker/next-query.js';
import type { MutationResult } from '../../../../src/domain/tracker/receipt.js';
import type { SearchResult } from '../../../../src/domain/tracker/search-query.js';
import type { TrackerContext } from '../../../../src/domain/tracker/tracker.js';
import type { ValidationReport } from '../../../../src/domain/tracker/validate.js';
import { cliHarness } from '../../../support/cli-harness.js';
import { ROOT } from '../../../support/memory-tracker.js';

type Result = MutationResult<Item>;

async function project() {
  const cli = await cliHarness();
  const create = async (...argv: string[]) => (await cli.json<Result>(['create', ...argv])).item.id;
  const login = await create('Fix login redirect', '-p', '1', '--body', 'Safari loses the session cookie', '--tag', 'auth');
  const docs = await create('Write docs', '-p', '1', '--blocked-by', login);
  const cleanup = await create('Clean up logging', '-p', '3', '--tag', 'ops');
  return { cli, login, docs, cleanup };
}

describe('pm next / search / context', () => {
  it('recommends the ready item with a reason', async () => {
    const { cli, login, cleanup } = await project();
    const next = await cli.json<NextResult>(['next']);
    expect(next.item!.id).toBe(login);
    expect(next.rationale).toMatch(/is ready/);
    expect((await cli.json<NextResult>(['next', '--tag', 'ops'])).item!.id).toBe(cleanup);
    expect((await cli.json<NextResult>(['next', '--type', 'Epic'])).item).toBeNull();
    const human = (await cli.run(['next'])).stdout;
    expect(human).toContain(`Next: ${login}  P1  Fix login redirect`);
    expect(human).toContain(`Take it with: pm next --claim (or pm claim ${login})`);
    expect((await cli.run(['next', '--type', 'Epic'])).stdout).toMatch(/^Nothing is ready to start\./);
  });

  it('searches ranked words across fields', async () => {
    const { cli, login } = await project();
    const found = await cli.json<SearchResult>(['search', 'session', 'cookie']);
    expect(found.results.map((r) => r.id)).toEqual([login]);
    expect(found.results[0]!.matchedIn).toEqual(['body']);
    const human = (await cli.run(['search', 'cookie'])).stdout;
    expect(human).toContain(`${login}  P1  open`);
    expect(human).toContain('Safari loses the session cookie');
    expect((await cli.run(['search', 'zebra'])).stdout).toBe('No matches.\n');
    expect(((await cli.run(['search', '--limit', '500', 'x'])).error as Error).message).toMatch(/^--limit: invalid limit '500'/);
    expect(((await cli.run(['search'])).error as Error).message).toBe('missing <words...>');
  });

  it('summarizes the project', async () => {
    const { cli, login } = await project();
    await cli.json(['claim', login]);
    const context = await cli.json<TrackerContext>(['context']);
    expect(context).toMatchObject({ total: 3, byStatus: { open: 2, in_progress: 1 }, claims: [{ id: login, holder: 'alice' }] });
    const human = (await cli.run(['status'])).stdout;
    expect(human).toContain(`Tracker ${ROOT} (prefix pm): 3 items`);
    expect(human).toContain('Active claims:');
  });
});

describe('pm history / validate', () => {
  it('lists every change of an item', async () => {
    const { cli, login } = await project();
    await cli.json(['update', login, '--title', 'Fix the login redirect']);
    const entries = await cli.json<HistoryEntry[]>(['history', login]);
    expect(entries.map((e) => e.op)).toEqual(['create', 'update']);
    const human = (await cli.run(['history', login])).stdout;
    expect(human).toMatch(/#1 +2026-03-01 10:00Z +alice +create +- -> r1 +\(new item\)/);
    expect(human).toMatch(/#2 .* update +r1 -> r2 +title/);
  });

  it('exits 0 with warnings only and 5 when history was tampered with', async () => {
    const { cli, login } = await project();
    await cli.json(['comment', login, 'second history line']);
    expect((await cli.run(['validate'])).code).toBe(0);
    const itemFile = `${ROOT}/items/${login}.md`;
    await cli.fs.writeAtomic(itemFile, (await cli.fs.readText(itemFile))!.replace('Fix login redirect', 'Edited by hand'));
    const warned = await cli.run(['validate', '--json']);
    expect(warned.code).toBe(0);
    expect((JSON.parse(warned.stdout) as ValidationReport).findings.map((f) => f.code)).toEqual(['unrecorded_change']);
    const historyFile = `${ROOT}/history/${login}.jsonl`;
    await cli.fs.writeAtomic(historyFile, (await cli.fs.readText(historyFile))!.replace('"actor":"alice"', '"actor":"mallory"'));
    const failed = await cli.run(['validate']);
    expect(failed.code).toBe(5);
    expect(failed.stdout).toMatch(/error +history_tampered .*line 1: line was altered after it was written/);
    expect(failed.stdout).toMatch(/FAILED: 3 items checked, 1 error, 1 warning\n$/);
  });
});

describe('pm history / update over a forged history', () => {
  it('marks the unverifiable line and refuses the change with exit 7', async () => {
    const { cli, login } = await project();
    await cli.json(['update', login, '-p', '2']);
    await cli.json(['comment', login, 'third line']);
    const historyFile = `${ROOT}/history/${login}.jsonl`;
    const lines = (await cli.fs.readText(historyFile))!.split('\n');
    lines[1] = lines[1]!.replace('"actor":"alice"', '"actor":"mallory"');
    await cli.fs.writeAtomic(historyFile, lines.join('\n'));
    const human = (await cli.run(['history', login])).stdout;
    expect(human).toMatch(/^  ! #2 .* mallory +update/m);
    expect(human).toMatch(/^  {3}#1 .* alice +create/m);
    expect(human).toContain(`! line 2: line was altered after it was written (line 3 records another digest for it)`);
    expect(human).toContain('pm validate');
    const entries = await cli.json<(HistoryEntry & { verified?: boolean })[]>(['history', login]);
    expect(entries.map((e) => e.verified)).toEqual([undefined, false, undefined]);
    const refused = await cli.run(['update', login, '-p', '3']);
    expect((refused.error as { exitCode: number }).exitCode).toBe(7);
    expect((refused.error as Error).message).toMatch(new RegExp(`^refusing to change ${login}: its history does not verify .*line 2`));
  });
});

describe('pm init, help and version', () => {
  it('initializes through the host and reports an existing tracker', async () => {
    const cli = await cliHarness();
    const created = await cli.run(['init', '--prefix', 'web', '--types', 'Feature,Bug']);
    expect(created.stdout).toContain(`Initialized a pm tracker in ${cli.initRoot}`);
    expect((await cli.fs.readText(`${cli.initRoot}/config.yaml`))).toMatch(/idPrefix: web/);
    expect(await cli.json(['init'])).toMatchObject({ created: false, root: cli.initRoot });
    expect(((await cli.run(['init', '--prefix', 'Bad!'])).error as Error).message).toMatch(/^idPrefix: /);
    expect((await cli.fs.readText(`${cli.initRoot}/config.yaml`))).toMatch(/type: Feature/);
  });

  it('has --help for every command, listing every option', async () => {
    const cli = await cliHarness();
    // The completion engine (hidden) takes a half-typed command line, --help included, as its input.
    for (const command of COMMANDS.filter((c) => !c.hidden)) {
      const help = await cli.run([...command.name.split(' '), '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: pm ${command.name}`);
      for (const option of [...Object.keys(command.options), 'json', 'actor', 'root', 'help']) expect(help.stdout).toContain(`--${option}`);
      expect((await cli.run(['help', ...command.name.split(' ')])).stdout).toBe(help.stdout);
    }
    const general = (await cli.run(['--help'])).stdout;
    for (const command of COMMANDS) expect(general.includes(`  ${command.name}`)).toBe(!command.hidden);
    expect(general).toContain('Exit codes:');
    expect((await cli.run(['help'])).stdout).toBe(general);
  });

  it('prints the version', async () => {
    const cli = await cliHarness();
    expect((await cli.run(['--version'])).stdout).toBe('9.9.9\n');
    expect((await cli.run(['list', '--version'])).stdout).toBe('9.9.9\n');
  });

  it('refuses unknown and missing commands with a usage error', async () => {
    const cli = await cliHarness();
    const unknown = await cli.run(['lst']);
    expect(unknown.error).toBeInstanceOf(UsageError);
    expect((unknown.error as Error).message).toBe("unknown command 'lst'; did you mean 'list'?");
    expect(((await cli.run([])).error as UsageError).message).toBe('missing command');
    expect(((await cli.run(['help', 'nope'])).error as UsageError).message).toBe("no help for unknown command 'nope'");
    expect(((await cli.run(['get'])).error as UsageError).hint).toBe('pm get --help');
  });
});
