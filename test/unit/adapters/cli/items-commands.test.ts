import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { StaleRevisionError, ValidationError } from '../../../../src/domain/errors/index.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { ListResult } from '../../../../src/domain/tracker/list-query.js';
import type { MutationResult } from '../../../../src/domain/tracker/receipt.js';
import { cliHarness } from '../../../support/cli-harness.js';

const CONFIG = `version: 1
idPrefix: pm
customFields:
  points: { type: number, min: 0, max: 13 }
  risky: { type: boolean }
  team: { type: string }
`;

type Created = MutationResult<Item>;

describe('pm create / get', () => {
  it('maps every create flag onto the item', async () => {
    const cli = await cliHarness({ configYaml: CONFIG });
    const parent = await cli.json<Created>(['create', 'Epic one', '--type', 'Epic']);
    const blocker = await cli.json<Created>(['create', 'Blocker']);
    const result = await cli.json<Created>([
      'create', 'Fix login', '--type', 'Feature', '--status', 'draft', '-p', 'P1', '--body', 'Steps to repro',
      '--tag', 'auth,web', '--tag', 'urgent', '--parent', parent.item.id, '--assignee', 'bob',
      '--blocked-by', blocker.item.id, '--related', parent.item.id, '--ac', 'redirects home', '--acceptance', 'keeps session',
      '--file', 'src/login.ts', '--test', 'test/login.test.ts', '--set', 'points=5', '--set', 'risky=true', '--set', 'team=a=b',
    ]);
    expect(result.replayed).toBe(false);
    expect(result.item).toMatchObject({
      title: 'Fix login', type: 'Feature', status: 'draft', priority: 1, body: 'Steps to repro',
      tags: ['auth', 'web', 'urgent'], parent: parent.item.id, assignee: 'bob', blockedBy: [blocker.item.id], related: [parent.item.id],
      acceptance: [{ text: 'redirects home', done: false }, { text: 'keeps session', done: false }],
      files: ['src/login.ts'], tests: ['test/login.test.ts'], custom: { points: 5, risky: true, team: 'a=b' }, revision: 1,
    });
    expect(await cli.json(['get', result.item.id])).toEqual(result.item);
  });

  it('prints a readable confirmation and a full item view', async () => {
    const cli = await cliHarness();
    const created = await cli.run(['create', 'Write docs', '--ac', 'CLI.md exists', '--body', 'All commands']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^Created pm-[0-9a-z]+ "Write docs" \(revision 1\)\n  receipt rcpt-/);
    const id = /pm-[0-9a-z]+/.exec(created.stdout)![0];
    const shown = await cli.run(['show', id]);
    expect(shown.stdout).toContain(`${id}  Write docs`);
    expect(shown.stdout).toMatch(/status: +open/);
    expect(shown.stdout).toContain('  All commands');
    expect(shown.stdout).toContain('  1. [ ] CLI.md exists');
  });

  it('shows the parent with its title in the item view', async () => {
    const cli = await cliHarness();
    const parent = await cli.json<Created>(['create', 'Checkout redesign']);
    const child = await cli.json<Created>(['create', 'Saved-card API', '--parent', parent.item.id]);
    expect((await cli.run(['get', child.item.id])).stdout).toMatch(new RegExp(`parent: +${parent.item.id}  Checkout redesign\n`));
  });

  it('reads the body from stdin or a file, never both', async () => {
    const cli = await cliHarness();
    expect((await cli.json<Created>(['create', 'A', '--body-file', '-'], { stdin: 'from stdin\n' })).item.body).toBe('from stdin');
    expect((await cli.json<Created>(['create', 'B', '--body-file', 'notes.md'], { files: { 'notes.md': '# Notes' } })).item.body).toBe('# Notes');
    const missing = await cli.run(['create', 'C', '--body-file', 'nope.md']);
    expect(missing.error).toBeInstanceOf(UsageError);
    expect((missing.error as Error).message).toBe('--body-file: cannot read nope.md: no such file');
    const both = await cli.run(['create', 'D', '--body', 'x', '--body-file', '-']);
    expect((both.error as Error).message).toBe('give --body or --body-file, not both');
  });

  it('refuses bad input with specific errors and writes nothing', async () => {
    const cli = await cliHarness({ configYaml: CONFIG });
    const badPriority = await cli.run(['create', 'X', '-p', '7']);
    expect(badPriority.error).toBeInstanceOf(UsageError);
    expect((badPriority.error as UsageError).exitCode).toBe(2);
    expect((await cli.run(['create', 'X', '--set', 'points=lots'])).error).toBeInstanceOf(ValidationError);
    expect((await cli.run(['create', 'X', '--set', 'colour=red'])).error).toBeInstanceOf(ValidationError);
    expect((await cli.run(['create', 'X', '--status', 'nonsense'])).error).toBeInstanceOf(ValidationError);
    expect((await cli.run(['create', '  '])).error).toBeInstanceOf(UsageError);
    expect((await cli.json<ListResult>(['list', '--all'])).total).toBe(0);
  });

  it('replays an idempotent create instead of creating twice', async () => {
    const cli = await cliHarness();
    const first = await cli.json<Created>(['create', 'Once', '--idempotency-key', 'k-1']);
    const second = await cli.json<Created>(['create', 'Once', '--idempotency-key', 'k-1']);
    expect(second.replayed).toBe(true);
    expect(second.receipt).toEqual(first.receipt);
    expect((await cli.json<ListResult>(['list'])).total).toBe(1);
    expect((await cli.run(['create', 'Once', '--idempotency-key', 'k-1'])).stdout).toContain("replayed; idempotency key 'k-1' matched receipt");
  });
});

