import { MemoryTaskStore } from '../../../../src/adapters/memory/memory-task-store.js';
import { MemoryTaskWorkers } from '../../../../src/adapters/memory/memory-task-workers.js';
import { PmMcpTaskService, pmMcpTasksExtension } from '../../../../src/domain/tasks/index.js';
import type { Tracker } from '../../../../src/domain/tracker/tracker.js';
import { Gate } from '../../../support/mcp-fake-server.js';
import { expectCleanHarness, TrackerMcpHarness, type Env } from '../../../support/mcp-tracker-harness.js';

/**
 * The tasks extension over the real dispatcher (SEP-2663; seed 004 "MRTR, tasks, and cache
 * behavior"): long-running tools become durable tasks for requests that declared the extension,
 * everything else runs inline; tasks/get, update and cancel, principal scoping, and the legacy
 * path without tasks. Every message is checked against the core schema and the extension's own.
 */

const TASKS = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
const flush = () => new Promise((resolve) => setImmediate(resolve));

let h: TrackerMcpHarness;
let service: PmMcpTaskService;
let store: MemoryTaskStore;
let gate: Gate | undefined;
const internal: unknown[] = [];

async function harness(wrap?: (tracker: Tracker) => Tracker): Promise<void> {
  store = new MemoryTaskStore();
  h = await TrackerMcpHarness.create({
    ...(wrap ? { wrap } : {}),
    serverExtensions: (env: Env) => {
      service = new PmMcpTaskService({ store, workers: new MemoryTaskWorkers(), clock: env.clock, ids: env.ids }, { onInternalError: (e) => internal.push(e) });
      return [pmMcpTasksExtension({ tasks: service })];
    },
  });
  await h.seed();
}

