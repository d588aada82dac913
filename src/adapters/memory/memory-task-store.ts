import type { TaskRecord, TaskStore } from '../../ports/task-store.js';

/**
 * Task records in a Map (tests, embedding hosts): copies in and out, so callers cannot mutate
 * stored records; an update runs its change synchronously, so updates never interleave.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly records = new Map<string, TaskRecord>();

  async create(record: TaskRecord): Promise<void> {
    if (this.records.has(record.taskId)) throw new Error(`task ${record.taskId} exists already`);
    this.records.set(record.taskId, structuredClone(record));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.records.get(taskId);
    return record ? structuredClone(record) : undefined;
  }

  async update(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    const current = this.records.get(taskId);
    if (!current) return undefined;
    const next = change(structuredClone(current));
    if (next) this.records.set(taskId, structuredClone(next));
    return structuredClone(next ?? current);
  }

  async delete(taskId: string): Promise<void> {
    this.records.delete(taskId);
  }

  async purgeExpired(now: number): Promise<number> {
    let purged = 0;
    for (const [id, record] of this.records) {
      if (record.expiresAt <= now) {
        this.records.delete(id);
        purged++;
      }
    }
    return purged;
  }

  /** How many records are held (tests). */
  get size(): number {
    return this.records.size;
  }
}