describe('pm update', () => {
  it('changes fields, edits lists in place and clears optional fields', async () => {
    const cli = await cliHarness({ configYaml: CONFIG });
    const parent = (await cli.json<Created>(['create', 'Parent'])).item.id;
    const id = (await cli.json<Created>(['create', 'Item', '--tag', 'a,b', '--ac', 'one', '--ac', 'two', '--parent', parent, '--assignee', 'bob', '--file', 'x.ts', '--set', 'points=1'])).item.id;
    const updated = await cli.json<Created>([
      'update', id, '--title', 'Item v2', '-p', '0', '--status', 'blocked', '--add-tag', 'c', '--remove-tag', 'a', '--ac', 'three',
      '--check', '1', '--check', '3', '--add-file', 'y.ts', '--remove-file', 'x.ts', '--add-test', 't.ts', '--set', 'risky=false', '--unset', 'points',
      '--no-parent', '--unassign', '--expected-revision', '1',
    ]);
    expect(updated.item).toMatchObject({ title: 'Item v2', priority: 0, status: 'blocked', tags: ['b', 'c'], files: ['y.ts'], tests: ['t.ts'], custom: { risky: false }, revision: 2 });
    expect(updated.item.acceptance.map((c) => c.done)).toEqual([true, false, true]);
    expect(updated.item.parent).toBeUndefined();
    expect(updated.item.assignee).toBeUndefined();
    const retagged = await cli.json<Created>(['update', id, '--tags', 'x, y', '--uncheck', '1', '--remove-test', 't.ts']);
    expect(retagged.item).toMatchObject({ tags: ['x', 'y'], tests: [] });
    expect(retagged.item.acceptance[0]!.done).toBe(false);
  });

  it('refuses a stale revision, contradictory flags and empty updates', async () => {
    const cli = await cliHarness();
    const id = (await cli.json<Created>(['create', 'Item'])).item.id;
    await cli.json(['update', id, '--title', 'Changed']);
    const stale = await cli.run(['update', id, '--title', 'Mine', '--expected-revision', '1']);
    expect(stale.error).toBeInstanceOf(StaleRevisionError);
    expect((stale.error as StaleRevisionError).exitCode).toBe(4);
    expect(((await cli.run(['update', id, '--parent', 'pm-abcdef', '--no-parent'])).error as Error).message).toBe('give --parent or --no-parent, not both');
    expect(((await cli.run(['update', id, '--assignee', 'a', '--unassign'])).error as Error).message).toBe('give --assignee or --unassign, not both');
    expect(((await cli.run(['update', id])).error as Error).message).toMatch(/^nothing to update/);
    expect(((await cli.run(['update', id, '--check', 'first'])).error as Error).message).toMatch(/^--check: invalid criterion number 'first'/);
    expect(((await cli.run(['update', id, '--status', 'closed'])).error as Error).message).toMatch(/use close/);
    expect((await cli.json<Item>(['get', id])).title).toBe('Changed');
  });
});

