import { jest } from '@jest/globals';
import { GitProject } from '../support/git-project.js';
import { McpProcesses, modernMeta, RawMcpClient } from '../support/mcp-stdio.js';

// Real git (the system `git`) in temp repositories, every change through the real `pm` CLI
// (and one `pm-mcp`), merged with pm's drivers installed by `pm merge install`.
jest.setTimeout(240_000);

const projects: GitProject[] = [];
const mcp = new McpProcesses();
async function project(options: { drivers?: boolean } = {}): Promise<GitProject> {
  const p = await GitProject.create(options);
  projects.push(p);
  return p;
}
afterEach(async () => {
  await mcp.killAll();
  await Promise.all(projects.splice(0).map((p) => p.remove()));
});

/** Every history line of both branches is in the merged file, and the tracker validates clean. */
async function expectLossless(p: GitProject, ids: readonly string[], before: Map<string, string[]>): Promise<void> {
  const report = await p.validate();
  expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
  for (const id of ids) {
    const lines = await p.historyLines(id);
    for (const line of before.get(id) ?? []) expect(lines).toContain(line);
  }
}

async function linesOf(p: GitProject, ids: readonly string[], into = new Map<string, string[]>()): Promise<Map<string, string[]>> {
  for (const id of ids) into.set(id, [...(into.get(id) ?? []), ...(await p.historyLines(id).catch(() => []))]);
  return into;
}

