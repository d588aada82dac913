import { execFileSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GitCliConfig } from '../../../../src/adapters/node/git-cli-config.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeGitConfigContract } from '../git-config-contract.js';

const temp = useTempDir('pm-gitconfig-');

describeGitConfigContract('system git', async () => {
  const repo = join(temp(), 'repo');
  const outside = join(temp(), 'plain');
  await mkdir(outside, { recursive: true });
  await mkdir(repo, { recursive: true });
  execFileSync('git', ['init', '-q', repo], { env: isolatedGitEnv(temp()) });
  return { git: new GitCliConfig('git', isolatedGitEnv(temp())), repo, outside };
});

it('writes only the clone-local .git/config', async () => {
  const repo = join(temp(), 'r');
  const env = isolatedGitEnv(temp());
  execFileSync('git', ['init', '-q', repo], { env });
  await new GitCliConfig('git', env).set(repo, 'merge.pm-item.name', 'x');
  expect(await readFile(join(repo, '.git', 'config'), 'utf8')).toContain('[merge "pm-item"]');
  await expect(readFile(join(temp(), 'gitconfig'), 'utf8')).rejects.toThrow();
});

/** Git that reads no global or system configuration (the test touches nothing outside its temp dir). */
function isolatedGitEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: dir, GIT_CONFIG_GLOBAL: join(dir, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: dir };
}
