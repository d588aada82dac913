/** Lifecycle states of a durable task (io.modelcontextprotocol/tasks). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Who runs a task: enough to tell, from any process, whether that worker is still there. */
export interface TaskWorker {
  /** Stable id of the worker process (`<host>:<pid>:<start>`). */
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  /** When the worker process started (ms since the epoch); tells a reused pid from the worker. */
  readonly startedAt: number;
}

/** A JSON-RPC error object as a failed task carries it. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * One durable task record, owned by the principal that created it. Plain JSON, so any store
 * (a file per task, a shared database) holds it as is.
 */
export interface TaskRecord {
  readonly taskId: string;
  readonly principal: string;
  readonly status: TaskStatus;
  /** ms since the epoch. */
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Time to live from creation (ms); the record expires at `createdAt + ttlMs`. */
  readonly ttlMs: number;
  /** `createdAt + ttlMs`: the field a store compares when it purges. */
  readonly expiresAt: number;
  readonly pollIntervalMs: number;
  readonly statusMessage?: string;
  /** The operation the task runs (`tools/call` and the tool name), for the record's reader. */
  readonly request: { readonly method: string; readonly name?: string };
  /** The worker running it, while it is not terminal. */
  readonly worker?: TaskWorker;
  /** The worker's last sign of life (ms since the epoch), refreshed while it runs. */
  readonly heartbeatAt?: number;
  /** The final result (completed). */
  readonly result?: unknown;
  /** The JSON-RPC error (failed). */
  readonly error?: TaskError;
}

/**
 * Durable task persistence (seed 004 "MRTR, tasks, and cache behavior"): records are stored
 * atomically, survive the process, and are never partially visible. Nothing assumes that the
 * process reading a task is the one running it: every change is a read-modify-write that the
 * store serializes across processes, so a shared database can implement this port for several
 * pm-mcp-http instances behind one balancer.
 */
export interface TaskStore {
  /** Stores a new record; durable (readable by every process) once this resolves. */
  create(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Atomically replaces a record with what `change` makes of it (undefined: leave it as it is).
   * Concurrent updates of one task — in this process or another — are serialized, so `change`
   * always sees the latest record. Resolves to the record as stored afterwards (undefined when
   * there is none).
   */
  update(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined>;
  delete(taskId: string): Promise<void>;
  /** Deletes every record whose `expiresAt` is at or before `now`; resolves to how many went. */
  purgeExpired(now: number): Promise<number>;
}
