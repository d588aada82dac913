import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GitCliMergeSides } from '../../../../src/adapters/node/git-cli-merge-sides.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeMergeSidesContract } from '../merge-sides-contract.js';

const temp = useTempDir('pm-merge-sides-');

/** Git that reads no global or system configuration (the test touches nothing outside its temp dir). */
function isolatedGitEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: dir, GIT_CONFIG_GLOBAL: join(dir, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: dir, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
}

async function repository(merge: boolean) {
  const repo = join(temp(), 'repo');
  const sub = join(repo, 'sub');
  const env = isolatedGitEnv(temp());
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { env, stdio: 'pipe' });
  await mkdir(sub, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env });
  await writeFile(join(repo, 'base.txt'), 'base\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  if (merge) {
    git('checkout', '-q', '-b', 'theirs');
    await writeFile(join(sub, 'file.txt'), 'theirs\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'theirs');
    git('checkout', '-q', 'main');
    await mkdir(sub, { recursive: true });
    await writeFile(join(sub, 'file.txt'), 'ours\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'ours');
    git('merge', '-q', '-s', 'ours', '--no-edit', 'theirs');
  }
  return { sides: new GitCliMergeSides('git', env), dir: sub, file: join(sub, 'file.txt'), missing: join(sub, 'none.txt') };
}

describeMergeSidesContract('system git', { merged: () => repository(true), linear: () => repository(false) });

it('a merge in progress has HEAD and MERGE_HEAD as its sides', async () => {
  const { sides, dir } = await repository(false);
  const repo = join(dir, '..');
  const env = isolatedGitEnv(temp());
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { env, encoding: 'utf8' }).trim();
  git('checkout', '-q', '-b', 'other');
  await writeFile(join(repo, 'base.txt'), 'other\n');
  git('commit', '-q', '-am', 'other');
  git('checkout', '-q', 'main');
  await writeFile(join(repo, 'base.txt'), 'main\n');
  git('commit', '-q', '-am', 'main');
  expect(() => git('merge', '-q', 'other')).toThrow();
  expect(await sides.sidesOf(dir)).toEqual([git('rev-parse', 'HEAD'), git('rev-parse', 'other')]);
});

it('refuses a commit argument that is not a commit id (it would reach git as an option or a revision expression)', async () => {
  const { sides, file } = await repository(false);
  await expect(sides.fileAt('--output=x', file)).rejects.toThrow(/not a commit id/);
});
