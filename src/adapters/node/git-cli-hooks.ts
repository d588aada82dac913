import { chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import type { GitHooks } from '../../ports/git-hooks.js';
import { runGit, type GitRun } from './git-cli.js';
import { asStorageError } from './storage-errors.js';

/**
 * Git hooks through the system `git`: the hooks directory is what `git rev-parse --git-path
 * hooks` answers, so `core.hooksPath` (absolute, relative to the work tree, or `~/…`), linked
 * worktrees and every other layout are resolved by git itself. Hook files are written by temp
 * file and rename, mode 0755.
 */
export class GitCliHooks implements GitHooks {
  /**
   * @param gitBinary the git executable (default: `git` on PATH)
   * @param env the environment git runs with (default: this process's)
   */
  constructor(
    private readonly gitBinary = 'git',
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async hookPath(dir: string, name: string): Promise<string> {
    const run = this.check(await this.git(dir, ['rev-parse', '--git-path', `hooks/${name}`]), 'rev-parse --git-path');
    return resolve(dir, run.stdout.replace(/\n$/, ''));
  }

  async workTreePath(dir: string): Promise<string> {
    const run = this.check(await this.git(dir, ['rev-parse', '--show-prefix']), 'rev-parse --show-prefix');
    return run.stdout.trim().replace(/\/$/, '');
  }

  async read(path: string): Promise<string | undefined> {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw asStorageError(error, 'read', path);
    }
  }

  async write(path: string, text: string): Promise<void> {
    const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temp, text, { encoding: 'utf8', flag: 'wx', mode: 0o755 });
      await chmod(temp, 0o755);
      await rename(temp, path);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw asStorageError(error, 'write', path);
    }
  }

  async remove(path: string): Promise<void> {
    try {
      await unlink(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw asStorageError(error, 'remove', path);
    }
  }

  private check(run: GitRun, what: string): GitRun {
    if (run.code !== 0) throw new Error(`git ${what} failed (exit ${run.code}): ${run.stderr.trim()}`);
    return run;
  }

  private git(dir: string, args: readonly string[]): Promise<GitRun> {
    return runGit(this.gitBinary, this.env, dir, args, 1024 * 1024);
  }
}
