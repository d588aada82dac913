import type { TaskWorker } from '../../../src/ports/task-store.js';
import type { TaskWorkers } from '../../../src/ports/task-workers.js';

/** What a TaskWorkers contract run needs: the adapter, another live worker on this host, and a way to end it. */
export interface TaskWorkersSubject {
  readonly workers: TaskWorkers;
  other(): Promise<TaskWorker>;
  stop(worker: TaskWorker): Promise<void>;
}

/**
 * The shared contract of the TaskWorkers port (seed 004: a disappeared worker becomes a
 * terminal failure), run against the process-backed adapter and the in-memory one.
 */
export function describeTaskWorkersContract(label: string, subject: () => Promise<TaskWorkersSubject>): void {
  describe(`${label}: TaskWorkers (contract)`, () => {
    it('knows itself as alive, with a stable identity', async () => {
      const { workers } = await subject();
      const me = workers.self();
      expect(me).toEqual(workers.self());
      expect(me.id).toBe(`${me.host}:${me.pid}:${me.startedAt}`);
      expect(workers.state(me)).toBe('alive');
    });

    it('tells another live worker on this host from one that stopped', async () => {
      const s = await subject();
      const other = await s.other();
      expect(s.workers.state(other)).toBe('alive');
      await s.stop(other);
      expect(s.workers.state(other)).toBe('gone');
    });

    it('cannot tell anything about a worker on another host', async () => {
      const { workers } = await subject();
      expect(workers.state({ id: 'elsewhere:1:0', host: 'elsewhere.invalid', pid: 1, startedAt: 0 })).toBe('unknown');
    });

    it('counts a worker whose pid now belongs to a later process as gone', async () => {
      const { workers } = await subject();
      const me = workers.self();
      // a record naming this pid but an earlier start: the pid was reused by this process
      expect(workers.state({ ...me, id: `${me.host}:${me.pid}:1`, startedAt: 1 })).toBe('gone');
    });
  });
}
