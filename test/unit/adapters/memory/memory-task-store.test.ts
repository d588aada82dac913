import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { MemoryLocker } from '../../../../src/adapters/memory/memory-locker.js';
import { MemoryTaskStore } from '../../../../src/adapters/memory/memory-task-store.js';
import { FileTaskStore } from '../../../../src/adapters/node/file-task-store.js';
import { describeTaskStoreContract, taskRecord } from '../task-store-contract.js';

describeTaskStoreContract('MemoryTaskStore', async () => ({ store: new MemoryTaskStore() }));
describeTaskStoreContract('FileTaskStore over MemoryFileSystem', async () => {
  const fs = new MemoryFileSystem();
  const locker = new MemoryLocker(new ManualClock());
  return { store: new FileTaskStore(fs, locker, '/runtime/tasks'), second: () => new FileTaskStore(fs, locker, '/runtime/tasks') };
});

describe('MemoryTaskStore', () => {
  it('refuses a second record under one id', async () => {
    const store = new MemoryTaskStore();
    await store.create(taskRecord('tsk_a'));
    await expect(store.create(taskRecord('tsk_a'))).rejects.toThrow(/exists already/);
    expect(store.size).toBe(1);
  });
});
