import { MemoryTaskWorkers } from '../../../../src/adapters/memory/memory-task-workers.js';
import { describeTaskWorkersContract } from '../task-workers-contract.js';

describeTaskWorkersContract('MemoryTaskWorkers', async () => {
  const workers = new MemoryTaskWorkers();
  return { workers, other: async () => workers.other(), stop: async (worker) => workers.stop(worker) };
});
