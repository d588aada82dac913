import { MemoryGitConfig } from '../../../../src/adapters/memory/memory-git-config.js';
import { describeGitConfigContract } from '../git-config-contract.js';

describeGitConfigContract('memory', async () => {
  const git = new MemoryGitConfig();
  git.addRepository('/repo');
  return { git, repo: '/repo/sub', outside: '/elsewhere' };
});
