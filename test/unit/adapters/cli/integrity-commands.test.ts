import { ValidationError } from '../../../../src/domain/errors/index.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { ListResult } from '../../../../src/domain/tracker/list-query.js';
import type { MutationResult } from '../../../../src/domain/tracker/receipt.js';
import { cliHarness } from '../../../support/cli-harness.js';
import { ROOT } from '../../../support/memory-tracker.js';

type Result = MutationResult<Item>;

describe('pm list filters', () => {
  it('exits 2 for an unknown status or type, naming the allowed values', async () => {
    const cli = await cliHarness();
    await cli.json<Result>(['create', 'A']);
    const status = await cli.run(['list', '--status', 'nope']);
    expect(status.error).toBeInstanceOf(ValidationError);
    expect((status.error as ValidationError).exitCode).toBe(2);
    expect((status.error as Error).message).toBe("unknown status 'nope'; did you mean open? expected one of: draft, open, in_progress, blocked, closed, canceled");
    const type = await cli.run(['list', '--type', 'Bug']);
    expect((type.error as ValidationError).exitCode).toBe(2);
    expect((type.error as Error).message).toMatch(/^unknown type 'Bug'; expected one of: Epic, Feature, Task/);
    expect((await cli.run(['next', '--type', 'Bug'])).error).toBeInstanceOf(ValidationError);
    expect((await cli.run(['search', 'a', '--status', 'nope'])).error).toBeInstanceOf(ValidationError);
  });
});

describe('active blockers in the CLI', () => {
  it('shows "(blocked by X)" only while X is not done', async () => {
    const cli = await cliHarness();
    const a = (await cli.json<Result>(['create', 'First'])).item.id;
    const b = (await cli.json<Result>(['create', 'Second'])).item.id;
    const c = (await cli.json<Result>(['create', 'Third', '--blocked-by', a, '--blocked-by', b])).item.id;
    expect((await cli.run(['list'])).stdout).toContain(`Third  (blocked by ${a}, ${b})`);
    await cli.json(['close', a, '--evidence', 'done']);
    const after = (await cli.run(['list'])).stdout;
    expect(after).toContain(`Third  (blocked by ${b})`);
    await cli.json(['close', b, '--evidence', 'done']);
    const row = (await cli.run(['list'])).stdout.split('\n').find((l) => l.startsWith(c))!;
    expect(row).not.toContain('blocked by');
    expect((await cli.json<ListResult>(['list'])).items[0]).toMatchObject({ id: c, blockedBy: [a, b], activeBlockers: [] });
  });
});

describe('unreadable item files', () => {
  it('are named on stderr by list, search and next, and validate gives file:line:column', async () => {
    const cli = await cliHarness();
    const a = (await cli.json<Result>(['create', 'alpha one'])).item.id;
    await cli.json<Result>(['create', 'alpha two']);
    await cli.fs.writeAtomic(`${ROOT}/items/${a}.md`, `---\nid: ${a}\ntitle: a: b\n---\n`);
    for (const argv of [['list'], ['search', 'alpha'], ['next'], ['--json', 'list']]) {
      const run = await cli.run(argv);
      expect(run.code).toBe(0);
      expect(run.io.stderr).toBe(`pm: 1 item could not be read and is left out: ${a}; run 'pm validate' for the details\n`);
    }
    const validate = await cli.run(['validate']);
    expect(validate.code).toBe(5);
    expect(validate.stdout).toContain(`${ROOT}/items/${a}.md:3:8: YAML error`);
    expect(validate.stdout).not.toMatch(/missing_item|dangling/);
  });
});

describe('pm validate --fix', () => {
  it('settles an interrupted append now and says which items it settled', async () => {
    const cli = await cliHarness();
    const a = (await cli.json<Result>(['create', 'torn'])).item.id;
    await cli.fs.append(`${ROOT}/history/${a}.jsonl`, '{"actor":"alice","at":');
    const warned = await cli.json<{ ok: boolean; findings: { code: string }[] }>(['validate']);
    expect(warned).toMatchObject({ ok: true, findings: [{ code: 'interrupted_append' }] });
    const fixed = await cli.run(['validate', '--fix']);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain(`settled interrupted writes of ${a}`);
    expect(await cli.json(['validate', '--fix'])).toMatchObject({ ok: true, findings: [], repaired: [] });
    expect((await cli.fs.readText(`${ROOT}/history/${a}.jsonl`))!.endsWith('}\n')).toBe(true);
  });
});

describe('warnings and --strict', () => {
  it('warns on stderr when claiming blocked work, and --strict refuses with exit 4', async () => {
    const cli = await cliHarness();
    const a = (await cli.json<Result>(['create', 'First'])).item.id;
    const c = (await cli.json<Result>(['create', 'Later', '--blocked-by', a])).item.id;
    const strict = await cli.run(['claim', c, '--strict']);
    expect((strict.error as { exitCode: number }).exitCode).toBe(4);
    expect((strict.error as Error).message).toMatch(/is blocked by unfinished work/);
    const claimed = await cli.run(['claim', c]);
    expect(claimed.code).toBe(0);
    expect(claimed.io.stderr).toBe(`pm: warning: ${c} is blocked by unfinished work: ${a} (open)\n`);
  });

  it("warns when updating somebody else's claimed item", async () => {
    const cli = await cliHarness();
    const id = (await cli.json<Result>(['create', 'Theirs'])).item.id;
    await cli.json(['claim', id, '--actor', 'bob']);
    const updated = await cli.run(['update', id, '-p', '0']);
    expect(updated.io.stderr).toMatch(new RegExp(`^pm: warning: ${id} is claimed by bob until \\S+; you are changing their work\\n$`));
    const json = await cli.run(['--json', 'update', id, '-p', '1']);
    expect((JSON.parse(json.stdout) as Result).warnings).toHaveLength(1);
    expect(((await cli.run(['update', id, '-p', '2', '--strict'])).error as { exitCode: number }).exitCode).toBe(4);
  });
});
