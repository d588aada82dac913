import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ProcessTaskWorkers } from '../../../../src/adapters/node/process-task-workers.js';
import { processStartMs } from '../../../../src/adapters/node/process-start.js';
import { describeTaskWorkersContract } from '../task-workers-contract.js';

const children = new Map<number, ChildProcess>();
afterAll(() => {
  for (const child of children.values()) child.kill('SIGKILL');
});

describeTaskWorkersContract('ProcessTaskWorkers', async () => {
  const workers = new ProcessTaskWorkers();
  return {
    workers,
    async other() {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      await once(child, 'spawn');
      children.set(child.pid!, child);
      const startedAt = Math.round(processStartMs(child.pid!)!);
      return { id: `${workers.self().host}:${child.pid}:${startedAt}`, host: workers.self().host, pid: child.pid!, startedAt };
    },
    async stop(worker) {
      const child = children.get(worker.pid)!;
      child.kill('SIGKILL');
      await once(child, 'exit');
      children.delete(worker.pid);
    },
  };
});
