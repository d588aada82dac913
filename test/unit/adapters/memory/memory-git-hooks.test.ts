import { MemoryGitHooks } from '../../../../src/adapters/memory/memory-git-hooks.js';
import { describeGitHooksContract } from '../git-hooks-contract.js';

describeGitHooksContract('memory', async (hooksPath) => {
  const hooks = new MemoryGitHooks();
  hooks.addRepository('/repo', hooksPath ? `/repo/${hooksPath}` : undefined);
  return { hooks, top: '/repo', below: '/repo/apps/web', hooksDir: '/repo/.git/hooks', executable: async (path) => hooks.isExecutable(path) };
});