describe('pm list', () => {
  async function seeded() {
    const cli = await cliHarness();
    const ids: string[] = [];
    for (const [title, priority, tag] of [['Alpha', '2', 'ui'], ['Beta', '0', 'api'], ['Gamma', '1', 'ui,api'], ['Delta', '3', 'ops']] as const) {
      ids.push((await cli.json<Created>(['create', title, '-p', priority, '--tag', tag])).item.id);
      cli.clock.advance(1000);
    }
    return { cli, ids };
  }

  it('filters by repeatable or comma-separated values', async () => {
    const { cli, ids } = await seeded();
    await cli.json(['close', ids[3]!, '--evidence', 'done']);
    const titles = async (argv: string[]) => (await cli.json<ListResult>(['list', ...argv])).items.map((i) => i.title);
    expect(await titles([])).toEqual(['Beta', 'Gamma', 'Alpha']);
    expect(await titles(['--all'])).toEqual(['Beta', 'Gamma', 'Alpha', 'Delta']);
    expect(await titles(['--tag', 'ui'])).toEqual(['Gamma', 'Alpha']);
    expect(await titles(['--tag', 'ui,api'])).toEqual(['Gamma']);
    expect(await titles(['--status', 'closed'])).toEqual(['Delta']);
    expect(await titles(['--status', 'open', '--status', 'closed', '--type', 'Task'])).toEqual(['Beta', 'Gamma', 'Alpha', 'Delta']);
    expect(await titles(['--text', 'AMM'])).toEqual(['Gamma']);
    expect(await titles(['--sort', 'title', '--desc'])).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect(await titles(['--sort', 'created', '--asc'])).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  it('pages with --limit and --cursor', async () => {
    const { cli } = await seeded();
    const first = await cli.json<ListResult>(['list', '-n', '2']);
    expect(first.items.map((i) => i.title)).toEqual(['Beta', 'Gamma']);
    expect(first.total).toBe(4);
    const second = await cli.json<ListResult>(['list', '-n', '2', '--cursor', first.nextCursor!]);
    expect(second.items.map((i) => i.title)).toEqual(['Alpha', 'Delta']);
    expect(second.nextCursor).toBeUndefined();
    const human = await cli.run(['list', '--limit', '2']);
    expect(human.stdout).toContain(`2 of 4 items; next page: --after ${first.items[1]!.id}`);
  });

  it('rejects bad sort keys, limits and contradictory order flags', async () => {
    const { cli } = await seeded();
    expect(((await cli.run(['list', '--sort', 'colour'])).error as Error).message).toMatch(/^--sort: unknown value 'colour'; expected one of: priority, created, updated, title, id/);
    expect(((await cli.run(['list', '--limit', '0'])).error as Error).message).toMatch(/^--limit: invalid limit '0'/);
    expect(((await cli.run(['list', '--asc', '--desc'])).error as Error).message).toBe('give --asc or --desc, not both');
  });

  it('prints a table, or a hint when nothing matches', async () => {
    const { cli } = await seeded();
    const table = (await cli.run(['list'])).stdout.split('\n');
    expect(table[0]).toMatch(/^ID +PRI +STATUS +TYPE +TITLE$/);
    expect(table[1]).toMatch(/^pm-[0-9a-z]+ +P0 +open +Task +Beta  \[api\]$/);
    expect((await cli.run(['list', '--tag', 'none'])).stdout).toMatch(/^No items match/);
  });
});
