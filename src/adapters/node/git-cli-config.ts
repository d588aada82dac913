import type { GitConfig, GitConfigEntry } from '../../ports/git-config.js';
import { runGit, type GitRun } from './git-cli.js';

/**
 * The clone-local git config through the system `git` (`git config --local`), so worktrees,
 * `core.worktree` and every other layout git knows are handled by git itself.
 */
export class GitCliConfig implements GitConfig {
  /**
   * @param gitBinary the git executable (default: `git` on PATH)
   * @param env the environment git runs with (default: this process's)
   */
  constructor(
    private readonly gitBinary = 'git',
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async isRepository(dir: string): Promise<boolean> {
    const run = await this.git(dir, ['rev-parse', '--is-inside-work-tree']);
    return run.code === 0 && run.stdout.trim() === 'true';
  }

  async entries(dir: string, section: string): Promise<GitConfigEntry[]> {
    const run = await this.git(dir, ['config', '--local', '--null', '--get-regexp', `^${section.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`]);
    if (run.code === 1) return [];
    this.check(run, 'config --get-regexp');
    return run.stdout.split('\0').filter(Boolean).map((record) => {
      const cut = record.indexOf('\n');
      return cut < 0 ? { key: record, value: '' } : { key: record.slice(0, cut), value: record.slice(cut + 1) };
    });
  }

  async set(dir: string, key: string, value: string): Promise<void> {
    this.check(await this.git(dir, ['config', '--local', key, value]), 'config');
  }

  async unset(dir: string, key: string): Promise<void> {
    const run = await this.git(dir, ['config', '--local', '--unset-all', key]);
    if (run.code !== 5) this.check(run, 'config --unset-all');
  }

  async removeSection(dir: string, section: string): Promise<void> {
    const run = await this.git(dir, ['config', '--local', '--remove-section', section]);
    if (run.code !== 128 || !/no such section/i.test(run.stderr)) this.check(run, 'config --remove-section');
  }

  private check(run: GitRun, what: string): void {
    if (run.code !== 0) throw new Error(`git ${what} failed (exit ${run.code}): ${run.stderr.trim()}`);
  }

  private git(dir: string, args: readonly string[]): Promise<GitRun> {
    return runGit(this.gitBinary, this.env, dir, args, 4 * 1024 * 1024);
  }
}
