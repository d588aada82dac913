import type { TaskRecord, TaskStore } from '../../ports/task-store.js';
import type { FileSystem } from '../../ports/file-system.js';

/**
 * Task records as one JSON file each under the tracker's runtime area
 * (`.agents/pm/.runtime/tasks/<taskId>.json`), written atomically through the FileSystem port.
 */
export class FileTaskStore implements TaskStore {
  constructor(
    private readonly fs: FileSystem,
    private readonly dir: string,
  ) {}

  async put(record: TaskRecord): Promise<void> {
    assertTaskId(record.taskId);
    await this.fs.ensureDir(this.dir);
    await this.fs.writeAtomic(this.path(record.taskId), `${JSON.stringify(record)}\n`);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    assertTaskId(taskId);
    const text = await this.fs.readText(this.path(taskId));
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as TaskRecord;
    } catch {
      return undefined;
    }
  }

  async list(principal: string): Promise<TaskRecord[]> {
    const out: TaskRecord[] = [];
    for (const { name } of await this.fs.scan(this.dir)) {
      if (!name.endsWith('.json')) continue;
      const record = await this.get(name.slice(0, -5));
      if (record && record.principal === principal) out.push(record);
    }
    return out;
  }

  async delete(taskId: string): Promise<void> {
    assertTaskId(taskId);
    await this.fs.remove(this.path(taskId));
  }

  private path(taskId: string): string {
    return `${this.dir}/${taskId}.json`;
  }
}

function assertTaskId(taskId: string): void {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(taskId)) throw new Error(`invalid task id '${taskId}'`);
}
