import { ValidationError } from '../../../../src/domain/errors/index.js';
import { EXIT } from '../../../../src/domain/errors/pm-error.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { ListResult } from '../../../../src/domain/tracker/list-query.js';
import type { MutationResult } from '../../../../src/domain/tracker/receipt.js';
import { neutralizeControls, oneLine } from '../../../../src/adapters/cli/render/text.js';
import { cliHarness } from '../../../support/cli-harness.js';
import { ROOT } from '../../../support/memory-tracker.js';

type Result = MutationResult<Item>;
const itemPath = (id: string) => `${ROOT}/items/${id}.md`;

describe('the CLI writes only what it can read back', () => {
  it('refuses a 501-character title on create and update (exit 2) and writes nothing', async () => {
    const cli = await cliHarness();
    const run = await cli.run(['create', 'x'.repeat(501)]);
    expect(run.error).toBeInstanceOf(ValidationError);
    expect((run.error as ValidationError).exitCode).toBe(EXIT.usage);
    expect((run.error as Error).message).toBe('title is 501 characters long; at most 500 are allowed');
    expect((await cli.json<ListResult>(['list', '--all'])).total).toBe(0);
    const id = (await cli.json<Result>(['create', 'ok'])).item.id;
    expect((await cli.run(['update', id, '--title', 'y'.repeat(501)])).error).toBeInstanceOf(ValidationError);
    expect((await cli.json<Item>(['get', id])).title).toBe('ok');
  });

  it.each([['a newline', 'two\nlines'], ['a tab', 'a\tb'], ['an ANSI escape', 'evil \u001b[31mred']])('refuses a title with %s', async (_, title) => {
    const cli = await cliHarness();
    const run = await cli.run(['create', title]);
    expect((run.error as Error).message).toMatch(/^title holds the control character U\+00(0A|09|1B)/);
    expect((await cli.json<ListResult>(['list'])).total).toBe(0);
  });

  it('an existing 600-character title is listed, shown and fixed with update --title', async () => {
    const cli = await cliHarness();
    const id = (await cli.json<Result>(['create', 'short'])).item.id;
    const long = 'L'.repeat(600);
    await cli.fs.writeAtomic(itemPath(id), (await cli.fs.readText(itemPath(id)))!.replace('title: short', `title: ${long}`));
    const list = await cli.run(['list']);
    expect(list.error).toBeUndefined();
    expect(list.io.stderr).toBe('');
    expect(list.stdout).toContain(long);
    expect((await cli.run(['get', id])).stdout).toContain(long);
    expect((await cli.json<Result>(['update', id, '--title', 'Fixed'])).item.title).toBe('Fixed');
  });
});

describe('terminal output neutralizes control characters from item text', () => {
  async function handEdited() {
    const cli = await cliHarness();
    const id = (await cli.json<Result>(['create', 'plain', '--body', 'body'])).item.id;
    await cli.json<Result>(['comment', id, 'a comment']);
    const text = (await cli.fs.readText(itemPath(id)))!;
    await cli.fs.writeAtomic(itemPath(id), text
      .replace('title: plain', 'title: "evil\\e[31mred\\nsecond\\x07"')
      .replace('text: a comment', 'text: "ring \\e]0;owned\\x07"')
      .replace(/\nbody\n$/, '\nbody \u001b[2J cleared\n'));
    return { cli, id };
  }

  it('list keeps each item on one row and shows ESC, BEL and newline as visible escapes', async () => {
    const { cli, id } = await handEdited();
    const out = (await cli.run(['list'])).stdout;
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(out.split('\n').find((line) => line.startsWith(id))).toMatch(/evil\\x1b\[31mred\\x0asecond\\x07$/);
  });

  it('get shows title, body and comments escaped; with colors only pm’s own escapes reach the terminal', async () => {
    const { cli, id } = await handEdited();
    const out = (await cli.run(['get', id])).stdout;
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain(`${id}  evil\\x1b[31mred\\x0asecond\\x07`);
    expect(out).toContain('body \\x1b[2J cleared');
    expect(out).toContain('ring \\x1b]0;owned\\x07');
    const colored = (await cli.run(['get', id], { color: true })).stdout;
    expect(colored.replace(/\u001b\[[0-9;]*m/g, '')).toBe(out);
    expect(colored).not.toContain('\u001b[31mred');
  });

  it('--json stays exact', async () => {
    const { cli, id } = await handEdited();
    const item = await cli.json<Item>(['get', id]);
    expect(item.title).toBe('evil\u001b[31mred\nsecond\u0007');
    expect(item.comments[0]!.text).toBe('ring \u001b]0;owned\u0007');
  });

  it('the helpers: layout characters stay in text, not in one-line cells', () => {
    expect(neutralizeControls('a\tb\nc\u001bd\re\u009bf\u007f')).toBe('a\tb\nc\\x1bd\\x0de\\x9bf\\x7f');
    expect(oneLine('a\tb\nc')).toBe('a\\x09b\\x0ac');
  });
});
