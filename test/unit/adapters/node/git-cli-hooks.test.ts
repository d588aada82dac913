import { execFileSync } from 'node:child_process';
import { mkdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { GitCliHooks } from '../../../../src/adapters/node/git-cli-hooks.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeGitHooksContract } from '../git-hooks-contract.js';

const temp = useTempDir('pm-githooks-');

describeGitHooksContract('system git', async (hooksPath) => {
  const env = isolatedGitEnv(temp());
  const top = join(await realpath(temp()), 'repo');
  const below = join(top, 'apps', 'web');
  await mkdir(below, { recursive: true });
  execFileSync('git', ['init', '-q', top], { env });
  if (hooksPath) execFileSync('git', ['-C', top, 'config', 'core.hooksPath', hooksPath], { env });
  const executable = async (path: string) => ((await stat(path).catch(() => undefined))?.mode ?? 0) % 0o200 >= 0o100;
  return { hooks: new GitCliHooks('git', env), top, below, hooksDir: join(top, '.git', 'hooks'), executable };
});

it('finds the clone\'s hooks from a linked worktree (hooks are shared by every worktree)', async () => {
  const env = isolatedGitEnv(temp());
  const top = join(await realpath(temp()), 'main');
  execFileSync('git', ['init', '-q', '-b', 'main', top], { env });
  execFileSync('git', ['-C', top, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'x'], { env });
  execFileSync('git', ['-C', top, 'worktree', 'add', '-q', '-b', 'side', join(temp(), 'side')], { env });
  expect(await new GitCliHooks('git', env).hookPath(join(temp(), 'side'), 'post-merge')).toBe(join(top, '.git', 'hooks', 'post-merge'));
});

/** Git that reads no global or system configuration (the test touches nothing outside its temp dir). */
function isolatedGitEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: dir, GIT_CONFIG_GLOBAL: join(dir, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: dir };
}