/** A tracker whose export waits for `gate` (a long operation the test controls). */
const slowExport = (tracker: Tracker): Tracker =>
  new Proxy(tracker, {
    get(target, key, receiver) {
      if (key === 'export') return async (...args: Parameters<Tracker['export']>) => {
        await gate!.opened;
        return target.export(...args);
      };
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

beforeEach(() => {
  internal.length = 0;
  gate = undefined;
});
afterEach(() => {
  expectCleanHarness(h);
  expect(internal).toEqual([]);
});

type Task = { resultType: string; taskId: string; status: string; statusMessage?: string; createdAt: string; lastUpdatedAt: string; ttlMs: number; pollIntervalMs: number; result?: Record<string, unknown>; error?: Record<string, unknown> };

async function startTask(name: string, args: Record<string, unknown> = {}): Promise<Task> {
  const response = await h.modern('tools/call', { name, arguments: args }, TASKS);
  expect(response.error).toBeUndefined();
  return response.result as unknown as Task;
}
const getTask = async (taskId: string, meta: Record<string, unknown> = TASKS) => h.modern('tasks/get', { taskId }, meta);

describe('discovery and negotiation', () => {
  beforeEach(() => harness());

  test('server/discover offers the extension; the initialize-era path does not', async () => {
    expect((await h.modern('server/discover')).result).toMatchObject({ capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
    const init = await h.initialize();
    expect(JSON.stringify(init.result)).not.toContain('io.modelcontextprotocol/tasks');
    expect(init.result?.capabilities).not.toHaveProperty('tasks');
  });

  test('a long-running tool becomes a task only for a request that declared the extension', async () => {
    const inline = await h.modern('tools/call', { name: 'pm_validate', arguments: {} });
    expect(inline.result).toMatchObject({ resultType: 'complete', structuredContent: { ok: true } });
    const task = await startTask('pm_validate');
    expect(task).toMatchObject({ resultType: 'task', taskId: expect.stringMatching(/^tsk_[0-9a-z]{26}$/), status: 'working', statusMessage: 'Running pm_validate.', ttlMs: 3_600_000, pollIntervalMs: 1_000 });
    expect(task.createdAt).toBe(task.lastUpdatedAt);
  });

  test('other tools run inline even when the extension is declared', async () => {
    const list = await h.modern('tools/call', { name: 'pm_list', arguments: {} }, TASKS);
    expect(list.result).toMatchObject({ resultType: 'complete' });
    expect(store.size).toBe(0);
  });

  test('tasks/* without the extension declared are -32021 naming it', async () => {
    const task = await startTask('pm_validate');
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const response = await h.modern(method, { taskId: task.taskId });
      expect(response.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
    }
    expect((await h.modern('tasks/update', { taskId: task.taskId, inputResponses: {} })).error?.code).toBe(-32021);
  });

  test('the initialize-era path has no tasks: tasks/* are -32601 and the old task parameter is ignored', async () => {
    await h.initialize();
    const task = await startTask('pm_validate');
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result', 'tasks/list']) {
      expect((await h.legacy(method, { taskId: task.taskId })).error?.code).toBe(-32601);
    }
    const call = await h.legacy('tools/call', { name: 'pm_validate', arguments: {}, task: { ttl: 60_000 } });
    expect(call.result).toMatchObject({ structuredContent: { ok: true } });
    expect(call.result).not.toHaveProperty('taskId');
  });

  test('tasks/result and tasks/list do not exist on the modern path either', async () => {
    for (const method of ['tasks/result', 'tasks/list']) expect((await h.modern(method, { taskId: 'x' }, TASKS)).error?.code).toBe(-32601);
  });
});

describe('a task from start to end', () => {
  beforeEach(() => harness());

  test('tasks/get gives exactly the result the inline call gives', async () => {
    const inline = (await h.modern('tools/call', { name: 'pm_validate', arguments: { limit: 5 } })).result!;
    const task = await startTask('pm_validate', { limit: 5 });
    await flush();
    const got = (await getTask(task.taskId)).result as unknown as Task;
    expect(got).toMatchObject({ resultType: 'complete', taskId: task.taskId, status: 'completed', createdAt: task.createdAt });
    const { _meta: _inlineMeta, ...inlineBody } = inline;
    expect(got.result).toEqual(inlineBody);
    expect(got).not.toHaveProperty('statusMessage');
  });

  test('pm_export as a task: the file it names exists with the advertised size and digest', async () => {
    const task = await startTask('pm_export', { format: 'jsonl' });
    await flush();
    const got = (await getTask(task.taskId)).result as unknown as Task;
    const data = got.result!.structuredContent as { path: string; items: number; bytes: number; digest: string; format: string };
    expect(data).toMatchObject({ format: 'jsonl', items: 5 });
    const text = (await h.env.fs.readText(data.path))!;
    expect(text.trim().split('\n')).toHaveLength(5);
    expect(new TextEncoder().encode(text).length).toBe(data.bytes);
    expect(data.digest).toBe(`sha256:${h.env.hasher.sha256Hex(text)}`);
  });

  test('a tool-level error completes the task with isError', async () => {
    const task = await startTask('pm_validate', { limit: 0 });
    await flush();
    expect((await getTask(task.taskId)).result).toMatchObject({ status: 'completed', result: { resultType: 'complete', isError: true } });
  });

  test('tasks/update acknowledges, ignoring responses no task asked for; malformed ones are -32602', async () => {
    const task = await startTask('pm_validate');
    expect((await h.modern('tasks/update', { taskId: task.taskId, inputResponses: { stray: { action: 'accept' } } }, TASKS)).result).toMatchObject({ resultType: 'complete' });
    expect((await h.modern('tasks/update', { taskId: task.taskId, inputResponses: { stray: 'yes' } }, TASKS)).error?.code).toBe(-32602);
    expect((await h.modern('tasks/update', { taskId: task.taskId }, TASKS)).error?.code).toBe(-32602);
    expect((await h.modern('tasks/update', { taskId: 'tsk_missing', inputResponses: {} }, TASKS)).error).toMatchObject({ code: -32602, message: 'Task not found: tsk_missing' });
  });

  test('an unknown task is -32602 on get and cancel', async () => {
    expect((await getTask('tsk_missing')).error).toMatchObject({ code: -32602, message: 'Task not found: tsk_missing', data: { taskId: 'tsk_missing' } });
    expect((await h.modern('tasks/cancel', { taskId: 'tsk_missing' }, TASKS)).error?.code).toBe(-32602);
  });

  test("another caller's task is indistinguishable from a missing one", async () => {
    const task = await startTask('pm_validate');
    const mallory = { kind: 'http' as const, principal: { id: 'oauth:mallory', scopes: ['pm:read', 'pm:write'] } };
    const foreign = await h.modern('tasks/get', { taskId: task.taskId }, TASKS, mallory);
    expect(foreign.error).toEqual({ code: -32602, message: `Task not found: ${task.taskId}`, data: { taskId: task.taskId } });
    expect((await h.modern('tasks/cancel', { taskId: task.taskId }, TASKS, mallory)).error?.code).toBe(-32602);
    expect((await getTask(task.taskId)).result).toMatchObject({ taskId: task.taskId });
  });
});

describe('cancelling', () => {
  beforeEach(() => harness(slowExport));

  test('a running export is cancelled: acknowledged, cancelled on the next get, and no file is written', async () => {
    gate = new Gate();
    const task = await startTask('pm_export');
    expect((await getTask(task.taskId)).result).toMatchObject({ status: 'working' });
    expect((await h.modern('tasks/cancel', { taskId: task.taskId }, TASKS)).result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect((await getTask(task.taskId)).result).toMatchObject({ status: 'cancelled', statusMessage: "Cancelled at the client's request." });
    gate.open();
    await flush();
    await flush();
    expect((await getTask(task.taskId)).result).toMatchObject({ status: 'cancelled' });
    expect(await h.env.fs.scan(`${h.tracker.paths.runtime}/exports`)).toEqual([]);
    expect(service.runningCount).toBe(0);
  });

  test('cancelling a finished task is acknowledged and changes nothing', async () => {
    gate = new Gate();
    gate.open();
    const task = await startTask('pm_export');
    await flush();
    await flush();
    expect((await h.modern('tasks/cancel', { taskId: task.taskId }, TASKS)).result).toMatchObject({ resultType: 'complete' });
    expect((await getTask(task.taskId)).result).toMatchObject({ status: 'completed' });
  });
});

describe('failing', () => {
  test('a protocol-level fault fails the task with -32603 (and the fault is reported, not leaked)', async () => {
    await harness((tracker) =>
      new Proxy(tracker, {
        get(target, key, receiver) {
          if (key === 'validate') return async () => {
            throw new TypeError('disk on fire');
          };
          const value = Reflect.get(target, key, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
    );
    const task = await startTask('pm_validate');
    await flush();
    const got = (await getTask(task.taskId)).result as unknown as Task;
    expect(got).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' }, statusMessage: 'Internal error' });
    expect(JSON.stringify(got)).not.toContain('disk on fire');
    expect(internal).toEqual([expect.any(TypeError)]);
    internal.length = 0;
  });
});
