import { basename, dirname } from 'node:path';
import type { MergeSides } from '../../ports/merge-sides.js';
import { runGit, type GitRun } from './git-cli.js';

/**
 * The sides of a merge through the system `git`: `MERGE_HEAD` while a merge is in progress,
 * else HEAD's parents (`git rev-list --parents`); a file at a commit through `git show
 * <commit>:./<name>` run in the file's directory, so git resolves the path in any layout it knows.
 */
export class GitCliMergeSides implements MergeSides {
  /**
   * @param gitBinary the git executable (default: `git` on PATH)
   * @param env the environment git runs with (default: this process's)
   */
  constructor(
    private readonly gitBinary = 'git',
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async sidesOf(dir: string): Promise<readonly [string, string] | undefined> {
    const merging = await this.git(dir, ['rev-parse', '-q', '--verify', 'MERGE_HEAD^{commit}']);
    if (merging.code === 0) {
      const head = await this.git(dir, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
      if (head.code === 0) return [head.stdout.trim(), merging.stdout.trim()];
    }
    const parents = await this.git(dir, ['rev-list', '--parents', '-n', '1', 'HEAD']);
    if (parents.code !== 0) return undefined;
    const [, first, second, ...more] = parents.stdout.trim().split(/\s+/);
    return first && second && more.length === 0 ? [first, second] : undefined;
  }

  async fileAt(commit: string, file: string): Promise<string | undefined> {
    if (!/^[0-9a-f]{4,64}$/i.test(commit)) throw new Error(`not a commit id: ${JSON.stringify(commit)}`);
    const run = await this.git(dirname(file), ['show', `${commit}:./${basename(file)}`]);
    return run.code === 0 ? run.stdout : undefined;
  }

  private git(dir: string, args: readonly string[]): Promise<GitRun> {
    return runGit(this.gitBinary, this.env, dir, args, 64 * 1024 * 1024);
  }
}
