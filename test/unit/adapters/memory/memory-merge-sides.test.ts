import { MemoryMergeSides } from '../../../../src/adapters/memory/memory-merge-sides.js';
import { describeMergeSidesContract } from '../merge-sides-contract.js';

describeMergeSidesContract('in memory', {
  async merged() {
    const sides = new MemoryMergeSides();
    sides.setSides('/repo', 'c0ffee01', 'c0ffee02');
    sides.setFile('c0ffee01', '/repo/sub/file.txt', 'ours\n');
    sides.setFile('c0ffee02', '/repo/sub/file.txt', 'theirs\n');
    return { sides, dir: '/repo/sub', file: '/repo/sub/file.txt', missing: '/repo/sub/none.txt' };
  },
  async linear() {
    const sides = new MemoryMergeSides();
    sides.setSides('/other', 'a1', 'b2');
    return { sides, dir: '/repo/sub', file: '/repo/sub/file.txt', missing: '/repo/sub/none.txt' };
  },
});
