import type { TaskRecord, TaskStore } from '../../ports/task-store.js';

/** Task records in a Map (copies in and out, so callers cannot mutate stored records). */
export class MemoryTaskStore implements TaskStore {
  private readonly records = new Map<string, TaskRecord>();

  async put(record: TaskRecord): Promise<void> {
    this.records.set(record.taskId, structuredClone(record));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.records.get(taskId);
    return record ? structuredClone(record) : undefined;
  }

  async list(principal: string): Promise<TaskRecord[]> {
    return [...this.records.values()].filter((r) => r.principal === principal).map((r) => structuredClone(r));
  }

  async delete(taskId: string): Promise<void> {
    this.records.delete(taskId);
  }
}
