import { jest } from '@jest/globals';
import { appendFile, chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GitProject } from '../support/git-project.js';

// Real git in temp repositories (temp HOME, no global config), every change through the built
// `pm`: two branches each add one blocker link, the merge closes a cycle, and the post-merge
// hook `pm merge install` wrote names it, the link to remove and the command.
jest.setTimeout(240_000);

const projects: GitProject[] = [];
async function project(options: { drivers?: boolean } = {}): Promise<GitProject> {
  const p = await GitProject.create(options);
  projects.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(projects.splice(0).map((p) => p.remove()));
});

/** Branch `side` makes x blocked by y; main, later, makes y blocked by x. Each branch alone is valid. */
async function branchesClosingACycle(p: GitProject): Promise<{ x: string; y: string }> {
  const x = await p.create('Build the parser');
  const y = await p.create('Write the grammar');
  await p.commitAll('base');
  await p.checkout('-b', 'side');
  await p.pmOk('deps', 'add', x, '--blocked-by', y);
  await p.commitAll('x waits for y');
  await p.checkout('main');
  await p.pmOk('deps', 'add', y, '--blocked-by', x);
  await p.commitAll('y waits for x');
  expect((await p.validate()).ok).toBe(true);
  return { x, y };
}

describe('a merge that closes a dependency cycle', () => {
  it('is reported by the post-merge hook with the link to remove and the command; running it repairs the tracker', async () => {
    const p = await project({ drivers: false });
    const install = await p.pmOk('merge', 'install');
    const hookFile = join(p.dir, '.git', 'hooks', 'post-merge');
    expect(install).toContain(`${hookFile}: runs 'pm merge check' after every merge`);
    expect((await stat(hookFile)).mode & 0o100).toBe(0o100);
    expect(await p.pmOk('merge', 'install')).toContain('nothing changed');
    await p.commitAll('drivers');
    const { x, y } = await branchesClosingACycle(p);

    const merged = await p.git('merge', '--no-edit', 'side');
    expect(merged.code).toBe(0);
    const said = `${merged.stdout}${merged.stderr}`;
    // main's link (y blocked by x) was added last: it is the one to remove.
    const command = `pm deps remove ${y} --blocked-by ${x}`;
    expect(said).toContain(`dependency cycle: ${y} -> ${x} -> ${y}; remove the newest link, ${y} blocked by ${x} (added `);
    expect(said).toContain(`Repair with:\n  ${command}\n`);
    expect((await p.validate()).findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual(['dependency_cycle']);
    expect((await p.pmJson<{ item: unknown }>('next')).item).toBeNull();

    await p.pmOk(...command.split(' ').slice(1));
    expect((await p.validate()).ok).toBe(true);
    expect((await p.pmJson<{ item: { id: string } }>('next')).item.id).toBe(y);
    expect((await p.pm('merge', 'check')).code).toBe(0);
  });

  it("leaves a post-merge hook pm did not write alone (core.hooksPath honoured); the line it prints, added to it, reports the cycle", async () => {
    const p = await project({ drivers: false });
    await p.gitOk('config', 'core.hooksPath', '.githooks');
    const hookFile = join(p.dir, '.githooks', 'post-merge');
    await mkdir(join(p.dir, '.githooks'));
    await writeFile(hookFile, '#!/bin/sh\necho "team hook ran"\n');
    await chmod(hookFile, 0o755);
    const install = await p.pmOk('merge', 'install');
    expect(install).toContain(`kept ${hookFile}: not written by pm, left as it is; to check merges, add this line to it:\n`);
    const line = install.split('\n').find((l) => l.includes(' merge check --quiet'))!.trim();
    expect(await readFile(hookFile, 'utf8')).toBe('#!/bin/sh\necho "team hook ran"\n');
    await appendFile(hookFile, `${line}\n`);
    await p.commitAll('drivers and hook');
    const { x, y } = await branchesClosingACycle(p);

    const merged = await p.git('merge', '--no-edit', 'side');
    const said = `${merged.stdout}${merged.stderr}`;
    expect(said).toContain('team hook ran');
    expect(said).toContain(`pm deps remove ${y} --blocked-by ${x}`);
    expect((await p.pmOk('merge', 'uninstall'))).toContain(`kept ${hookFile}: not written by pm`);
    expect(await readFile(hookFile, 'utf8')).toContain('team hook ran');
  });

  it('a merge that stops on a body conflict says to run pm merge check once resolved', async () => {
    const p = await project();
    const id = await p.create('Body', '--body', 'one');
    await p.commitAll('base');
    await p.checkout('-b', 'side');
    await p.pmOk('update', id, '--body', 'from side');
    await p.commitAll('side');
    await p.checkout('main');
    await p.pmOk('update', id, '--body', 'from main');
    await p.commitAll('main');
    const merged = await p.git('merge', '--no-edit', 'side');
    expect(merged.code).not.toBe(0);
    expect(`${merged.stdout}${merged.stderr}`).toContain("once resolved and committed, run 'pm merge check' (a merge that stops runs no post-merge hook)");
  });
});
