import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryTaskStore } from '../../../../src/adapters/memory/memory-task-store.js';
import { MemoryTaskWorkers } from '../../../../src/adapters/memory/memory-task-workers.js';
import { SeededIdSource } from '../../../../src/adapters/memory/seeded-id-source.js';
import { NotFoundError, PmMcpInvalidParamsError, StoreUnavailableError } from '../../../../src/domain/errors/index.js';
import { newPmTask, PM_TASK_WORKER_GONE, PM_TASK_WORKER_STOPPED, PmMcpTaskService, type PmMcpTaskServiceOptions } from '../../../../src/domain/tasks/index.js';
import type { TaskRecord } from '../../../../src/ports/task-store.js';

/** A unit of work the test finishes by hand. */
class Deferred<T> {
  resolve!: (value: T) => void;
  reject!: (error: unknown) => void;
  readonly promise = new Promise<T>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
}

const ALICE = 'local:alice';
const request = { method: 'tools/call', name: 'pm_validate' };
const flush = () => new Promise((resolve) => setImmediate(resolve));

function setup(options: PmMcpTaskServiceOptions = {}) {
  const clock = new ManualClock(1_000_000);
  const store = new MemoryTaskStore();
  const workers = new MemoryTaskWorkers();
  const internal: unknown[] = [];
  const service = new PmMcpTaskService({ store, workers, clock, ids: new SeededIdSource(3) }, { ttlMs: 60_000, heartbeatMs: 5_000, onInternalError: (e) => internal.push(e), ...options });
  return { clock, store, workers, service, internal };
}

async function refused(promise: Promise<unknown>): Promise<PmMcpInvalidParamsError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PmMcpInvalidParamsError);
  return error as PmMcpInvalidParamsError;
}

