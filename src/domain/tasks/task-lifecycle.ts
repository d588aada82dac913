import type { TaskError, TaskRecord, TaskStatus, TaskWorker } from '../../ports/task-store.js';
import type { JsonObject } from '../mcp/wire-types.js';

/**
 * The state machine of a durable task (`io.modelcontextprotocol/tasks`, SEP-2663 "Task
 * Status"; seed 004 "MRTR, tasks, and cache behavior"): working → completed | failed |
 * cancelled, and a terminal state never changes again. Each transition is a pure function of
 * the current record that returns the next one, or undefined when it does not apply (the task is
 * terminal already, or expired); the TaskStore applies it atomically, so of a cancel and a
 * completion racing each other exactly one wins.
 */

export const PM_TASK_TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Whether the task can no longer change. */
export function isPmTaskTerminal(record: Pick<TaskRecord, 'status'>): boolean {
  return PM_TASK_TERMINAL.has(record.status);
}

/** Whether the task has outlived its time to live. */
export function isPmTaskExpired(record: Pick<TaskRecord, 'expiresAt'>, now: number): boolean {
  return record.expiresAt <= now;
}

/** What a new task needs. */
export interface PmTaskSeed {
  readonly taskId: string;
  readonly principal: string;
  readonly request: TaskRecord['request'];
  readonly worker: TaskWorker;
  readonly now: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly statusMessage: string;
}

/** A task that has just started working. */
export function newPmTask(seed: PmTaskSeed): TaskRecord {
  return {
    taskId: seed.taskId,
    principal: seed.principal,
    status: 'working',
    createdAt: seed.now,
    updatedAt: seed.now,
    ttlMs: seed.ttlMs,
    expiresAt: seed.now + seed.ttlMs,
    pollIntervalMs: seed.pollIntervalMs,
    statusMessage: seed.statusMessage,
    request: seed.request,
    worker: seed.worker,
    heartbeatAt: seed.now,
  };
}

function finish(record: TaskRecord, now: number, status: TaskStatus, fields: { statusMessage?: string; result?: unknown; error?: TaskError }): TaskRecord | undefined {
  if (isPmTaskTerminal(record) || isPmTaskExpired(record, now)) return undefined;
  const { worker: _worker, heartbeatAt: _heartbeat, statusMessage: _message, ...rest } = record;
  return { ...rest, status, updatedAt: now, ...(fields.statusMessage !== undefined ? { statusMessage: fields.statusMessage } : {}), ...(fields.result !== undefined ? { result: fields.result } : {}), ...(fields.error !== undefined ? { error: fields.error } : {}) };
}

/** The operation returned a result (a tool result with `isError` included). */
export function completePmTask(record: TaskRecord, result: JsonObject, now: number, statusMessage?: string): TaskRecord | undefined {
  return finish(record, now, 'completed', { result, ...(statusMessage !== undefined ? { statusMessage } : {}) });
}

/** The operation ended in a JSON-RPC error. */
export function failPmTask(record: TaskRecord, error: TaskError, now: number, statusMessage = error.message): TaskRecord | undefined {
  return finish(record, now, 'failed', { error, statusMessage });
}

/** The client asked to stop it. */
export function cancelPmTask(record: TaskRecord, now: number, statusMessage = 'Cancelled at the client\'s request.'): TaskRecord | undefined {
  return finish(record, now, 'cancelled', { statusMessage });
}

/** The worker is still at it: a fresh heartbeat (nothing when the task is finished or another worker's). */
export function heartbeatPmTask(record: TaskRecord, worker: TaskWorker, now: number): TaskRecord | undefined {
  if (isPmTaskTerminal(record) || record.worker?.id !== worker.id) return undefined;
  return { ...record, heartbeatAt: now };
}

/** The JSON-RPC error of a task whose worker disappeared before it finished. */
export const PM_TASK_WORKER_GONE: TaskError = Object.freeze({
  code: -32603,
  message: 'The server running this task stopped before it finished; run the tool again.',
  data: Object.freeze({ reason: 'worker_gone' }),
});

/** The JSON-RPC error of a task whose server was shut down (SIGTERM) before it finished. */
export const PM_TASK_WORKER_STOPPED: TaskError = Object.freeze({
  code: -32603,
  message: 'The server running this task was shut down before it finished; run the tool again.',
  data: Object.freeze({ reason: 'worker_stopped' }),
});

/** ISO 8601 of an epoch time. */
function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The `Task` members of a record (SEP-2663 "Tasks"): what `CreateTaskResult` and every `tasks/get` carry. */
export function pmTaskMembers(record: TaskRecord): JsonObject {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.updatedAt),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** The `DetailedTask` of a record (`tasks/get`): the members plus `result` (completed) or `error` (failed). */
export function pmDetailedTask(record: TaskRecord): JsonObject {
  return {
    ...pmTaskMembers(record),
    ...(record.status === 'completed' && record.result !== undefined ? { result: record.result as JsonObject } : {}),
    ...(record.status === 'failed' && record.error !== undefined ? { error: record.error as unknown as JsonObject } : {}),
  };
}
