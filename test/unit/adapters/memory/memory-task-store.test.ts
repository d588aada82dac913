import { MemoryTaskStore } from '../../../../src/adapters/memory/memory-task-store.js';
import type { TaskRecord } from '../../../../src/ports/task-store.js';

describe('MemoryTaskStore', () => {
  const record: TaskRecord = { taskId: 't1', principal: 'p', status: 'working', createdAt: 1, updatedAt: 1, ttlMs: 10, request: { nested: { n: 1 } } };

  it('stores copies, so neither side can change the other', async () => {
    const store = new MemoryTaskStore();
    const mine = structuredClone(record) as { request: { nested: { n: number } } } & TaskRecord;
    await store.put(mine);
    mine.request.nested.n = 2;
    const read = (await store.get('t1')) as typeof mine;
    expect(read.request.nested.n).toBe(1);
    read.request.nested.n = 3;
    expect(((await store.get('t1')) as typeof mine).request.nested.n).toBe(1);
  });

  it('lists by principal and deletes', async () => {
    const store = new MemoryTaskStore();
    await store.put(record);
    await store.put({ ...record, taskId: 't2', principal: 'q' });
    expect((await store.list('p')).map((t) => t.taskId)).toEqual(['t1']);
    await store.delete('t1');
    expect(await store.get('t1')).toBeUndefined();
    expect(await store.list('p')).toEqual([]);
  });
});
