import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { NodeCliIo } from '../../../../src/adapters/cli/node-cli-io.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { ListResult } from '../../../../src/domain/tracker/list-query.js';
import type { NextResult } from '../../../../src/domain/tracker/next-query.js';
import type { MutationResult } from '../../../../src/domain/tracker/receipt.js';
import type { SearchResult } from '../../../../src/domain/tracker/search-query.js';
import { cliHarness } from '../../../support/cli-harness.js';

type Result = MutationResult<Item>;

describe('flags people reach for', () => {
  it('accepts --title on create as the flag form of the title', async () => {
    const cli = await cliHarness();
    expect((await cli.json<Result>(['create', '--title', 'Flag title', '-p', '1'])).item.title).toBe('Flag title');
    const both = await cli.run(['create', 'Positional', '--title', 'Flag']);
    expect((both.error as Error).message).toBe('give the title once: as <title> or as --title, not both');
    expect(((await cli.run(['create'])).error as Error).message).toBe('missing <title> (or --title)');
  });

  it('suggests --add-tag for --tag on update', async () => {
    const cli = await cliHarness();
    const id = (await cli.json<Result>(['create', 'A'])).item.id;
    const run = await cli.run(['update', id, '--tag', 'x']);
    expect(run.error).toBeInstanceOf(UsageError);
    expect((run.error as Error).message).toBe("unknown option '--tag'; did you mean '--add-tag'? (--tags replaces every tag)");
  });

  it('--mine lists and picks the items assigned to the current actor', async () => {
    const cli = await cliHarness();
    const mine = (await cli.json<Result>(['create', 'Mine', '--assignee', 'alice', '-p', '3'])).item.id;
    await cli.json<Result>(['create', 'Theirs', '--assignee', 'bob', '-p', '0']);
    await cli.json<Result>(['create', 'Nobody', '-p', '1']);
    expect((await cli.json<ListResult>(['list', '--mine'])).items.map((i) => i.id)).toEqual([mine]);
    expect((await cli.json<NextResult>(['next', '--mine'])).item?.id).toBe(mine);
    expect((await cli.json<ListResult>(['list', '--mine', '--actor', 'carol'])).total).toBe(0);
    expect(((await cli.run(['list', '--mine', '--assignee', 'bob'])).error as Error).message).toBe('give --mine or --assignee, not both');
  });
});

describe('readable output', () => {
  it('keeps the original case in search snippets', async () => {
    const cli = await cliHarness();
    await cli.json<Result>(['create', 'Login', '--body', 'Safari loses the Session Cookie on iOS']);
    const found = await cli.json<SearchResult>(['search', 'cookie']);
    expect(found.results[0]!.snippet).toBe('Safari loses the Session Cookie on iOS');
    expect((await cli.run(['search', 'cookie'])).stdout).toContain('Safari loses the Session Cookie on iOS');
  });

  it('prints a short continuation hint for a cut page, the cursor stays in --json', async () => {
    const cli = await cliHarness();
    for (const t of ['One', 'Two', 'Three']) await cli.json<Result>(['create', t]);
    const first = await cli.run(['list', '-n', '1']);
    const page = await cli.json<ListResult>(['list', '-n', '1']);
    const last = page.items[0]!.id;
    expect(page.nextCursor).toEqual(expect.any(String));
    const footer = first.stdout.trimEnd().split('\n').pop()!;
    expect(footer).toBe(`1 of 3 items; next page: --after ${last}`);
    expect(footer.length).toBeLessThan(60);
    const second = await cli.json<ListResult>(['list', '-n', '1', '--after', last]);
    const viaCursor = await cli.json<ListResult>(['list', '-n', '1', '--cursor', page.nextCursor!]);
    expect(second.items).toEqual(viaCursor.items);
    expect(second.items[0]!.id).not.toBe(last);
    expect(((await cli.run(['list', '--after', 'pm-nothere'])).error as Error).message).toBe('no item pm-nothere to continue after');
  });
});

describe('colors', () => {
  it('colors ids, priorities and statuses on a color terminal, never under --json', async () => {
    const cli = await cliHarness();
    const id = (await cli.json<Result>(['create', 'Colorful', '-p', '0'])).item.id;
    const colored = (await cli.run(['list'], { color: true })).stdout;
    expect(colored).toContain(`\u001b[36m${id}\u001b[0m`);
    expect(colored).toContain('\u001b[1;31mP0\u001b[0m');
    expect(colored).toContain('\u001b[32mopen\u001b[0m');
    expect(colored.replace(/\u001b\[[0-9;]*m/g, '')).toBe((await cli.run(['list'])).stdout);
    expect((await cli.run(['list'])).stdout).not.toContain('\u001b[');
    expect((await cli.run(['--json', 'list'], { color: true })).stdout).not.toContain('\u001b[');
  });

  it('a terminal gets colors unless NO_COLOR is set; a pipe never does', () => {
    const tty = { isTTY: true } as unknown as NodeJS.WriteStream;
    const pipe = {} as unknown as NodeJS.WriteStream;
    expect(new NodeCliIo('/', process.stdin, tty, process.stderr, {}).color).toBe(true);
    expect(new NodeCliIo('/', process.stdin, tty, process.stderr, { NO_COLOR: '1' }).color).toBe(false);
    expect(new NodeCliIo('/', process.stdin, pipe, process.stderr, {}).color).toBe(false);
  });
});

describe('pm completion', () => {
  it('prints bash, zsh and fish scripts with every command, its flags and id completion', async () => {
    const cli = await cliHarness();
    const bash = (await cli.run(['completion', 'bash'])).stdout;
    expect(bash).toContain('complete -o default -F _pm pm');
    expect(bash).toMatch(/compgen -W "init context next list search get .*completion"/);
    expect(bash).toMatch(/update\) flags="[^"]*--add-tag[^"]*--json/);
    expect(bash).toContain(`pm list --all --limit 500 --json 2>/dev/null | sed -n 's/^      "id": "\\([^"]*\\)",$/\\1/p'`);
    expect((await cli.run(['completion', 'zsh'])).stdout).toMatch(/^autoload -U \+X bashcompinit && bashcompinit\n/);
    const fish = (await cli.run(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c pm -n '__fish_seen_subcommand_from list' -l mine");
    expect(((await cli.run(['completion', 'tcsh'])).error as Error).message).toBe("<shell>: unknown value 'tcsh'; did you mean bash? expected one of: bash, zsh, fish");
  });
});
