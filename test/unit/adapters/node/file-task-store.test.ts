import { readdir, writeFile, mkdir } from 'node:fs/promises';
import { FileLocker } from '../../../../src/adapters/node/file-locker.js';
import { FileTaskStore } from '../../../../src/adapters/node/file-task-store.js';
import { NodeFileSystem } from '../../../../src/adapters/node/node-file-system.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeTaskStoreContract, taskRecord } from '../task-store-contract.js';

const temp = useTempDir('pm-tasks-');
const dir = () => `${temp()}/.runtime/tasks`;
const store = () => new FileTaskStore(new NodeFileSystem(), new FileLocker(), dir());

describeTaskStoreContract('FileTaskStore', async () => ({ store: store(), second: store }));

describe('FileTaskStore', () => {
  it('keeps one JSON file per task and no temp or lock files after an update', async () => {
    const s = store();
    await s.create(taskRecord('tsk_a'));
    await s.update('tsk_a', (current) => ({ ...current, status: 'completed' }));
    expect(await readdir(dir())).toEqual(['tsk_a.json']);
  });

  it('refuses ids that are not safe file names', async () => {
    const s = store();
    await expect(s.get('../escape')).rejects.toThrow(/invalid task id/);
    await expect(s.create(taskRecord('a/b'))).rejects.toThrow(/invalid task id/);
  });

  it('treats a file it cannot parse, or one for another id, as no task', async () => {
    await mkdir(dir(), { recursive: true });
    await writeFile(`${dir()}/tsk_bad.json`, '{not json');
    await writeFile(`${dir()}/tsk_other.json`, JSON.stringify(taskRecord('tsk_else')));
    const s = store();
    expect(await s.get('tsk_bad')).toBeUndefined();
    expect(await s.get('tsk_other')).toBeUndefined();
    expect(await s.update('tsk_bad', (current) => current)).toBeUndefined();
  });

  it('refuses an update that changes the id', async () => {
    const s = store();
    await s.create(taskRecord('tsk_a'));
    await expect(s.update('tsk_a', (current) => ({ ...current, taskId: 'tsk_b' }))).rejects.toThrow(/may not change its id/);
    expect((await s.get('tsk_a'))?.taskId).toBe('tsk_a');
  });
});