describe('git merges with pm merge drivers', () => {
  it('keeps comments, tags, dependencies, status changes and creates of both branches (one through pm-mcp)', async () => {
    const p = await project();
    const id = await p.create('Shared', '--tag', 'base', '--tag', 'old');
    const dep = await p.create('Dependency');
    await p.commitAll('base');

    await p.checkout('-b', 'a');
    await p.pmOk('comment', id, 'from a');
    await p.pmOk('update', id, '--add-tag', 'a-tag', '--remove-tag', 'old', '--status', 'in_progress');
    await p.pmOk('deps', 'add', id, '--blocked-by', dep);
    const createdA = await p.create('Created on a');
    await p.commitAll('a');
    const seen = await linesOf(p, [id, dep, createdA]);

    await p.checkout('main');
    await p.checkout('-b', 'b');
    const server = new RawMcpClient(mcp.spawn(p.dir, { ...p.env }));
    const reply = await server.request('tools/call', { name: 'pm_comment', arguments: { id, text: 'from b over mcp' }, _meta: modernMeta() });
    expect(JSON.stringify(reply)).not.toMatch(/"isError":true|"error"/);
    server.proc.endInput();
    expect((await server.proc.exited).code).toBe(0);
    await p.pmOk('update', id, '--add-tag', 'b-tag', '--status', 'blocked', '--priority', '0');
    const createdB = await p.create('Created on b');
    await p.commitAll('b');
    await linesOf(p, [id, dep, createdB], seen);

    const merged = await p.git('merge', '--no-edit', 'a');
    expect(merged.code).toBe(0);
    const item = await p.item(id);
    expect(item.comments.map((c: { text: string }) => c.text).sort()).toEqual(['from a', 'from b over mcp']);
    expect(item.tags.sort()).toEqual(['a-tag', 'b-tag', 'base']);
    expect(item.blockedBy).toEqual([dep]);
    expect(item.priority).toBe(0);
    expect(item.status).toBe('blocked'); // both changed: the later update (b's) wins
    expect(await p.file('.agents/pm/.runtime/merge-receipts.jsonl')).toContain('"field":"status"');
    expect((await p.item(createdA)).title).toBe('Created on a');
    expect((await p.item(createdB)).title).toBe('Created on b');
    await expectLossless(p, [id, dep, createdA, createdB], seen);
    const history = await p.history(id);
    expect(history.filter((e) => e.op === 'merge')).toHaveLength(1);
    // The derived index noticed the merged files, and the next write continues the chain.
    expect((await p.pmJson<{ items: { id: string }[] }>('list', '--tag', 'a-tag')).items.map((i) => i.id)).toEqual([id]);
    await p.pmOk('comment', id, 'after the merge');
    await expectLossless(p, [id], seen);
  });

  it('merges a close on one side with an update on the other, and bodies: clean, then conflicting', async () => {
    const p = await project();
    const id = await p.create('Body', '--body', 'line one\nline two\nline three');
    await p.commitAll('base');
    await p.checkout('-b', 'a');
    await p.pmOk('close', id, '--evidence', 'shipped');
    await p.pmOk('update', id, '--body', 'LINE ONE\nline two\nline three');
    await p.commitAll('a');
    await p.checkout('main');
    await p.pmOk('update', id, '--title', 'Renamed', '--add-tag', 'ui', '--body', 'line one\nline two\nLINE THREE');
    await p.commitAll('main');
    expect((await p.git('merge', '--no-edit', 'a')).code).toBe(0);
    const item = await p.item(id);
    expect(item).toMatchObject({ status: 'closed', title: 'Renamed', tags: ['ui'], body: 'LINE ONE\nline two\nLINE THREE' });
    expect(item.closure.evidence).toBe('shipped');
    await expectLossless(p, [id], new Map());

    await p.checkout('-b', 'c');
    await p.pmOk('update', id, '--body', 'LINE ONE\nfrom c\nLINE THREE');
    await p.commitAll('c');
    await p.checkout('main');
    await p.pmOk('update', id, '--body', 'LINE ONE\nfrom main\nLINE THREE', '--priority', '1');
    await p.commitAll('main 2');
    const conflicted = await p.git('merge', '--no-edit', 'c');
    expect(conflicted.code).not.toBe(0);
    expect(conflicted.stdout).toMatch(/CONFLICT \(content\).*items\//);
    expect(conflicted.stdout).not.toMatch(/CONFLICT.*history\//);
    const text = await p.file(`.agents/pm/items/${id}.md`);
    const [front, body] = [text.slice(0, text.indexOf('\n---\n')), text.slice(text.indexOf('\n---\n'))];
    expect(front).not.toMatch(/<<<<<<<|>>>>>>>/);
    expect(body).toMatch(/<<<<<<< ours\nfrom main\n=======\nfrom c\n>>>>>>> theirs/);
    expect((await p.validate()).findings.map((f) => f.code)).toContain('unresolved_conflict');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${p.dir}/.agents/pm/items/${id}.md`, text.replace(/<<<<<<< ours\n(from main)\n=======\n(from c)\n>>>>>>> theirs\n/, '$1 and $2\n'));
    await p.commitAll('resolved');
    expect((await p.item(id)).body).toBe('LINE ONE\nfrom main and from c\nLINE THREE');
    await expectLossless(p, [id], new Map());
  });

  it('keeps an item deleted on one branch and updated on the other when git is told to keep it, with both histories', async () => {
    const p = await project();
    const id = await p.create('Doomed');
    await p.commitAll('base');
    await p.checkout('-b', 'a');
    await p.pmOk('delete', id, '--yes');
    await p.commitAll('delete');
    await p.checkout('main');
    await p.pmOk('comment', id, 'still needed');
    await p.commitAll('update');
    const merged = await p.git('merge', '--no-edit', 'a');
    expect(merged.stdout).toMatch(/CONFLICT \(modify\/delete\)/);
    const ops = (await p.historyLines(id)).map((line) => JSON.parse(line).op);
    expect(ops).toEqual(expect.arrayContaining(['create', 'delete', 'comment', 'merge']));
    await p.gitOk('add', `.agents/pm/items/${id}.md`);
    await p.gitOk('commit', '-q', '--no-edit');
    expect((await p.item(id)).comments[0].text).toBe('still needed');
    await expectLossless(p, [id], new Map());
  });

  it('rebases and cherry-picks through the same drivers', async () => {
    const p = await project();
    const id = await p.create('Shared');
    await p.commitAll('base');
    await p.checkout('-b', 'topic');
    await p.pmOk('comment', id, 'topic 1');
    await p.commitAll('topic 1');
    await p.pmOk('update', id, '--add-tag', 'topic');
    await p.commitAll('topic 2');
    await p.checkout('main');
    await p.pmOk('comment', id, 'main 1');
    await p.commitAll('main 1');
    const seen = await linesOf(p, [id]);
    await p.checkout('-b', 'picked');
    await p.gitOk('cherry-pick', 'topic~1');
    expect((await p.item(id)).comments.map((c: { text: string }) => c.text).sort()).toEqual(['main 1', 'topic 1']);
    await expectLossless(p, [id], seen);
    await p.checkout('topic');
    await linesOf(p, [id], seen);
    await p.gitOk('rebase', '-q', 'main');
    const item = await p.item(id);
    expect(item.comments.map((c: { text: string }) => c.text).sort()).toEqual(['main 1', 'topic 1']);
    expect(item.tags).toEqual(['topic']);
    await expectLossless(p, [id], seen);
  });

  it('merges three branches at once (octopus); where git refuses, the documented recipe makes the octopus commit', async () => {
    const p = await project();
    const id = await p.create('Shared');
    await p.commitAll('base');
    const created: string[] = [];
    for (const name of ['x', 'y', 'z']) {
      await p.checkout('-b', name, 'main');
      created.push(await p.create(`made on ${name}`));
      await p.commitAll(name);
    }
    await p.checkout('main');
    expect((await p.git('merge', '--no-ff', '--no-edit', 'x', 'y', 'z')).code).toBe(0);
    expect((await p.gitOk('log', '-1', '--format=%P')).trim().split(' ')).toHaveLength(4);
    for (const other of created) expect((await p.item(other)).title).toMatch(/^made on/);
    await expectLossless(p, [id, ...created], new Map());

    // Git's octopus strategy merges files with its own text merge, never with a driver: when
    // several branches changed one item it refuses and leaves the work tree as it was.
    for (const name of ['u', 'v', 'w']) {
      await p.checkout('-b', name, 'main');
      await p.pmOk('comment', id, `from ${name}`);
      await p.commitAll(name);
    }
    const seen = await linesOf(p, [id]);
    await p.checkout('main');
    const head = (await p.gitOk('rev-parse', 'HEAD')).trim();
    const refused = await p.git('merge', '--no-edit', 'u', 'v', 'w');
    expect(refused.code).not.toBe(0);
    expect((await p.gitOk('status', '--porcelain')).trim()).toBe('');
    expect((await p.gitOk('rev-parse', 'HEAD')).trim()).toBe(head);
    // The recipe of docs/TRACKER.md: merge one by one (drivers run), then record one octopus commit.
    await p.checkout('-b', 'octopus-tree');
    for (const name of ['u', 'v', 'w']) await p.gitOk('merge', '-q', '--no-edit', name);
    await p.checkout('main');
    await p.gitOk('merge', '-q', '-s', 'ours', '--no-commit', 'u', 'v', 'w');
    await p.gitOk('read-tree', '-u', '--reset', 'octopus-tree');
    await p.gitOk('commit', '-q', '--no-edit');
    expect((await p.gitOk('log', '-1', '--format=%P')).trim().split(' ')).toHaveLength(4);
    expect((await p.item(id)).comments.map((c: { text: string }) => c.text).sort()).toEqual(['from u', 'from v', 'from w']);
    await expectLossless(p, [id], seen);
  });

  it('without drivers, pm validate explains a textual merge and git checkout -m re-merges it once installed; uninstall undoes install', async () => {
    const p = await project({ drivers: false });
    const id = await p.create('Shared');
    await p.commitAll('base');
    await p.checkout('-b', 'a');
    await p.pmOk('comment', id, 'from a');
    await p.commitAll('a');
    await p.checkout('main');
    await p.pmOk('comment', id, 'from main');
    await p.commitAll('main');
    const textual = await p.git('merge', '--no-edit', 'a');
    expect(textual.code).not.toBe(0);
    const report = await p.validate();
    // One finding for the item, naming both files and the repair: no tampering or missing_item the unmerged state explains.
    expect(report.findings).toEqual([expect.objectContaining({ code: 'unmerged_item', itemId: id, files: [`.agents/pm/items/${id}.md`, `.agents/pm/history/${id}.jsonl`].map((f) => expect.stringContaining(f)) })]);
    expect(report.findings[0]!.message).toMatch(/pm merge install.*git checkout -m -- <file>/);
    expect(await p.pmOk('merge', 'install')).toMatch(/Merge drivers installed/);
    expect(await p.pmOk('merge', 'install')).toMatch(/already installed; nothing changed/);
    await p.gitOk('checkout', '-m', '--', '.agents/pm');
    await p.gitOk('add', '-A');
    await p.gitOk('commit', '-q', '--no-edit');
    expect((await p.item(id)).comments.map((c: { text: string }) => c.text).sort()).toEqual(['from a', 'from main']);
    await expectLossless(p, [id], new Map());
    const configBefore = await p.file('.git/config');
    expect(configBefore).toContain('[merge "pm-item"]');
    await p.pmOk('merge', 'uninstall');
    expect(await p.file('.git/config')).not.toMatch(/pm-item|pm-history/);
    await expect(p.file('.gitattributes')).rejects.toThrow();
  });

  it('repairs an id two branches created by hand: pm validate reports it, pm merge fix-ids gives the later item a new id', async () => {
    const p = await project();
    const { mkdir, writeFile } = await import('node:fs/promises');
    const handMade = (title: string, created: string) => `---\nid: pm-hand01\ntitle: ${title}\ntype: Task\nstatus: open\npriority: 2\ncreated: ${created}\nupdated: ${created}\nrevision: 1\n---\n`;
    await p.checkout('-b', 'a');
    await mkdir(`${p.dir}/.agents/pm/items`, { recursive: true });
    await writeFile(`${p.dir}/.agents/pm/items/pm-hand01.md`, handMade('First', '2026-01-01T00:00:00.000Z'));
    await p.pmOk('comment', 'pm-hand01', 'on a');
    await p.commitAll('a');
    await p.checkout('main');
    await mkdir(`${p.dir}/.agents/pm/items`, { recursive: true });
    await writeFile(`${p.dir}/.agents/pm/items/pm-hand01.md`, handMade('Second', '2026-01-02T00:00:00.000Z'));
    await p.pmOk('comment', 'pm-hand01', 'on main');
    await p.commitAll('main');
    expect((await p.git('merge', '--no-edit', 'a')).code).toBe(0);
    expect((await p.validate()).findings.map((f) => f.code)).toContain('id_collision');
    expect((await p.item('pm-hand01')).title).toBe('First');
    const repairs = await p.pmJson<{ newId: string; exact: boolean }[]>('merge', 'fix-ids');
    expect(repairs).toHaveLength(1);
    expect(repairs[0]!.exact).toBe(true);
    const moved = await p.item(repairs[0]!.newId);
    expect(moved).toMatchObject({ title: 'Second', comments: [expect.objectContaining({ text: 'on main' })] });
    expect((await p.item('pm-hand01')).comments.map((c: { text: string }) => c.text)).toEqual(['on a']);
    expect((await p.validate()).findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(await p.pmJson('merge', 'fix-ids')).toEqual([]);
  });

  it('points each branch\'s references at its own item after pm merge fix-ids, and lists the ones both branches made', async () => {
    const p = await project();
    const { mkdir, writeFile } = await import('node:fs/promises');
    const handMade = (title: string, created: string) => `---\nid: pm-hand02\ntitle: ${title}\ntype: Task\nstatus: open\npriority: 2\ncreated: ${created}\nupdated: ${created}\nrevision: 1\n---\n`;
    const shared = await p.create('Shared referrer');
    await p.commitAll('shared');
    await p.checkout('-b', 'a');
    await mkdir(`${p.dir}/.agents/pm/items`, { recursive: true });
    await writeFile(`${p.dir}/.agents/pm/items/pm-hand02.md`, handMade('First', '2026-01-01T00:00:00.000Z'));
    await p.pmOk('comment', 'pm-hand02', 'on a');
    const childOnA = await p.create('Child on a', '--parent', 'pm-hand02');
    await p.pmOk('deps', 'add', shared, '--related', 'pm-hand02');
    await p.commitAll('a');
    await p.checkout('main');
    await writeFile(`${p.dir}/.agents/pm/items/pm-hand02.md`, handMade('Second', '2026-01-02T00:00:00.000Z'));
    await p.pmOk('comment', 'pm-hand02', 'on main');
    const blockedOnMain = await p.create('Blocked on main', '--blocked-by', 'pm-hand02');
    const relatedOnMain = await p.create('Related on main', '--related', 'pm-hand02', '--parent', 'pm-hand02');
    await p.pmOk('deps', 'add', shared, '--related', 'pm-hand02');
    await p.commitAll('main');
    expect((await p.git('merge', '--no-edit', 'a')).code).toBe(0);

    const repairs = await p.pmJson<{ newId: string; referencesRewritten: { itemId: string; field: string; receiptIds: string[] }[]; referencesToReview: string[] }[]>('merge', 'fix-ids');
    expect(repairs).toHaveLength(1);
    const moved = repairs[0]!.newId;
    expect((await p.item(moved)).title).toBe('Second');
    expect(repairs[0]!.referencesRewritten.map((r) => `${r.itemId} ${r.field}`).sort()).toEqual([`${blockedOnMain} blockedBy`, `${relatedOnMain} parent`, `${relatedOnMain} related`].sort());
    expect(repairs[0]!.referencesToReview).toEqual([shared]);
    // Main's referrers point at the moved item (main created it later); a's keep the kept id.
    expect(await p.item(blockedOnMain)).toMatchObject({ blockedBy: [moved] });
    expect(await p.item(relatedOnMain)).toMatchObject({ parent: moved, related: [moved] });
    expect(await p.item(childOnA)).toMatchObject({ parent: 'pm-hand02' });
    expect(await p.item(shared)).toMatchObject({ related: ['pm-hand02'] });
    // Each rewrite is a normal mutation: a history line with its receipt, by the actor.
    const receipts = repairs[0]!.referencesRewritten.flatMap((r) => r.receiptIds);
    const lines = [...(await p.history(blockedOnMain)), ...(await p.history(relatedOnMain))] as { receiptId: string; actor: string }[];
    for (const receipt of receipts) expect(lines).toContainEqual(expect.objectContaining({ receiptId: receipt, actor: 'tester' }));
    expect((await p.validate()).findings.filter((f) => f.severity === 'error')).toEqual([]);
    // The index knows the new references: the moved item lists what it blocks.
    expect((await p.pmJson<{ blocks: { id: string }[] }>('deps', moved)).blocks.map((b) => b.id)).toEqual([blockedOnMain]);
  });
});
