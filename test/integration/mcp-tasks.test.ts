/**
 * Durable tasks through real processes (SEP-2663; seed 004 "MRTR, tasks, and cache behavior"):
 * the extension's official client (`@modelcontextprotocol/ext-tasks` over the v2 Client) runs
 * pm_export as a task over Streamable HTTP and polls it to its result; over stdio a task is
 * polled to completion, read by the official v2 client from a second server process, cancelled
 * mid-way, expired, and recovered after its server was killed with SIGKILL.
 */
import { jest } from '@jest/globals';
import { readdir, readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTaskSessionFromClient, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { GetTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { z } from 'zod';
import { buildMcpHttpRequestHeaders, PM_MCP_PROTOCOL_VERSION } from '../../src/domain/mcp/index.js';
import { testRunCacheEnv } from '../support/child-processes.js';
import { httpPost } from '../support/mcp-http.js';
import { modernMeta, PM_MCP_BIN, RawMcpClient } from '../support/mcp-stdio.js';
import { fillTracker, serverFixture } from '../support/server-fixture.js';

jest.setTimeout(90_000);

const TASKS_ID = 'io.modelcontextprotocol/tasks';
const TASKS = { extensions: { [TASKS_ID]: {} } };
const ENV = { PM_MCP_PROFILE: 'full' };
const meta = () => modernMeta({ 'io.modelcontextprotocol/clientCapabilities': TASKS });

type Task = { taskId: string; status: string; statusMessage?: string; result?: { structuredContent?: Record<string, unknown>; isError?: boolean }; error?: { code: number; message: string } };

/**
 * fetch whose JSON bodies are parsed in the test's own realm. Jest runs test code in a vm
 * context while Node's fetch builds objects in the outer one, and the extension client checks
 * that results are plain objects of its realm; a real host has one realm and needs none of this.
 */
const inRealmJsonFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) return response;
  const text = await response.text();
  const copy = new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperty(copy, 'json', { value: async () => JSON.parse(text) as unknown });
  return copy;
};

