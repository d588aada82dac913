import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { NodeCliIo } from '../../../../src/adapters/cli/node-cli-io.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { ListResult } from '../../../../src/domain/tracker/list-query.js';
import type { NextResult } from '../../../../src/domain/tracker/next-query.js';
import type { MutationResult } from '../../../../src/domain/tracker/receipt.js';
import type { SearchResult } from '../../../../src/domain/tracker/search-query.js';
import { cliHarness } from '../../../support/cli-harness.js';
import { writeBulkItems } from '../../../support/bulk-items.js';
import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';
import { trackerCompletionData } from '../../../../src/adapters/cli/completion/tracker-completion-data.js';

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
  it('prints a bash, zsh and fish script that asks pm __complete; an unknown shell is a usage error', async () => {
    const cli = await cliHarness();
    expect((await cli.run(['completion', 'bash'])).stdout).toMatch(/lines=\(\$\(pm __complete "\$\{COMP_WORDS\[@\]:1:COMP_CWORD\}" 2>\/dev\/null\)\)[\s\S]*complete -F _pm pm\n$/);
    expect((await cli.run(['completion', 'zsh'])).stdout).toMatch(/^#compdef pm\n[\s\S]*_describe -t values 'pm' described/);
    expect((await cli.run(['completion', 'fish'])).stdout).toContain("complete -c pm -f -k -a '(__pm_complete)'");
    expect(((await cli.run(['completion', 'tcsh'])).error as Error).message).toBe("<shell>: unknown value 'tcsh'; did you mean bash? expected one of: bash, zsh, fish");
    expect((await cli.run(['--help'])).stdout).not.toContain('__complete');
  });
});

describe('pm __complete (the engine the completion scripts call)', () => {
  async function withItems() {
    const cli = await cliHarness();
    const open = (await cli.json<MutationResult<Item>>(['create', 'Open one', '--tag', 'auth,ui'])).item.id;
    const closed = (await cli.json<MutationResult<Item>>(['create', 'Done one', '--tag', 'zeta'])).item.id;
    await cli.run(['close', closed, '--evidence', 'shipped']);
    const words = async (...argv: string[]) => (await cli.run(['__complete', ...argv])).stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    return { cli, open, closed, words };
  }

  it('completes commands, a group\'s subcommands, and long and short flags from the registry', async () => {
    const { words } = await withItems();
    expect(await words('li')).toEqual(['list']);
    expect(await words('')).toEqual(expect.arrayContaining(['init', 'list', 'ready', 'blocked', 'tree', 'tag', 'deps', 'merge', 'skills', 'completion', 'show']));
    expect(await words('')).not.toContain('__complete');
    expect(await words('deps', '')).toEqual(expect.arrayContaining(['add', 'remove']));
    expect(await words('merge', '')).toEqual(['install', 'uninstall', 'check', 'fix-ids', 'driver']);
    expect(await words('skills', '')).toEqual(expect.arrayContaining(['list', 'show', 'check']));
    expect(await words('index', '')).toEqual(['status', 'stop', 'watch']);
    expect(await words('mcp', '')).toEqual(['rotate-key', 'stats']);
    expect(await words('list', '--st')).toEqual(['--status']);
    expect(await words('list', '-')).toEqual(expect.arrayContaining(['-a', '-n', '--all', '--json', '-h']));
    expect(await words('create', 'x', '-')).toEqual(expect.arrayContaining(['-p']));
    expect(await words('--json', 'deps', 'add', 'x', '--bl')).toEqual(['--blocked-by', '--blocks']);
  });

  it('completes values: statuses and types from config.yaml, tags in use, shells, sorts; open ids first with titles', async () => {
    const { cli, words, open, closed } = await withItems();
    expect(await words('list', '--status', '')).toEqual(['draft', 'open', 'in_progress', 'blocked', 'closed', 'canceled']);
    expect(await words('list', '--status', 'in')).toEqual(['in_progress']);
    expect(await words('create', 'x', '--type', '')).toEqual(['Epic', 'Feature', 'Task', 'Chore', 'Issue', 'Decision']);
    expect(await words('update', open, '--add-tag', '')).toEqual(['auth', 'ui', 'zeta']);
    expect(await words('list', '--tag', 'auth,')).toEqual(['auth,auth', 'auth,ui', 'auth,zeta']);
    expect(await words('list', '--sort', 'u')).toEqual(['updated']);
    expect(await words('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(await words('close', '')).toEqual([open, closed]);
    expect(await words('get', open.slice(0, 5))).toContain(open);
    expect(await words('create', 'x', '--parent', '')).toEqual([open, closed]);
    expect((await cli.run(['__complete', 'get', open])).stdout).toBe(`${open}\topen · Open one\n`);
    expect((await cli.run(['__complete', 'edit', open, '--from-file', ''])).stdout).toBe(':files\n');
  });

  it('completes every id, not a first page (more than list serves at once)', async () => {
    const memory = await memoryTracker();
    const ids = await writeBulkItems(memory.fs, `${ROOT}/items`, 620);
    const data = trackerCompletionData(memory.tracker);
    expect((await data.ids('')).map((c) => c.value).sort()).toEqual([...ids].sort());
  });
});
