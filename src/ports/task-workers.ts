import type { TaskWorker } from './task-store.js';

/** What can be told about a task's worker from here. */
export type TaskWorkerState = 'alive' | 'gone' | 'unknown';

/**
 * The processes that run durable tasks (seed 004 "MRTR, tasks, and cache behavior": a
 * disappeared worker becomes an actionable terminal failure). Any process may read a task, so
 * whether its worker still exists is asked of this port rather than assumed: on the worker's own
 * host it can be told for sure; elsewhere it is `unknown`, and the task's heartbeat decides.
 */
export interface TaskWorkers {
  /** This process, as the worker of the tasks it starts. */
  self(): TaskWorker;
  /** Whether `worker` is still running. */
  state(worker: TaskWorker): TaskWorkerState;
}
