import type { TaskRecord, TaskStore } from '../../../src/ports/task-store.js';

/** A record for contract runs. */
export function taskRecord(taskId: string, extra: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId,
    principal: 'local:alice',
    status: 'working',
    createdAt: 1_000,
    updatedAt: 1_000,
    ttlMs: 60_000,
    expiresAt: 61_000,
    pollIntervalMs: 1_000,
    request: { method: 'tools/call', name: 'pm_validate' },
    ...extra,
  };
}

/**
 * The shared contract of the TaskStore port (seed 004 "MRTR, tasks, and cache behavior":
 * records persisted atomically, updates serialized so terminal states stay immutable), run
 * against the in-memory store and the file store.
 */
export function describeTaskStoreContract(label: string, subject: () => Promise<{ readonly store: TaskStore; readonly second?: () => TaskStore }>): void {
  describe(`${label}: TaskStore (contract)`, () => {
    it('creates, reads and deletes records', async () => {
      const { store } = await subject();
      expect(await store.get('tsk_a')).toBeUndefined();
      await store.create(taskRecord('tsk_a', { result: { nested: { n: 1 } } }));
      expect(await store.get('tsk_a')).toEqual(taskRecord('tsk_a', { result: { nested: { n: 1 } } }));
      await store.delete('tsk_a');
      expect(await store.get('tsk_a')).toBeUndefined();
      await store.delete('tsk_a'); // deleting what is gone is harmless
    });

    it('hands out copies: changing a read record changes nothing stored', async () => {
      const { store } = await subject();
      await store.create(taskRecord('tsk_a', { result: { nested: { n: 1 } } }));
      const read = (await store.get('tsk_a')) as { result: { nested: { n: number } } };
      read.result.nested.n = 2;
      expect(((await store.get('tsk_a')) as typeof read).result.nested.n).toBe(1);
    });

    it('updates through a change function, or leaves the record when it returns undefined', async () => {
      const { store } = await subject();
      await store.create(taskRecord('tsk_a'));
      const done = await store.update('tsk_a', (current) => ({ ...current, status: 'completed', updatedAt: 2_000, result: { ok: true } }));
      expect(done).toMatchObject({ status: 'completed', updatedAt: 2_000, result: { ok: true } });
      const left = await store.update('tsk_a', () => undefined);
      expect(left).toEqual(done);
      expect(await store.get('tsk_a')).toEqual(done);
      expect(await store.update('tsk_missing', (current) => current)).toBeUndefined();
    });

    it('serializes concurrent updates of one task: none is lost', async () => {
      const { store } = await subject();
      await store.create(taskRecord('tsk_a', { statusMessage: '0' }));
      await Promise.all(Array.from({ length: 12 }, () => store.update('tsk_a', (current) => ({ ...current, statusMessage: String(Number(current.statusMessage) + 1) }))));
      expect((await store.get('tsk_a'))?.statusMessage).toBe('12');
    });

    it('lets exactly one of two racing terminal changes win', async () => {
      const { store, second } = await subject();
      const other = second ? second() : store;
      await store.create(taskRecord('tsk_a'));
      const terminal = (status: TaskRecord['status']) => (current: TaskRecord): TaskRecord | undefined => (current.status === 'working' ? { ...current, status } : undefined);
      const [a, b] = await Promise.all([store.update('tsk_a', terminal('cancelled')), other.update('tsk_a', terminal('completed'))]);
      expect(a!.status).toBe(b!.status);
      expect(['cancelled', 'completed']).toContain((await store.get('tsk_a'))!.status);
    });

    it('purges what expired, and only that', async () => {
      const { store } = await subject();
      await store.create(taskRecord('tsk_old', { expiresAt: 5_000 }));
      await store.create(taskRecord('tsk_edge', { expiresAt: 6_000 }));
      await store.create(taskRecord('tsk_new', { expiresAt: 9_000 }));
      expect(await store.purgeExpired(6_000)).toBe(2);
      expect(await store.get('tsk_old')).toBeUndefined();
      expect(await store.get('tsk_edge')).toBeUndefined();
      expect(await store.get('tsk_new')).toBeDefined();
      expect(await store.purgeExpired(6_000)).toBe(0);
    });

    it('is shared by a second store over the same place (another process)', async () => {
      const { store, second } = await subject();
      const other = second ? second() : store;
      await store.create(taskRecord('tsk_a'));
      expect((await other.get('tsk_a'))?.taskId).toBe('tsk_a');
      await other.update('tsk_a', (current) => ({ ...current, status: 'cancelled' }));
      expect((await store.get('tsk_a'))?.status).toBe('cancelled');
    });
  });
}
