import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { MemoryGitConfig } from '../../../../src/adapters/memory/memory-git-config.js';
import { MergeInstaller } from '../../../../src/domain/merge/merge-install.js';

async function setup(existing?: string) {
  const fs = new MemoryFileSystem();
  const git = new MemoryGitConfig();
  git.addRepository('/p');
  if (existing !== undefined) await fs.writeAtomic('/p/.gitattributes', existing);
  return { fs, git, installer: new MergeInstaller(fs, git, '/p', "'pm'") };
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
    const outside = new MergeInstaller(fs, new MemoryGitConfig(), '/q', "'pm'");
    await expect(outside.install()).rejects.toThrow(/not in a git repository: run 'git init' first/);
  });
});
