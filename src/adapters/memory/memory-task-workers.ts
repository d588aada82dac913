import type { TaskWorker } from '../../ports/task-store.js';
import type { TaskWorkerState, TaskWorkers } from '../../ports/task-workers.js';

/**
 * Task workers in memory (tests, embedding hosts): this "process" is `self`; others are made
 * with `other()` and stopped with `stop()`, and workers of an unknown host are `unknown`.
 */
export class MemoryTaskWorkers implements TaskWorkers {
  private readonly alive = new Set<string>();
  private next = 1;
  private readonly me: TaskWorker;

  constructor(private readonly host = 'memory-host') {
    this.me = this.other();
  }

  self(): TaskWorker {
    return this.me;
  }

  state(worker: TaskWorker): TaskWorkerState {
    if (worker.host !== this.host) return 'unknown';
    return this.alive.has(worker.id) ? 'alive' : 'gone';
  }

  /** A further worker on this host (another process), alive until stopped. */
  other(): TaskWorker {
    const pid = this.next++;
    const worker = Object.freeze({ id: `${this.host}:${pid}:0`, host: this.host, pid, startedAt: 0 });
    this.alive.add(worker.id);
    return worker;
  }

  /** The worker's process died. */
  stop(worker: TaskWorker): void {
    this.alive.delete(worker.id);
  }
}
