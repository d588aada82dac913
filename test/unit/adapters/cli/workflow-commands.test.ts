import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { ConflictError, ConsentRequiredError, NotFoundError } from '../../../../src/domain/errors/index.js';
import type { DependencyView } from '../../../../src/adapters/cli/dependency-view.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { MutationResult } from '../../../../src/domain/tracker/receipt.js';
import { cliHarness } from '../../../support/cli-harness.js';

type Result = MutationResult<Item>;

async function withItem() {
  const cli = await cliHarness();
  const id = (await cli.json<Result>(['create', 'Ship it'])).item.id;
  return { cli, id };
}

describe('pm claim / release', () => {
  it('claims with a lease for the actor or a named holder, and releases', async () => {
    const { cli, id } = await withItem();
    const claimed = await cli.json<Result>(['claim', id, '--lease', '30']);
    expect(claimed.item).toMatchObject({ status: 'in_progress', assignee: 'alice', claim: { holder: 'alice', expiresAt: '2026-03-01T10:30:00.000Z' } });
    expect((await cli.run(['claim', id])).stdout).toMatch(/^Claimed pm-[0-9a-z]+ "Ship it" for alice until 2026-03-01 12:00Z \(revision 3\)/);
    const refused = await cli.run(['claim', id, '--actor', 'bob']);
    expect(refused.error).toBeInstanceOf(ConflictError);
    expect((refused.error as ConflictError).exitCode).toBe(4);
    const taken = await cli.json<Result>(['claim', id, '--actor', 'bob', '--force', '--holder', 'agent-7']);
    expect(taken.item.claim!.holder).toBe('agent-7');
    expect((await cli.run(['release', id])).error).toBeInstanceOf(ConflictError);
    const released = await cli.json<Result>(['release', id, '--force']);
    expect(released.item.claim).toBeUndefined();
    expect(released.item.status).toBe('open');
    expect(((await cli.run(['claim', id, '--lease', '0'])).error as Error).message).toMatch(/^--lease: invalid lease '0'/);
  });

  it('takes the lease in minutes or with a unit (90s, 5m, 2h), and refuses anything else with the forms', async () => {
    const { cli, id } = await withItem();
    expect((await cli.json<Result>(['claim', id, '--lease', '90s'])).item.claim!.expiresAt).toBe('2026-03-01T10:01:30.000Z');
    expect((await cli.json<Result>(['claim', id, '--lease', '5m'])).item.claim!.expiresAt).toBe('2026-03-01T10:05:00.000Z');
    expect((await cli.json<Result>(['claim', id, '--lease', '2h'])).item.claim!.expiresAt).toBe('2026-03-01T12:00:00.000Z');
    for (const bad of ['0s', '1.5m', '8d', '169h', 'soon']) {
      const refused = await cli.run(['claim', id, '--lease', bad]);
      expect(refused.error).toBeInstanceOf(UsageError);
      expect((refused.error as Error).message).toMatch(new RegExp(`^--lease: invalid lease '${bad.replace('.', '\\.')}': expected minutes \\(1-10080\\) or a number with a unit, e.g. 90s, 5m, 2h`));
    }
    const next = await cli.json<{ item: Item }>(['next', '--claim', '--lease', '45s', '--actor', 'bob']);
    expect(next.item).toBeNull();
  });

  it('says who holds the claim and until when', async () => {
    const { cli, id } = await withItem();
    expect((await cli.run(['claim', id, '--lease', '90'])).stdout).toMatch(/^Claimed pm-[0-9a-z]+ "Ship it" for alice until 2026-03-01 11:30Z \(revision 2\)/);
  });
});

