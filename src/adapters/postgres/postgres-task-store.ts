import type { TaskRecord, TaskStore } from '../../ports/task-store.js';
import type { PostgresDatabase } from './postgres-database.js';

/**
 * Task records in PostgreSQL (seed 004 "MRTR, tasks, and cache behavior"), for several
 * pm-mcp-http instances behind one balancer: a task created on one instance is read, cancelled
 * and polled to completion through any other. Each record is one row — the record itself as
 * JSON, plus the columns the queries need (owner, status, expiry, and the worker's lease: its
 * id and last heartbeat, which tell any instance on any machine that a worker vanished). An
 * update locks the row (`SELECT … FOR UPDATE`) for its read-modify-write, so concurrent changes
 * from any instance are serialized and of two racing terminal changes exactly one wins.
 */
export class PostgresTaskStore implements TaskStore {
  constructor(private readonly db: PostgresDatabase) {}

  async create(record: TaskRecord): Promise<void> {
    const r = columns(record);
    await this.db.query(`INSERT INTO ${this.db.table('tasks')} (task_id, principal, status, expires_at, worker_id, heartbeat_at, record) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      r.taskId, r.principal, r.status, r.expiresAt, r.workerId, r.heartbeatAt, r.json,
    ]);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const rows = await this.db.query<{ record: TaskRecord }>(`SELECT record FROM ${this.db.table('tasks')} WHERE task_id = $1`, [taskId]);
    return rows[0]?.record;
  }

  async update(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    return this.db.transaction(async (client) => {
      const { rows } = await client.query<{ record: TaskRecord }>(`SELECT record FROM ${this.db.table('tasks')} WHERE task_id = $1 FOR UPDATE`, [taskId]);
      const current = rows[0]?.record;
      if (!current) return undefined;
      const next = change(structuredClone(current));
      if (!next) return current;
      if (next.taskId !== taskId) throw new RangeError(`an update of task ${taskId} may not change its id`);
      const r = columns(next);
      await client.query(`UPDATE ${this.db.table('tasks')} SET principal = $2, status = $3, expires_at = $4, worker_id = $5, heartbeat_at = $6, record = $7 WHERE task_id = $1`, [
        taskId, r.principal, r.status, r.expiresAt, r.workerId, r.heartbeatAt, r.json,
      ]);
      return structuredClone(next);
    });
  }

  async delete(taskId: string): Promise<void> {
    await this.db.query(`DELETE FROM ${this.db.table('tasks')} WHERE task_id = $1`, [taskId]);
  }

  async purgeExpired(now: number): Promise<number> {
    const rows = await this.db.query<{ n: string }>(`WITH gone AS (DELETE FROM ${this.db.table('tasks')} WHERE expires_at <= $1 RETURNING 1) SELECT count(*) AS n FROM gone`, [now]);
    return Number(rows[0]?.n ?? 0);
  }
}

function columns(record: TaskRecord) {
  return {
    taskId: record.taskId,
    principal: record.principal,
    status: record.status,
    expiresAt: record.expiresAt,
    workerId: record.worker?.id ?? null,
    heartbeatAt: record.heartbeatAt ?? null,
    json: JSON.stringify(record),
  };
}
