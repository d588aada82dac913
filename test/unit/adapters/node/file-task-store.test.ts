import { readdir, writeFile } from 'node:fs/promises';
import { FileTaskStore } from '../../../../src/adapters/node/file-task-store.js';
import { NodeFileSystem } from '../../../../src/adapters/node/node-file-system.js';
import type { TaskRecord } from '../../../../src/ports/task-store.js';
import { useTempDir } from '../../../support/temp-dir.js';

const record = (taskId: string, principal = 'local:alice', extra: Partial<TaskRecord> = {}): TaskRecord => ({
  taskId,
  principal,
  status: 'working',
  createdAt: 1_000,
  updatedAt: 1_000,
  ttlMs: 60_000,
  ...extra,
});

describe('FileTaskStore', () => {
  const temp = useTempDir('pm-tasks-');
  const store = () => new FileTaskStore(new NodeFileSystem(), `${temp()}/.runtime/tasks`);

  it('stores one JSON file per task, creating the directory, and reads it back', async () => {
    const tasks = store();
    const task = record('task-1', 'local:alice', { request: { method: 'tools/call', params: { name: 'pm_list' } }, statusMessage: 'running ✓' });
    await tasks.put(task);
    expect(await tasks.get('task-1')).toEqual(task);
    expect(await readdir(`${temp()}/.runtime/tasks`)).toEqual(['task-1.json']);
  });

  it('replaces a record atomically on every put and leaves no temp files', async () => {
    const tasks = store();
    for (let i = 0; i < 10; i++) await tasks.put(record('task-2', 'local:alice', { updatedAt: i, status: i === 9 ? 'completed' : 'working' }));
    expect(await tasks.get('task-2')).toMatchObject({ updatedAt: 9, status: 'completed' });
    expect(await readdir(`${temp()}/.runtime/tasks`)).toEqual(['task-2.json']);
  });

  it('returns undefined for unknown and unreadable records', async () => {
    const tasks = store();
    expect(await tasks.get('missing')).toBeUndefined();
    await tasks.put(record('task-3'));
    await writeFile(`${temp()}/.runtime/tasks/task-3.json`, '{ torn');
    expect(await tasks.get('task-3')).toBeUndefined();
  });

  it('lists only the records of one principal and skips foreign files', async () => {
    const tasks = store();
    expect(await tasks.list('local:alice')).toEqual([]);
    await tasks.put(record('a1', 'local:alice'));
    await tasks.put(record('a2', 'local:alice'));
    await tasks.put(record('b1', 'local:bob'));
    await writeFile(`${temp()}/.runtime/tasks/notes.txt`, 'not a task');
    expect((await tasks.list('local:alice')).map((t) => t.taskId).sort()).toEqual(['a1', 'a2']);
    expect((await tasks.list('local:bob')).map((t) => t.taskId)).toEqual(['b1']);
  });

  it('deletes records; deleting twice is harmless', async () => {
    const tasks = store();
    await tasks.put(record('gone'));
    await tasks.delete('gone');
    await tasks.delete('gone');
    expect(await tasks.get('gone')).toBeUndefined();
  });

  it('refuses task ids that could escape its directory', async () => {
    const tasks = store();
    await expect(tasks.put(record('../escape'))).rejects.toThrow(/invalid task id/);
    await expect(tasks.get('a/b')).rejects.toThrow(/invalid task id/);
    await expect(tasks.delete('')).rejects.toThrow(/invalid task id/);
  });
});
