import type { GitConfig } from '../../../src/ports/git-config.js';

/**
 * The shared contract of the GitConfig port (docs/TRACKER.md "Merges": drivers live in the
 * clone-local config), run against the in-memory config and the system git.
 */
export function describeGitConfigContract(label: string, subject: () => Promise<{ readonly git: GitConfig; readonly repo: string; readonly outside: string }>): void {
  describe(`${label}: GitConfig (contract)`, () => {
    it('tells a repository from a plain directory', async () => {
      const { git, repo, outside } = await subject();
      expect(await git.isRepository(repo)).toBe(true);
      expect(await git.isRepository(outside)).toBe(false);
    });

    it('sets, lists, unsets and removes a section, missing keys and sections being no error', async () => {
      const { git, repo } = await subject();
      expect(await git.entries(repo, 'merge.pm-item')).toEqual([]);
      await git.set(repo, 'merge.pm-item.name', 'pm items');
      await git.set(repo, 'merge.pm-item.driver', "'pm' merge driver item %O %A %B %P");
      await git.set(repo, 'merge.pm-item.name', 'pm item files');
      await git.set(repo, 'merge.other.name', 'other');
      expect(await git.entries(repo, 'merge.pm-item')).toEqual([{ key: 'merge.pm-item.name', value: 'pm item files' }, { key: 'merge.pm-item.driver', value: "'pm' merge driver item %O %A %B %P" }]);
      await git.unset(repo, 'merge.pm-item.name');
      await git.unset(repo, 'merge.pm-item.missing');
      expect((await git.entries(repo, 'merge.pm-item')).map((e) => e.key)).toEqual(['merge.pm-item.driver']);
      await git.removeSection(repo, 'merge.pm-item');
      await git.removeSection(repo, 'merge.pm-absent');
      expect(await git.entries(repo, 'merge.pm-item')).toEqual([]);
      expect(await git.entries(repo, 'merge.other')).toEqual([{ key: 'merge.other.name', value: 'other' }]);
    });
  });
}
