import { RefusedFileError } from '../../domain/errors/index.js';
import type { FileSystem } from '../../ports/file-system.js';
import type { Locker } from '../../ports/locker.js';
import type { TaskRecord, TaskStore } from '../../ports/task-store.js';

const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** How long an update waits for a task's lock unless told (PM_LOCK_TIMEOUT_MS's default). */
const LOCK_TIMEOUT_MS = 10_000;
/**
 * The largest task record read: a task's result is at most one response, and a request body is
 * capped at 64 MiB at most (PM_MCP_HTTP_MAX_BODY_BYTES); a larger file, a link or a FIFO under a
 * task's name reads as no record (docs/TRACKER.md "What pm reads and writes").
 */
const TASK_RECORD_READ = Object.freeze({ maxBytes: 64 * 1024 * 1024 });

/**
 * Task records as one JSON file each under the tracker's git-ignored runtime area
 * (`.agents/pm/.runtime/tasks/<taskId>.json`), written atomically (temp file + rename) through
 * the FileSystem port, so a reader sees the old record or the new one, never a part. An update
 * holds the task's lock (the Locker port: `<taskId>.lock`, recovered when its holder died)
 * around its read-modify-write, so two processes never lose each other's change — a cancel
 * racing a completion ends in exactly one terminal state. Records survive a crash of the
 * process that wrote them.
 */
export class FileTaskStore implements TaskStore {
  constructor(
    private readonly fs: FileSystem,
    private readonly locker: Locker,
    private readonly dir: string,
    private readonly lockTimeoutMs = LOCK_TIMEOUT_MS,
  ) {}

  async create(record: TaskRecord): Promise<void> {
    assertTaskId(record.taskId);
    await this.fs.ensureDir(this.dir);
    await this.fs.writeAtomic(this.path(record.taskId), serialize(record));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    assertTaskId(taskId);
    return this.read(taskId);
  }

  async update(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    assertTaskId(taskId);
    if (!(await this.fs.stat(this.path(taskId)))) return undefined;
    const release = await this.locker.acquire(`${this.dir}/${taskId}.lock`, { timeoutMs: this.lockTimeoutMs });
    try {
      const current = await this.read(taskId);
      if (!current) return undefined;
      const next = change(current);
      if (!next) return current;
      if (next.taskId !== taskId) throw new RangeError(`an update of task ${taskId} may not change its id`);
      await this.fs.writeAtomic(this.path(taskId), serialize(next));
      return next;
    } finally {
      await release();
    }
  }

  async delete(taskId: string): Promise<void> {
    assertTaskId(taskId);
    await this.fs.remove(this.path(taskId));
  }

  async purgeExpired(now: number): Promise<number> {
    let purged = 0;
    for (const { name, signature } of await this.fs.scan(this.dir)) {
      if (!name.endsWith('.json') || signature.kind) continue;
      const record = await this.read(name.slice(0, -5));
      if (record && record.expiresAt <= now) {
        await this.fs.remove(this.path(record.taskId));
        purged++;
      }
    }
    return purged;
  }

  private async read(taskId: string): Promise<TaskRecord | undefined> {
    let text: string | undefined;
    try {
      text = await this.fs.readText(this.path(taskId), TASK_RECORD_READ);
    } catch (error) {
      // A link, FIFO or oversized file under a task's name is not a record pm wrote.
      if (error instanceof RefusedFileError) return undefined;
      throw error;
    }
    if (text === undefined) return undefined;
    try {
      const record = JSON.parse(text) as TaskRecord;
      return record && typeof record === 'object' && record.taskId === taskId ? record : undefined;
    } catch {
      return undefined; // not a record pm wrote (edited by hand): treated as missing
    }
  }

  private path(taskId: string): string {
    return `${this.dir}/${taskId}.json`;
  }
}

function serialize(record: TaskRecord): string {
  return `${JSON.stringify(record)}\n`;
}

function assertTaskId(taskId: string): void {
  if (!TASK_ID.test(taskId)) throw new RangeError(`invalid task id '${taskId}'`);
}