describe('pm close / reopen / comment', () => {
  it('closes with evidence, cancels, reopens with a reason', async () => {
    const { cli, id } = await withItem();
    const closed = await cli.json<Result>(['close', id, '-e', 'commit abc123']);
    expect(closed.item).toMatchObject({ status: 'closed', closure: { by: 'alice', evidence: 'commit abc123' } });
    expect((await cli.run(['get', id])).stdout).toContain('Closed 2026-03-01 10:00Z by alice:\n  commit abc123');
    const reopened = await cli.json<Result>(['reopen', id, '--reason', 'regressed']);
    expect(reopened.item.status).toBe('open');
    expect(reopened.item.comments.at(-1)!.text).toBe('Reopened: regressed');
    expect((await cli.json<Result>(['close', id, '--cancel', '--evidence', 'not needed'])).item.status).toBe('canceled');
    expect((await cli.run(['reopen', id])).stdout).toMatch(/^Reopened/);
  });

  it('requires evidence', async () => {
    const { cli, id } = await withItem();
    const missing = await cli.run(['close', id]);
    expect(missing.error).toBeInstanceOf(UsageError);
    expect((missing.error as Error).message).toMatch(/^--evidence: required/);
    expect(((await cli.run(['close', id, '--evidence', '  '])).error as Error).message).toBe('--evidence: the value is empty (expected TEXT)');
  });

  it('asks for consent before canceling somebody else\'s claim', async () => {
    const { cli, id } = await withItem();
    await cli.json(['claim', id, '--actor', 'bob']);
    const refused = await cli.run(['close', id, '--cancel', '--evidence', 'dup']);
    expect(refused.error).toBeInstanceOf(ConsentRequiredError);
    expect((refused.error as ConsentRequiredError).exitCode).toBe(6);
    const declined = await cli.run(['close', id, '--cancel', '--evidence', 'dup'], { interactive: true, answers: [false] });
    expect(declined.io.questions[0]).toMatch(/^Cancel pm-[0-9a-z]+ "Ship it", which bob has claimed until .* \[y\/N\] $/);
    expect((declined.error as ConsentRequiredError).data.declined).toBe(true);
    const agreed = await cli.run(['close', id, '--cancel', '--evidence', 'dup', '--json'], { interactive: true, answers: [true] });
    expect(JSON.parse(agreed.stdout).item.status).toBe('canceled');
  });

  it('joins comment words, reads - from stdin, refuses an empty comment', async () => {
    const { cli, id } = await withItem();
    expect((await cli.json<Result>(['comment', id, 'looks', 'good', '--', '-1 for', 'naming'])).item.comments[0]).toMatchObject({ author: 'alice', text: 'looks good -1 for naming' });
    expect((await cli.json<Result>(['comment', id, '-'], { stdin: 'from a pipe\n' })).item.comments[1]!.text).toBe('from a pipe');
    expect(((await cli.run(['comment', id])).error as Error).message).toBe('missing <text...>');
  });
});

describe('pm deps', () => {
  it('adds, shows and removes links in both directions', async () => {
    const cli = await cliHarness();
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map(async (t) => (await cli.json<Result>(['create', t])).item.id));
    expect((await cli.json<Result>(['deps', 'add', a!, '--blocked-by', b!])).item.blockedBy).toEqual([b]);
    expect((await cli.json<Result>(['deps', 'add', a!, '--blocks', c!])).item).toMatchObject({ id: c, blockedBy: [a] });
    await cli.json(['deps', 'add', a!, '--related', c!]);
    const view = await cli.json<DependencyView>(['deps', a!]);
    expect(view).toMatchObject({ id: a, openBlockers: 1, blockedBy: [{ id: b, title: 'B', status: 'open' }], blocks: [{ id: c, title: 'C', status: 'open' }], related: [{ id: c }] });
    const human = (await cli.run(['deps', a!])).stdout;
    expect(human).toContain('waiting on 1 open blocker');
    expect(human).toMatch(/Blocks:\n  pm-[0-9a-z]+ +open +C/);
    const cycle = await cli.run(['deps', 'add', b!, '--blocked-by', a!]);
    expect(cycle.error).toBeInstanceOf(ConflictError);
    expect((cycle.error as ConflictError).reason).toBe('dependency_cycle');
    expect((await cli.json<Result>(['deps', 'remove', a!, '--blocks', c!])).item.blockedBy).toEqual([]);
    expect((await cli.run(['deps', 'remove', a!, '--blocks', c!])).error).toBeInstanceOf(NotFoundError);
    expect(((await cli.run(['deps', 'add', a!])).error as Error).message).toBe('give exactly one of --blocked-by, --blocks or --related');
    expect(((await cli.run(['deps', 'add', a!, '--related', b!, '--blocks', b!])).error as Error).message).toBe('give exactly one of --blocked-by, --blocks or --related');
  });
});

describe('pm delete', () => {
  it('needs --yes or a yes on a terminal; refuses without either', async () => {
    const { cli, id } = await withItem();
    const refused = await cli.run(['delete', id]);
    expect(refused.error).toBeInstanceOf(ConsentRequiredError);
    expect((refused.error as Error).message).toMatch(/This needs explicit consent\.$/);
    expect((await cli.run(['delete', id], { interactive: true, answers: [false] })).error).toBeInstanceOf(ConsentRequiredError);
    expect((await cli.json<Item>(['get', id])).id).toBe(id);
    const asked = await cli.run(['delete', id], { interactive: true, answers: [true] });
    expect(asked.stdout).toMatch(/^Deleted pm-/);
    expect((await cli.run(['get', id])).error).toBeInstanceOf(NotFoundError);
  });

  it('deletes with --yes and keeps the history', async () => {
    const { cli, id } = await withItem();
    const deleted = await cli.json<MutationResult<null>>(['delete', id, '-y']);
    expect(deleted).toMatchObject({ item: null, changed: true, receipt: { op: 'delete', itemId: id } });
    expect((await cli.json<unknown[]>(['history', id])).length).toBe(2);
  });
});
