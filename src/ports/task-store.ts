/** Lifecycle states of a durable task (io.modelcontextprotocol/tasks). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** One durable task record, owned by the principal that created it. */
export interface TaskRecord {
  readonly taskId: string;
  readonly principal: string;
  readonly status: TaskStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly ttlMs: number;
  readonly statusMessage?: string;
  /** The request that started the task (method and params), for auditing and replay. */
  readonly request?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** Identity of the worker that runs it, so a vanished worker can be detected. */
  readonly worker?: string;
}

/** Durable task persistence; every write is atomic and records are never partially visible. */
export interface TaskStore {
  put(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  list(principal: string): Promise<TaskRecord[]>;
  delete(taskId: string): Promise<void>;
}
