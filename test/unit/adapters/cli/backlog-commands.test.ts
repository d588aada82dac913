import type { BlockedResult, ReadyResult, TreeResult } from '../../../../src/domain/tracker/backlog-views.js';
import type { ListResult } from '../../../../src/domain/tracker/list-query.js';
import type { NextResult } from '../../../../src/domain/tracker/next-query.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { MutationResult } from '../../../../src/domain/tracker/receipt.js';
import { cliHarness } from '../../../support/cli-harness.js';

type Result = MutationResult<Item>;

/** An epic with three children: one done, one blocked by a fourth item, one claimed by bob; and an unrelated P0. */
async function backlog() {
  const cli = await cliHarness();
  const create = async (...argv: string[]) => (await cli.json<Result>(['create', ...argv])).item.id;
  const epic = await create('Checkout', '--type', 'Epic', '-p', '1');
  const done = await create('Cart', '--parent', epic, '-p', '1');
  const blocker = await create('Payment API', '-p', '2');
  const waits = await create('Pay button', '--parent', epic, '-p', '1');
  const bobs = await create('Receipts', '--parent', epic, '-p', '3');
  const urgent = await create('Hotfix', '-p', '0', '--tag', 'ops');
  await cli.run(['deps', 'add', waits, '--blocked-by', blocker]);
  await cli.run(['close', done, '-e', 'merged']);
  await cli.run(['claim', bobs, '--actor', 'bob']);
  return { cli, epic, done, blocker, waits, bobs, urgent };
}

describe('pm ready', () => {
  it('lists every ready item in next\'s order with the reason, and agrees with next', async () => {
    const { cli, blocker, urgent } = await backlog();
    const ready = await cli.json<ReadyResult>(['ready']);
    expect(ready.items.map((i) => i.id)).toEqual([urgent, blocker]);
    expect(ready.items[0]).toMatchObject({ reason: 'open, unclaimed, no blockers', tags: ['ops'] });
    expect(ready.counts).toMatchObject({ ready: 2, blocked: 1, claimed: 0, containers: 1 });
    const next = await cli.json<NextResult>(['next']);
    expect([next.item!.id, ...next.alternatives.map((a) => a.id)]).toEqual(ready.items.map((i) => i.id));
    const text = (await cli.run(['ready'])).stdout;
    expect(text).toContain('    why: open, unclaimed, no blockers\n');
    expect(text).toContain('2 ready items; take the first with: pm next --claim');
  });

  it('says why nothing is ready, as next does, or that the filters left nothing', async () => {
    const empty = await cliHarness();
    expect((await empty.run(['ready'])).stdout).toMatch(/^Nothing is ready to start\.\n  Nothing is open and no claim has expired/);
    const { cli } = await backlog();
    expect((await cli.run(['ready', '-p', '4'])).stdout).toBe('Nothing is ready to start.\n  No ready item matches the filters.\n');
  });

  it('filters like list: priority, tag, parent, limit', async () => {
    const { cli, blocker, urgent } = await backlog();
    expect((await cli.json<ReadyResult>(['ready', '-p', '2'])).items.map((i) => i.id)).toEqual([blocker]);
    expect((await cli.json<ReadyResult>(['ready', '--tag', 'ops'])).items.map((i) => i.id)).toEqual([urgent]);
    const limited = await cli.json<ReadyResult>(['ready', '-n', '1']);
    expect(limited).toMatchObject({ total: 2, items: [{ id: urgent }] });
    expect((await cli.run(['ready', '-p', 'high'])).error).toMatchObject({ message: expect.stringMatching(/^--priority: invalid priority 'high'/) });
  });
});

describe('pm blocked', () => {
  it('lists each blocked item with its open blockers and its parent title', async () => {
    const { cli, epic, blocker, waits } = await backlog();
    const blocked = await cli.json<BlockedResult>(['blocked']);
    expect(blocked.items.map((i) => i.id)).toEqual([waits]);
    expect(blocked.items[0]).toMatchObject({ activeBlockers: [blocker], parentTitle: 'Checkout' });
    expect(blocked.blockers).toEqual({ [blocker]: { id: blocker, title: 'Payment API', status: 'open' } });
    const text = (await cli.run(['blocked'])).stdout;
    expect(text).toContain(`    waits on ${blocker} open "Payment API"\n`);
    expect(text).toContain(`(in ${epic} "Checkout")`);
    await cli.run(['close', blocker, '-e', 'shipped']);
    expect((await cli.run(['blocked'])).stdout).toBe('Nothing is blocked.\n');
  });
});

describe('pm tree', () => {
  it('shows an epic\'s children with their progress, closed ones included', async () => {
    const { cli, epic, done, waits, bobs } = await backlog();
    const tree = await cli.json<TreeResult>(['tree', epic]);
    expect(tree.roots).toHaveLength(1);
    expect(tree.roots[0]!.progress).toEqual({ done: 1, total: 3 });
    expect(tree.roots[0]!.children.map((c) => c.item.id)).toEqual([done, waits, bobs]);
    const text = (await cli.run(['tree'])).stdout;
    expect(text).toMatch(new RegExp(`^ID +PRI +STATUS +TYPE +TITLE\n${epic} +P1 +open +Epic +Checkout  1/3 done\n  ${done} `));
    expect((await cli.run(['tree', 'pm-zzzzzz'])).error).toMatchObject({ exitCode: 3 });
  });
});

describe('parent titles and --priority in pm list', () => {
  it('names the parent by id and title, and filters by priority', async () => {
    const { cli, waits, urgent } = await backlog();
    const list = await cli.json<ListResult>(['list', '--priority', 'P0,1']);
    expect(list.items.map((i) => i.priority).every((p) => p <= 1)).toBe(true);
    expect(list.items.find((i) => i.id === waits)).toMatchObject({ parentTitle: 'Checkout' });
    expect(list.items.find((i) => i.id === urgent)!.parentTitle).toBeUndefined();
    expect((await cli.run(['list', '-p', '0'])).stdout).toContain('Hotfix  [ops]');
  });
});