describe('PmMcpTaskService', () => {
  it('stores the task before it answers, with an unguessable id, and runs the work', async () => {
    const { service, store } = setup();
    const work = new Deferred<Record<string, unknown>>();
    const record = await service.start(ALICE, request, () => work.promise);
    expect(record.taskId).toMatch(/^tsk_[0-9a-z]{26}$/);
    expect(await store.get(record.taskId)).toMatchObject({ status: 'working', principal: ALICE, request, ttlMs: 60_000, expiresAt: 1_060_000, pollIntervalMs: 1_000 });
    expect(service.runningCount).toBe(1);
    work.resolve({ resultType: 'complete', content: [], isError: false });
    await flush();
    expect(await service.get(record.taskId, ALICE)).toMatchObject({ status: 'completed', result: { resultType: 'complete', isError: false } });
    expect(service.runningCount).toBe(0);
  });

  it('completes a task whose tool result is an error (isError is not failed)', async () => {
    const { service } = setup();
    const record = await service.start(ALICE, request, async () => ({ resultType: 'complete', content: [{ type: 'text', text: 'bad' }], isError: true }));
    await flush();
    expect(await service.get(record.taskId, ALICE)).toMatchObject({ status: 'completed', result: { isError: true } });
  });

  it('fails a task whose work ends in a JSON-RPC error, keeping the code and data', async () => {
    const { service, internal } = setup();
    const record = await service.start(ALICE, request, async () => {
      throw new NotFoundError('no item pm-zz', { itemId: 'pm-zz' });
    });
    await flush();
    const failed = await service.get(record.taskId, ALICE);
    expect(failed).toMatchObject({ status: 'failed', statusMessage: 'no item pm-zz', error: { code: -32602, message: 'no item pm-zz', data: { itemId: 'pm-zz' } } });
    expect(failed).not.toHaveProperty('worker');
    expect(internal).toEqual([]);
  });

  it('fails an unexpected throw as -32603 and reports it', async () => {
    const { service, internal } = setup();
    const record = await service.start(ALICE, request, async () => {
      throw new TypeError('boom');
    });
    await flush();
    expect(await service.get(record.taskId, ALICE)).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
    expect(internal).toEqual([expect.any(TypeError)]);
  });

  it("hides another caller's task: the same -32602 as a missing one", async () => {
    const { service } = setup();
    const record = await service.start(ALICE, request, () => new Promise(() => undefined));
    const foreign = await refused(service.get(record.taskId, 'oauth:mallory'));
    const missing = await refused(service.get('tsk_doesnotexist', ALICE));
    expect(foreign.message).toBe(`Task not found: ${record.taskId}`);
    expect(missing.message).toBe('Task not found: tsk_doesnotexist');
    expect(foreign.jsonRpcCode).toBe(-32602);
    await refused(service.cancel(record.taskId, 'oauth:mallory'));
    expect((await service.get(record.taskId, ALICE)).status).toBe('working');
  });

  it('cancels cooperatively: the record is cancelled, the work is told, its late result is dropped', async () => {
    const { service } = setup();
    const work = new Deferred<Record<string, unknown>>();
    let signal: AbortSignal | undefined;
    const record = await service.start(ALICE, request, (s) => {
      signal = s;
      return work.promise;
    });
    expect((await service.cancel(record.taskId, ALICE)).status).toBe('cancelled');
    expect(signal!.aborted).toBe(true);
    work.resolve({ resultType: 'complete', content: [] });
    await flush();
    expect(await service.get(record.taskId, ALICE)).toMatchObject({ status: 'cancelled', statusMessage: "Cancelled at the client's request." });
    expect(await service.get(record.taskId, ALICE)).not.toHaveProperty('result');
  });

  it('keeps terminal states: cancelling a completed task leaves it completed', async () => {
    const { service } = setup();
    const record = await service.start(ALICE, request, async () => ({ resultType: 'complete', content: [] }));
    await flush();
    expect((await service.cancel(record.taskId, ALICE)).status).toBe('completed');
    expect((await service.get(record.taskId, ALICE)).status).toBe('completed');
  });

  it('resolves a cancel racing the completion to exactly one terminal state', async () => {
    for (let round = 0; round < 10; round++) {
      const { service } = setup();
      const work = new Deferred<Record<string, unknown>>();
      const record = await service.start(ALICE, request, () => work.promise);
      work.resolve({ resultType: 'complete', content: [] });
      const cancelled = service.cancel(record.taskId, ALICE);
      await flush();
      const final = await service.get(record.taskId, ALICE);
      expect(['completed', 'cancelled']).toContain(final.status);
      expect((await cancelled).status).toBe(final.status);
      expect(final.status === 'completed' ? 'result' in final : !('result' in final)).toBe(true);
      // and it stays that way
      expect((await service.cancel(record.taskId, ALICE)).status).toBe(final.status);
    }
  });

  it('expires at its time to live: -32602, purged, and a late result is not written', async () => {
    const { service, store, clock } = setup();
    const work = new Deferred<Record<string, unknown>>();
    const record = await service.start(ALICE, request, () => work.promise);
    clock.advance(59_999);
    expect((await service.get(record.taskId, ALICE)).status).toBe('working');
    clock.advance(1);
    const expired = await refused(service.get(record.taskId, ALICE));
    expect(expired.message).toBe(`Task has expired: ${record.taskId} (its time to live ended at ${new Date(1_060_000).toISOString()}; run the tool again)`);
    expect(await store.get(record.taskId)).toBeUndefined();
    work.resolve({ resultType: 'complete', content: [] });
    await flush();
    expect(await store.get(record.taskId)).toBeUndefined();
    await refused(service.get(record.taskId, ALICE));
  });

  it('purges expired records when it prepares and every few starts', async () => {
    const { service, store, clock } = setup({ purgeEvery: 2 });
    const old = newPmTask({ taskId: 'tsk_old', principal: ALICE, request, worker: { id: 'x', host: 'x', pid: 1, startedAt: 0 }, now: 0, ttlMs: 10, pollIntervalMs: 1000, statusMessage: 'x' });
    await store.create(old);
    await service.prepare();
    expect(await store.get('tsk_old')).toBeUndefined();
    await store.create({ ...old, taskId: 'tsk_old2' });
    await service.start(ALICE, request, async () => ({}));
    expect(await store.get('tsk_old2')).toBeDefined();
    clock.advance(1);
    await service.start(ALICE, request, async () => ({}));
    expect(await store.get('tsk_old2')).toBeUndefined();
  });

  describe('a worker that disappeared', () => {
    async function foreignTask(store: MemoryTaskStore, worker: TaskRecord['worker'], now: number): Promise<TaskRecord> {
      const record = newPmTask({ taskId: 'tsk_foreign', principal: ALICE, request, worker: worker!, now, ttlMs: 60_000, pollIntervalMs: 1000, statusMessage: 'Running pm_validate.' });
      await store.create(record);
      return record;
    }

    it('on this host: the next read fails the task, once, saying what to do', async () => {
      const { service, store, workers, clock } = setup();
      const other = workers.other();
      await foreignTask(store, other, clock.now());
      expect((await service.get('tsk_foreign', ALICE)).status).toBe('working');
      workers.stop(other);
      const failed = await service.get('tsk_foreign', ALICE);
      expect(failed).toMatchObject({ status: 'failed', error: PM_TASK_WORKER_GONE, statusMessage: PM_TASK_WORKER_GONE.message });
      expect(failed.statusMessage).toBe('The server running this task stopped before it finished; run the tool again.');
      clock.advance(10);
      expect((await service.get('tsk_foreign', ALICE)).updatedAt).toBe(failed.updatedAt);
    });

    it('this process, restarted: a task it ran before is not running now', async () => {
      const { store, workers, clock } = setup();
      await foreignTask(store, workers.self(), clock.now());
      const restarted = new PmMcpTaskService({ store, workers, clock, ids: new SeededIdSource(9) });
      expect((await restarted.get('tsk_foreign', ALICE)).status).toBe('failed');
    });

    it('on another host: alive while its heartbeat is fresh, failed once it is stale', async () => {
      const { service, store, clock } = setup({ heartbeatMs: 5_000 });
      await foreignTask(store, { id: 'far:7:0', host: 'far.example', pid: 7, startedAt: 0 }, clock.now());
      clock.advance(15_000);
      expect((await service.get('tsk_foreign', ALICE)).status).toBe('working');
      clock.advance(1);
      expect((await service.get('tsk_foreign', ALICE)).status).toBe('failed');
    });
  });

  describe('heartbeats', () => {
    it('refresh a running task, and stop once nothing runs', async () => {
      const { service, store, clock } = setup({ heartbeatMs: 5_000 });
      const work = new Deferred<Record<string, unknown>>();
      const record = await service.start(ALICE, request, () => work.promise);
      clock.advance(5_000);
      await flush();
      expect((await store.get(record.taskId))?.heartbeatAt).toBe(1_005_000);
      work.resolve({});
      await flush();
      clock.advance(5_000);
      await flush();
      expect((await store.get(record.taskId))?.status).toBe('completed');
      expect(await store.get(record.taskId)).not.toHaveProperty('heartbeatAt');
    });

    it('tell the work to stop when another process cancelled its task', async () => {
      const { service, store, clock } = setup({ heartbeatMs: 5_000 });
      let signal: AbortSignal | undefined;
      const record = await service.start(ALICE, request, (s) => {
        signal = s;
        return new Promise(() => undefined);
      });
      await store.update(record.taskId, (current) => ({ ...current, status: 'cancelled' }));
      expect(signal!.aborted).toBe(false);
      clock.advance(5_000);
      await flush();
      expect(signal!.aborted).toBe(true);
    });
  });

  it('stopAll tells every running task to stop (shutdown), without reporting faults', async () => {
    const { service, internal } = setup();
    const signals: AbortSignal[] = [];
    for (let i = 0; i < 3; i++) {
      await service.start(ALICE, request, (s) => {
        signals.push(s);
        return new Promise((_, reject) => s.addEventListener('abort', () => reject(s.reason)));
      });
    }
    service.stopAll();
    await flush();
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(internal).toEqual([]);
  });

  it('drain fails every running task saying the server was shut down, and stops its work', async () => {
    const { service, store, clock } = setup();
    const signals: AbortSignal[] = [];
    const started = [];
    for (let i = 0; i < 2; i++) {
      started.push(await service.start(ALICE, request, (s) => {
        signals.push(s);
        return new Promise((_, reject) => s.addEventListener('abort', () => reject(s.reason)));
      }));
    }
    const done = await service.start(ALICE, request, async () => ({ content: [] }));
    await flush();
    clock.advance(10);
    expect(await service.drain()).toBe(2);
    await flush();
    expect(signals.every((s) => s.aborted)).toBe(true);
    for (const task of started) expect(await store.get(task.taskId)).toMatchObject({ status: 'failed', error: PM_TASK_WORKER_STOPPED, statusMessage: PM_TASK_WORKER_STOPPED.message });
    expect((await store.get(done.taskId))?.status).toBe('completed');
    expect(service.runningCount).toBe(0);
  });

  it('keeps a result computed while the shared store is unreachable, and stores it once the store is back', async () => {
    const { service, store, clock, internal } = setup();
    const work = new Deferred<{ content: never[] }>();
    const task = await service.start(ALICE, request, () => work.promise);
    let down = true;
    const update = store.update.bind(store);
    store.update = async (...args) => (down ? Promise.reject(new StoreUnavailableError('PostgreSQL is unreachable')) : update(...args));
    work.resolve({ content: [] });
    await flush();
    expect((await store.get(task.taskId))?.status).toBe('working');
    down = false;
    clock.advance(5_000); // the next heartbeat: stored again
    await flush();
    await flush();
    expect((await store.get(task.taskId))?.status).toBe('completed');
    expect(internal).toEqual([]);
  });

  it('rejects options that are not positive integers', () => {
    expect(() => setup({ ttlMs: 0 })).toThrow(/ttlMs must be a positive integer/);
    expect(() => setup({ pollIntervalMs: 1.5 })).toThrow(/pollIntervalMs/);
  });
});
