import type { GitConfig, GitConfigEntry } from '../../ports/git-config.js';

/**
 * An in-memory clone-local git config: one ordered list of entries per repository directory.
 * A directory belongs to a repository when it is the repository's directory or below it.
 */
export class MemoryGitConfig implements GitConfig {
  private readonly repos = new Map<string, GitConfigEntry[]>();

  /** Makes `dir` a repository (what `git init` does), with no local entries. */
  addRepository(dir: string): void {
    if (!this.repos.has(dir)) this.repos.set(dir, []);
  }

  async isRepository(dir: string): Promise<boolean> {
    return this.repoOf(dir) !== undefined;
  }

  async entries(dir: string, section: string): Promise<GitConfigEntry[]> {
    const prefix = `${section.toLowerCase()}.`;
    return this.require(dir).filter((entry) => entry.key.toLowerCase().startsWith(prefix)).map((entry) => ({ ...entry }));
  }

  async set(dir: string, key: string, value: string): Promise<void> {
    const list = this.require(dir);
    const at = list.findIndex((entry) => entry.key.toLowerCase() === key.toLowerCase());
    if (at >= 0) list[at] = { key: list[at]!.key, value };
    else list.push({ key, value });
  }

  async unset(dir: string, key: string): Promise<void> {
    const list = this.require(dir);
    const at = list.findIndex((entry) => entry.key.toLowerCase() === key.toLowerCase());
    if (at >= 0) list.splice(at, 1);
  }

  async removeSection(dir: string, section: string): Promise<void> {
    const list = this.require(dir);
    const prefix = `${section.toLowerCase()}.`;
    for (let i = list.length - 1; i >= 0; i--) if (list[i]!.key.toLowerCase().startsWith(prefix)) list.splice(i, 1);
  }

  private repoOf(dir: string): GitConfigEntry[] | undefined {
    for (const [root, list] of this.repos) if (dir === root || dir.startsWith(`${root}/`)) return list;
    return undefined;
  }

  private require(dir: string): GitConfigEntry[] {
    const list = this.repoOf(dir);
    if (!list) throw new Error(`${dir} is not in a git repository`);
    return list;
  }
}
