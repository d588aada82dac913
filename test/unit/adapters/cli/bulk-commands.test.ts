import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { ConsentRequiredError } from '../../../../src/domain/errors/index.js';
import type { BulkResult } from '../../../../src/adapters/cli/bulk.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { MutationResult } from '../../../../src/domain/tracker/receipt.js';
import { cliHarness } from '../../../support/cli-harness.js';

type Result = MutationResult<Item>;
interface Bulk { results: BulkResult[]; succeeded: number; failed: number }

async function withItems(...titles: string[]) {
  const cli = await cliHarness();
  const ids: string[] = [];
  for (const title of titles) ids.push((await cli.json<Result>(['create', title, '--tag', title.startsWith('spike') ? 'spike' : 'work'])).item.id);
  return { cli, ids };
}

describe('several ids at once', () => {
  it('closes each id with its own receipt and prints one summary line', async () => {
    const { cli, ids } = await withItems('one', 'two');
    const run = await cli.run(['close', ...ids, '-e', 'released in 2.4']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Closed ${ids[0]} "one" \\(revision 2\\)\n  receipt \\S+\nClosed ${ids[1]} "two" \\(revision 2\\)\n  receipt \\S+\nClosed 2 of 2 items\\.\n$`));
    for (const id of ids) expect((await cli.tracker.get(id)).status).toBe('closed');
  });

  it('goes on past a failing id, names it, and exits 10', async () => {
    const { cli, ids } = await withItems('one', 'two');
    const run = await cli.run(['update', ids[0]!, 'pm-zzzzzz', ids[1]!, '-p', '0']);
    expect(run.code).toBe(10);
    expect(run.stdout).toContain('Failed pm-zzzzzz: no item pm-zzzzzz (exit 3)\n');
    expect(run.stdout).toMatch(/Updated 2 of 3 items; 1 failed \(pm-zzzzzz\)\.\n$/);
    for (const id of ids) expect((await cli.tracker.get(id)).priority).toBe(0);
    expect((await cli.run(['claim', ...ids])).stdout).toMatch(/Claimed 2 of 2 items\.\n$/);
    const json = JSON.parse((await cli.run(['--json', 'release', ids[0]!, 'pm-zzzzzz'])).stdout) as Bulk;
    expect(json).toMatchObject({ succeeded: 1, failed: 1, results: [{ id: ids[0], ok: true }, { id: 'pm-zzzzzz', ok: false, error: { reason: 'not_found', exitCode: 3 } }] });
  });

  it('keeps the single-id output and errors of one id', async () => {
    const { cli, ids } = await withItems('one');
    expect((await cli.json<Result>(['claim', ids[0]!])).item.status).toBe('in_progress');
    expect((await cli.run(['release', 'pm-zzzzzz'])).error).toMatchObject({ exitCode: 3 });
    expect(((await cli.run(['release'])).error as Error).message).toBe('missing <id...> (or --filter)');
  });

  it('refuses guards that name one item with several ids', async () => {
    const { cli, ids } = await withItems('one', 'two');
    const run = await cli.run(['update', ...ids, '-p', '1', '--expected-revision', '1']);
    expect(run.error).toBeInstanceOf(UsageError);
    expect((run.error as Error).message).toBe("--expected-revision names one item's revision: give one id");
  });
});

describe('--filter selections', () => {
  it('asks to confirm the count on a terminal and applies to every selected item', async () => {
    const { cli, ids } = await withItems('spike a', 'spike b', 'keep');
    const run = await cli.run(['close', '--filter', 'tag=spike', '--cancel', '--reason', 'spikes done'], { interactive: true, answers: [true] });
    expect(run.io.questions).toEqual([`Cancel 2 items (${[ids[0], ids[1]].sort().join(', ')})? [y/N] `]);
    expect(run.stdout).toMatch(/Canceled 2 of 2 items\.\n$/);
    expect((await cli.tracker.get(ids[0]!)).closure?.evidence).toBe('spikes done');
    expect((await cli.tracker.get(ids[2]!)).status).toBe('open');
  });

  it('refuses without a terminal unless --yes, and changes nothing when declined', async () => {
    const { cli, ids } = await withItems('spike a', 'keep');
    const refused = await cli.run(['update', '--filter', 'tag=spike', '-p', '0']);
    expect(refused.error).toBeInstanceOf(ConsentRequiredError);
    expect((refused.error as Error).message).toBe('--filter selected 1 item(s); pass --yes to update them (there is no terminal to ask)');
    expect((await cli.run(['update', '--filter', 'tag=spike', '-p', '0'], { interactive: true, answers: [false] })).error).toBeInstanceOf(ConsentRequiredError);
    expect((await cli.tracker.get(ids[0]!)).priority).toBe(2);
    const done = await cli.json<Bulk>(['update', '--filter', 'tag=spike', '--filter', 'priority=2', '-p', '0', '--yes']);
    expect(done).toMatchObject({ succeeded: 1, failed: 0, results: [{ id: ids[0], ok: true }] });
    expect((await cli.run(['claim', '--filter', 'tag=nothing', '--yes'])).stdout).toBe('No item matches the filter; nothing to do.\n');
  });

  it('refuses a bad filter, and ids together with a filter', async () => {
    const { cli, ids } = await withItems('one');
    expect(((await cli.run(['release', '--filter', 'colour=red'])).error as Error).message).toMatch(/^--filter: expected KEY=VALUE with KEY one of status, type, tag, priority/);
    expect(((await cli.run(['release', '--filter', 'priority=9'])).error as Error).message).toMatch(/^--priority: invalid priority '9'/);
    expect(((await cli.run(['release', ids[0]!, '--filter', 'tag=a'])).error as Error).message).toBe('give ids or --filter, not both');
  });
});

describe('pm close --cancel --reason', () => {
  it('cancels with a reason, and says what each mode needs', async () => {
    const { cli, ids } = await withItems('one');
    expect(((await cli.run(['close', ids[0]!, '--cancel'])).error as Error).message).toBe('--reason: required with --cancel: say why the item is dropped');
    expect(((await cli.run(['close', ids[0]!, '--reason', 'x'])).error as Error).message).toMatch(/^--reason goes with --cancel/);
    const canceled = await cli.json<Result>(['close', ids[0]!, '--cancel', '--reason', 'duplicate of pm-x']);
    expect(canceled.item).toMatchObject({ status: 'canceled', closure: { evidence: 'duplicate of pm-x' } });
  });
});

describe('pm tag', () => {
  it('adds and removes tags on several items, one update each', async () => {
    const { cli, ids } = await withItems('one', 'two');
    const run = await cli.run(['tag', ...ids, '--add', 'backend,api', '--remove', 'work']);
    expect(run.stdout).toMatch(/Tagged 2 of 2 items\.\n$/);
    for (const id of ids) expect((await cli.tracker.get(id)).tags).toEqual(['backend', 'api']);
    expect((await cli.json<Result>(['tag', ids[0]!, '-a', 'x'])).item.tags).toEqual(['backend', 'api', 'x']);
    expect(((await cli.run(['tag', ids[0]!])).error as Error).message).toBe('nothing to do: give --add TAG or --remove TAG');
  });
});