describe('durable tasks over real processes', () => {
  const { stdio, http, tracker } = serverFixture('pm-tasks-');
  async function project(items = 3): Promise<{ dir: string; root: string }> {
    const t = await tracker();
    await fillTracker(t.root, items);
    return t;
  }
  const getTask = async (client: RawMcpClient, taskId: string) => (await client.request('tasks/get', { taskId, _meta: meta() })).result as unknown as Task;
  async function pollUntilTerminal(client: RawMcpClient, taskId: string): Promise<Task> {
    for (;;) {
      const task = await getTask(client, taskId);
      if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
      await new Promise((resolve) => setTimeout(resolve, 20)); // the client's poll interval
    }
  }
  async function expectExportFile(result: Task['result']): Promise<void> {
    const data = result!.structuredContent as { path: string; bytes: number; digest: string; items: number };
    const bytes = await readFile(data.path);
    expect(bytes.length).toBe(data.bytes);
    expect(data.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
  }

  /** The extension's client over the official v2 Client, against one pm-mcp-http endpoint. */
  async function tasksSession(url: string) {
    const client = new ClientV2({ name: 'tasks-host', version: '2.0.0' }, { versionNegotiation: { mode: { pin: PM_MCP_PROTOCOL_VERSION } }, capabilities: TASKS as never });
    await client.connect(new HttpTransportV2(new URL(url), { fetch: inRealmJsonFetch }));
    // Stateless HTTP: each POST stands alone, so the host's coordinator frames one JSON-RPC request per POST.
    let nextId = 1;
    const rawDispatch: RawClientDispatch = async (request) => {
      const message = { jsonrpc: '2.0', id: `raw-${nextId++}`, ...(request as { method: string; params?: Record<string, unknown> }) };
      const reply = await httpPost(url, message, buildMcpHttpRequestHeaders(message));
      return reply.body as never;
    };
    const session = createTaskSessionFromClient(client, { endpointId: 'pm-under-test', rawDispatch, v2RequestFraming: { protocolVersion: PM_MCP_PROTOCOL_VERSION, clientInfo: { name: 'tasks-host', version: '2.0.0' }, clientCapabilities: TASKS } });
    return {
      session,
      close: async () => {
        await session.close();
        await client.close();
      },
    };
  }

  test('the extension client runs pm_export as a task over Streamable HTTP and gets its result', async () => {
    const { dir } = await project(20);
    const server = await http.start(dir, ENV);
    const { session, close } = await tasksSession(server.url);
    try {
      const execution = await session.callTool('pm_export', { format: 'json' });
      expect(execution.kind).toBe('task');
      const outcome = await execution.result();
      expect(outcome.status).toBe('completed');
      const result = (outcome as { result: Task['result'] }).result!;
      expect(result.structuredContent).toMatchObject({ format: 'json', items: 20 });
      await expectExportFile(result);
      // an ordinary tool stays an immediate call for the same session
      const list = await session.callTool('pm_list', {});
      expect(list.kind).toBe('immediate');
    } finally {
      await close();
    }
  });

  test('the extension client cancels a running export over Streamable HTTP', async () => {
    const { dir, root } = await project(2000);
    const server = await http.start(dir, ENV);
    const { session, close } = await tasksSession(server.url);
    try {
      const execution = await session.callTool('pm_export', {});
      expect(execution.kind).toBe('task');
      await execution.cancel();
      const outcome = await execution.result().then((o) => o.status, (error: Error) => error.name);
      expect(['cancelled', 'TaskCancelledError']).toContain(outcome);
      expect(await readdir(join(root, '.runtime', 'exports')).catch(() => [])).toEqual([]);
    } finally {
      await close();
    }
  });

  test('the extension client resumes a task after its server was killed with SIGKILL, and learns it failed', async () => {
    const { dir } = await project(2000);
    const first = await http.start(dir, ENV);
    const a = await tasksSession(first.url);
    const execution = await a.session.callTool('pm_validate', {});
    if (execution.kind !== 'task') throw new Error('pm_validate should have become a task');
    const reference = execution.serializeReference();
    first.proc.process.kill('SIGKILL');
    await first.proc.exited;
    await a.close().catch(() => undefined);
    const second = await http.start(dir, ENV);
    const b = await tasksSession(second.url);
    try {
      const resumed = await b.session.resumeTask(reference);
      const outcome = await resumed.result();
      expect(outcome).toMatchObject({ status: 'failed', task: { status: 'failed', statusMessage: 'The server running this task stopped before it finished; run the tool again.' } });
      expect((outcome as { error: Error }).error.message).toBe('The server running this task stopped before it finished; run the tool again.');
    } finally {
      await b.close();
    }
  });

  test('over stdio: a task polled to completion, then read by the official v2 client from another server process', async () => {
    const { dir } = await project(50);
    const client = new RawMcpClient(stdio.spawn(dir, ENV));
    const started = await client.request('tools/call', { name: 'pm_validate', arguments: {}, _meta: meta() });
    expect(started.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = started.result!.taskId as string;
    const done = await pollUntilTerminal(client, taskId);
    expect(done).toMatchObject({ status: 'completed', result: { resultType: 'complete', structuredContent: { items: 50 } } });
    expect(client.problems()).toEqual([]);

    const v2 = new ClientV2({ name: 'reader', version: '2.0.0' }, { versionNegotiation: { mode: { pin: PM_MCP_PROTOCOL_VERSION } }, capabilities: TASKS as never });
    const transport = new StdioClientTransport({ command: process.execPath, args: [PM_MCP_BIN], cwd: dir, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...testRunCacheEnv(), ...ENV } });
    await v2.connect(transport);
    stdio.track(transport.pid);
    try {
      const read = await v2.request({ method: 'tasks/get', params: { taskId } } as never, z.looseObject({ taskId: z.string(), status: z.string(), result: z.unknown() }));
      expect(GetTaskResultV2Schema.safeParse({ resultType: 'complete', ...read }).success).toBe(true);
      expect(read).toMatchObject({ taskId, status: 'completed', result: done.result });
    } finally {
      await v2.close();
    }
  });

  test('over stdio: a running export is cancelled, and writes no file', async () => {
    const { dir, root } = await project(2000);
    const client = new RawMcpClient(stdio.spawn(dir, ENV));
    const started = await client.request('tools/call', { name: 'pm_export', arguments: {}, _meta: meta() });
    const taskId = started.result!.taskId as string;
    expect((await client.request('tasks/cancel', { taskId, _meta: meta() })).result).toMatchObject({ resultType: 'complete' });
    expect(await pollUntilTerminal(client, taskId)).toMatchObject({ status: 'cancelled' });
    // the work stopped: no export appears, even once the work had time to notice
    await client.request('tasks/get', { taskId, _meta: meta() });
    expect(await readdir(join(root, '.runtime', 'exports')).catch(() => [])).toEqual([]);
    expect(client.problems()).toEqual([]);
  });

  test('over stdio: a task expires at PM_MCP_TASK_TTL_MS and is then -32602', async () => {
    const { dir } = await project(3);
    const client = new RawMcpClient(stdio.spawn(dir, { ...ENV, PM_MCP_TASK_TTL_MS: '1000' }));
    const started = await client.request('tools/call', { name: 'pm_validate', arguments: {}, _meta: meta() });
    const taskId = started.result!.taskId as string;
    expect(started.result).toMatchObject({ ttlMs: 1000 });
    expect(await pollUntilTerminal(client, taskId)).toMatchObject({ status: 'completed' });
    const deadline = Date.parse(started.result!.createdAt as string) + 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()) + 20)); // the expiry is a point in time
    const expired = await client.request('tasks/get', { taskId, _meta: meta() });
    expect(expired.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Task has expired: tsk_/) });
    expect((await client.request('tasks/get', { taskId, _meta: meta() })).error).toMatchObject({ code: -32602, message: `Task not found: ${taskId}` });
  });

  test('a task whose server was killed with SIGKILL is failed, actionably, when a new server reads it', async () => {
    const { dir } = await project(2000);
    const first = stdio.spawn(dir, ENV);
    const client = new RawMcpClient(first);
    const started = await client.request('tools/call', { name: 'pm_validate', arguments: {}, _meta: meta() });
    first.process.kill('SIGKILL');
    await first.exited;
    const taskId = started.result!.taskId as string;
    const second = new RawMcpClient(stdio.spawn(dir, ENV));
    const task = await getTask(second, taskId);
    expect(task).toMatchObject({ status: 'failed', statusMessage: 'The server running this task stopped before it finished; run the tool again.', error: { code: -32603, data: { reason: 'worker_gone' } } });
    expect(await getTask(second, taskId)).toEqual(task);
    expect(second.problems()).toEqual([]);
  });
});
