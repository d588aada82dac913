import type { MergeCheckReport } from '../../../../src/domain/merge/merge-check.js';
import type { MergeInstallReport } from '../../../../src/domain/merge/merge-install.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import type { MutationResult } from '../../../../src/domain/tracker/receipt.js';
import { cliHarness } from '../../../support/cli-harness.js';
import { ROOT } from '../../../support/memory-tracker.js';

type Result = MutationResult<Item>;

/** A tracker where a blocks b and b's file was edited (as a merge would) to be blocked by a too. */
async function cycleProject() {
  const cli = await cliHarness();
  const a = (await cli.json<Result>(['create', 'A'])).item.id;
  const b = (await cli.json<Result>(['create', 'B', '--blocked-by', a])).item.id;
  const file = `${ROOT}/items/${a}.md`;
  await cli.fs.writeAtomic(file, (await cli.fs.readText(file))!.replace('title: A', `title: A\nblockedBy:\n  - ${b}`));
  return { cli, a, b };
}

describe('pm merge check', () => {
  it('exits 0 on a clean tracker, saying so, and prints nothing with --quiet', async () => {
    const cli = await cliHarness();
    await cli.json(['create', 'A']);
    const run = await cli.run(['merge', 'check']);
    expect(run).toMatchObject({ code: 0, stdout: 'pm merge check: nothing to repair (no cycles, id collisions, dangling links or conflicts).\n' });
    expect(await cli.run(['merge', 'check', '--quiet'])).toMatchObject({ code: 0, stdout: '' });
  });

  it('names a dependency cycle, the link to remove and the command, exit 5; the command makes it clean', async () => {
    const { cli, a, b } = await cycleProject();
    const run = await cli.run(['merge', 'check', '--quiet']);
    expect(run.code).toBe(5);
    expect(run.stdout).toContain('pm merge check: the merge left 1 problem:\n');
    expect(run.stdout).toContain(`  dependency_cycle: dependency cycle: ${a} -> ${b} -> ${a}; remove ${a} blocked by ${b} (no history line records when it was added): pm deps remove ${a} --blocked-by ${b}`);
    expect(run.stdout).toContain(`Repair with:\n  pm deps remove ${a} --blocked-by ${b}\nThen run 'pm merge check' again.\n`);
    const report = JSON.parse((await cli.run(['merge', 'check', '--json'])).stdout) as MergeCheckReport;
    expect(report).toMatchObject({ ok: false, commands: [`pm deps remove ${a} --blocked-by ${b}`], otherErrors: 0 });
    expect(report.problems[0]).toMatchObject({ code: 'dependency_cycle', edge: { itemId: a, field: 'blockedBy', target: b }, toolCall: { name: 'pm_deps' } });
    expect((await cli.run(['deps', 'remove', a, '--blocked-by', b])).code).toBe(0);
    expect((await cli.run(['merge', 'check'])).code).toBe(0);
  });

  it('counts errors a merge does not cause and points at pm validate for them', async () => {
    const cli = await cliHarness();
    const a = (await cli.json<Result>(['create', 'A'])).item.id;
    await cli.json(['comment', a, 'second line']);
    const history = `${ROOT}/history/${a}.jsonl`;
    await cli.fs.writeAtomic(history, (await cli.fs.readText(history))!.replace('"actor":"alice"', '"actor":"mallory"'));
    const run = await cli.run(['merge', 'check', '--quiet']);
    expect(run).toMatchObject({ code: 5, stdout: "pm merge check: nothing a merge left to repair.\n1 other error: run 'pm validate' for it.\n" });
  });
});

describe('pm merge install / uninstall: the post-merge hook', () => {
  it('writes the hook, reports it, changes nothing the second time, and uninstall removes it', async () => {
    const cli = await cliHarness();
    const first = await cli.run(['merge', 'install']);
    expect(first.stdout).toContain("  /project/.git/hooks/post-merge: runs 'pm merge check' after every merge\n");
    expect(await cli.hooks.read('/project/.git/hooks/post-merge')).toContain("'pm' merge check --quiet --root '.'");
    const second = await cli.json<MergeInstallReport>(['merge', 'install']);
    expect(second).toMatchObject({ changed: false, hook: { status: 'unchanged' } });
    expect((await cli.run(['merge', 'uninstall'])).stdout).toContain('  /project/.git/hooks/post-merge: removed\n');
    expect(await cli.hooks.read('/project/.git/hooks/post-merge')).toBeUndefined();
  });

  it("keeps someone else's hook and prints the one line to add", async () => {
    const cli = await cliHarness();
    cli.hooks.put('/project/.git/hooks/post-merge', '#!/bin/sh\nmake deps\n');
    const run = await cli.run(['merge', 'install']);
    expect(run.stdout).toContain("  kept /project/.git/hooks/post-merge: not written by pm, left as it is; to check merges, add this line to it:\n    'pm' merge check --quiet --root '.'\n");
    expect(await cli.hooks.read('/project/.git/hooks/post-merge')).toBe('#!/bin/sh\nmake deps\n');
  });
});
