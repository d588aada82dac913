import { hostname } from 'node:os';
import type { TaskWorker } from '../../ports/task-store.js';
import type { TaskWorkerState, TaskWorkers } from '../../ports/task-workers.js';
import { processStartMs } from './process-start.js';

/** Start times are read to about a second (/proc ticks); a later start means a reused pid. */
const START_SLACK_MS = 2_000;

/**
 * Task workers as OS processes: a worker is this host's pid with its start time. On the same
 * host a worker is gone when its pid no longer exists, or exists but started after the worker
 * did (the pid was reused). On another host nothing can be told (`unknown`).
 */
export class ProcessTaskWorkers implements TaskWorkers {
  private readonly me: TaskWorker;

  /**
   * @param probeLocal whether workers on this host are checked by pid (true, the default). Off
   *   when instances share tasks through a database: every other worker is then `unknown`, and
   *   its lease (the heartbeat the task record carries) alone decides, wherever it runs.
   */
  constructor(private readonly probeLocal = true) {
    const host = hostname();
    const startedAt = Math.round(processStartMs(process.pid) ?? Date.now() - process.uptime() * 1000);
    this.me = Object.freeze({ id: `${host}:${process.pid}:${startedAt}`, host, pid: process.pid, startedAt });
  }

  self(): TaskWorker {
    return this.me;
  }

  state(worker: TaskWorker): TaskWorkerState {
    if (worker.id === this.me.id) return 'alive';
    if (!this.probeLocal || worker.host !== this.me.host) return 'unknown';
    try {
      process.kill(worker.pid, 0);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM' ? this.byStartTime(worker) : 'gone';
    }
    return this.byStartTime(worker);
  }

  private byStartTime(worker: TaskWorker): TaskWorkerState {
    const started = processStartMs(worker.pid);
    if (started === undefined) return 'unknown';
    return started > worker.startedAt + START_SLACK_MS ? 'gone' : 'alive';
  }
}
