import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { MemoryGitConfig } from '../../../../src/adapters/memory/memory-git-config.js';
import { MemoryGitHooks } from '../../../../src/adapters/memory/memory-git-hooks.js';
import { MergeInstaller } from '../../../../src/domain/merge/merge-install.js';

async function setup(existing?: string) {
  const fs = new MemoryFileSystem();
  const git = new MemoryGitConfig();
  git.addRepository('/p');
  const hooks = new MemoryGitHooks();
  hooks.addRepository('/p');
  if (existing !== undefined) await fs.writeAtomic('/p/.gitattributes', existing);
  return { fs, git, hooks, installer: new MergeInstaller(fs, git, hooks, '/p', "'pm'") };
}

describe('merge install', () => {
  it('adds the local driver entries and a fenced attributes block; running it again changes nothing', async () => {
    const { fs, git, installer } = await setup('*.png binary\n');
    expect(await installer.installed()).toBe(false);
    expect((await installer.install()).changed).toBe(true);
    expect(await installer.installed()).toBe(true);
    const text = await fs.readText('/p/.gitattributes');
    expect(text).toMatch(/^\*\.png binary\n# >>> pm merge drivers.*\n\/\.agents\/pm\/items\/\*\.md merge=pm-item\n\/\.agents\/pm\/history\/\*\.jsonl merge=pm-history\n# <<< pm merge drivers\n$/);
    expect((await git.entries('/p', 'merge.pm-item')).map((e) => e.value)).toEqual(['pm item files: field-level three-way merge', "'pm' merge driver item %O %A %B %P %L"]);
    expect((await installer.install()).changed).toBe(false);
    expect(await fs.readText('/p/.gitattributes')).toBe(text);
  });

  it('uninstall removes exactly what install added and keeps what someone else changed', async () => {
    const { fs, git, installer } = await setup('*.png binary\n');
    await installer.install();
    await git.set('/p', 'merge.pm-history.recursive', 'binary');
    const report = await installer.uninstall();
    expect(report.kept).toEqual(['merge.pm-history.recursive']);
    expect(await fs.readText('/p/.gitattributes')).toBe('*.png binary\n');
    expect(await git.entries('/p', 'merge.pm-item')).toEqual([]);
    expect(await git.entries('/p', 'merge.pm-history')).toEqual([{ key: 'merge.pm-history.recursive', value: 'binary' }]);
    expect((await installer.uninstall()).changed).toBe(false);
  });

  it('removes a .gitattributes it created and refuses outside a git repository', async () => {
    const { fs, installer } = await setup();
    await installer.install();
    await installer.uninstall();
    expect(await fs.readText('/p/.gitattributes')).toBeUndefined();
    const outside = new MergeInstaller(fs, new MemoryGitConfig(), new MemoryGitHooks(), '/q', "'pm'");
    await expect(outside.install()).rejects.toThrow(/not in a git repository: run 'git init' first/);
  });

  it('writes an executable post-merge hook that runs pm merge check; again changes nothing; uninstall removes it', async () => {
    const { hooks, installer } = await setup();
    const report = await installer.install();
    expect(report.hook).toEqual({ file: '/p/.git/hooks/post-merge', status: 'written', line: "'pm' merge check --quiet --root '.'" });
    const text = await hooks.read('/p/.git/hooks/post-merge');
    expect(text).toMatch(/^#!\/bin\/sh\n# pm merge check \(written by `pm merge install`.*\n#.*\n'pm' merge check --quiet --root '\.'\n$/);
    expect(hooks.isExecutable('/p/.git/hooks/post-merge')).toBe(true);
    const again = await installer.install();
    expect(again).toMatchObject({ changed: false, hook: { status: 'unchanged' } });
    const removed = await installer.uninstall();
    expect(removed).toMatchObject({ changed: true, hook: { status: 'removed' } });
    expect(await hooks.read('/p/.git/hooks/post-merge')).toBeUndefined();
    expect((await installer.uninstall()).hook.status).toBe('absent');
  });

  it('puts the hook where core.hooksPath says, and names a project below the top by its path', async () => {
    const fs = new MemoryFileSystem();
    const git = new MemoryGitConfig();
    git.addRepository('/r');
    const hooks = new MemoryGitHooks();
    hooks.addRepository('/r', '/r/.githooks');
    const report = await new MergeInstaller(fs, git, hooks, '/r/apps/web', "'pm'").install();
    expect(report.hook).toMatchObject({ file: '/r/.githooks/post-merge', status: 'written', line: "'pm' merge check --quiet --root 'apps/web'" });
  });

  it('never overwrites or removes a hook pm did not write, and names the line to add', async () => {
    const { hooks, installer } = await setup();
    const theirs = '#!/bin/sh\nset -e\nnpm run check-lockfile\n';
    hooks.put('/p/.git/hooks/post-merge', theirs);
    const report = await installer.install();
    expect(report.hook).toEqual({ file: '/p/.git/hooks/post-merge', status: 'kept', line: "'pm' merge check --quiet --root '.'", runsCheck: false });
    expect(await hooks.read('/p/.git/hooks/post-merge')).toBe(theirs);
    expect((await installer.uninstall()).hook).toMatchObject({ status: 'kept', runsCheck: false });
    expect(await hooks.read('/p/.git/hooks/post-merge')).toBe(theirs);
    hooks.put('/p/.git/hooks/post-merge', `${theirs}${report.hook.line}\n`);
    expect((await installer.install()).hook).toMatchObject({ status: 'kept', runsCheck: true });
  });

  it("updates pm's own hook when the pm that runs it moved, and a hook pm's header starts but someone extended is theirs", async () => {
    const { hooks, installer, fs, git } = await setup();
    await installer.install();
    const moved = new MergeInstaller(fs, git, hooks, '/p', "'/opt/pm'");
    expect((await moved.install()).hook.status).toBe('written');
    expect(await hooks.read('/p/.git/hooks/post-merge')).toContain("'/opt/pm' merge check --quiet");
    const extended = `${(await hooks.read('/p/.git/hooks/post-merge'))!}echo done\n`;
    hooks.put('/p/.git/hooks/post-merge', extended);
    expect((await moved.uninstall()).hook.status).toBe('kept');
    expect(await hooks.read('/p/.git/hooks/post-merge')).toBe(extended);
  });
});
