/**
 * Several pm-mcp-http instances over one tracker behind nginx (round-robin), sharing tasks,
 * MRTR replay protection and change notifications through a real PostgreSQL (docs/DEPLOY.md;
 * seed 004 "MRTR, tasks, and cache behavior" and "Transport behavior"). PostgreSQL is
 * initialized into a temp dir and started on a free loopback port; nginx runs with a generated
 * configuration, its own prefix and pid in a temp dir; both are stopped by their pids.
 */
import { jest } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '../../src/adapters/postgres/postgres-database.js';
import { httpPost, McpHttpProcesses, modernRequest, openSse, type HttpServerProcess, type LooseJson } from '../support/mcp-http.js';
import { makeTempTracker, runPm } from '../support/mcp-stdio.js';
import { startNginx, type NginxBalancer } from '../support/nginx-balancer.js';
import { fillTracker } from '../support/server-fixture.js';
import { freePort, freshSchema, startPostgres, type PostgresServer } from '../support/postgres-server.js';

jest.setTimeout(120_000);

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const HEARTBEAT_MS = 300;
const TERMINAL = ['completed', 'failed', 'cancelled'];

let nextId = 1;
async function call(url: string, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Promise<LooseJson> {
  const request = modernRequest(nextId++, method, params, { meta });
  const reply = await httpPost(url, request.body, request.headers);
  const message = reply.body ?? reply.events.find((e) => 'result' in e || 'error' in e);
  if (!message) throw new Error(`no JSON-RPC reply from ${url} (HTTP ${reply.status}): ${reply.text}`);
  return message;
}
const taskMeta = { 'io.modelcontextprotocol/clientCapabilities': TASKS };

async function getProbe(url: string): Promise<{ status: number; body: LooseJson }> {
  const reply = await httpPost(url, undefined, {}, { method: 'GET', defaults: false });
  return { status: reply.status, body: reply.body ?? {} };
}

describe('pm-mcp-http scaled out: 3 instances behind nginx over one PostgreSQL', () => {
  const http = new McpHttpProcesses();
  let pg: PostgresServer;
  let nginx: NginxBalancer;
  let dir: string;
  let root: string;
  let nginxDir: string;
  let db: PostgresDatabase;
  let removeTracker: () => Promise<void>;
  const instances: HttpServerProcess[] = [];
  const schema = freshSchema('pm_scale');

  beforeAll(async () => {
    pg = await startPostgres();
    const tracker = await makeTempTracker('pm-scaleout-');
    ({ dir, root } = tracker);
    removeTracker = tracker.remove;
    await fillTracker(root, 3000);
    nginxDir = await mkdtemp(join(tmpdir(), 'pm-nginx-'));
    const port = await freePort();
    const env = { PM_MCP_PROFILE: 'full', PM_MCP_TASK_STORE: pg.url, PM_MCP_PG_SCHEMA: schema, PM_MCP_TASK_HEARTBEAT_MS: String(HEARTBEAT_MS), PM_MCP_HTTP_ALLOWED_HOSTS: `127.0.0.1:${port}` };
    for (let i = 0; i < 3; i++) instances.push(await http.start(dir, env));
    nginx = await startNginx(nginxDir, instances.map((s) => s.port), port);
    db = new PostgresDatabase({ url: pg.url, schema });
  }, 180_000);

  afterAll(async () => {
    await db?.close();
    await http.killAll();
    await nginx?.stop();
    await pg?.stop();
    if (pg) await rm(pg.dir, { recursive: true, force: true });
    if (nginxDir) await rm(nginxDir, { recursive: true, force: true });
    await removeTracker?.();
  }, 60_000);

  const instanceOf = async (taskId: string): Promise<HttpServerProcess> => {
    const [row] = await db.query<{ worker_id: string | null }>(`SELECT worker_id FROM ${db.table('tasks')} WHERE task_id = $1`, [taskId]);
    const pid = Number(row?.worker_id?.split(':')[1]);
    const found = instances.find((s) => s.proc.process.pid === pid);
    if (!found) throw new Error(`task ${taskId} runs on no known instance (worker ${row?.worker_id})`);
    return found;
  };
  const poll = async (url: string, taskId: string): Promise<LooseJson> => {
    for (;;) {
      const reply = await call(url, 'tasks/get', { taskId }, taskMeta);
      if (reply.error) throw new Error(`tasks/get failed: ${JSON.stringify(reply.error)}`);
      if (TERMINAL.includes(reply.result.status as string)) return reply.result;
      await new Promise((resolve) => setTimeout(resolve, 50)); // the client's poll interval
    }
  };

  test('the probes: every instance is live and ready, and so is the balancer', async () => {
    for (const s of instances) {
      expect(await getProbe(`http://127.0.0.1:${s.port}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
      expect(await getProbe(`http://127.0.0.1:${s.port}/readyz`)).toEqual({ status: 200, body: { status: 'ready' } });
    }
    expect((await getProbe(`http://127.0.0.1:${nginx.port}/readyz`)).status).toBe(200);
    expect(instances[0]!.proc.stderr()).toContain(`shared through PostgreSQL postgres://pm@127.0.0.1:${pg.port}/postgres, schema ${schema}`);
  });

  test('a task created through the balancer is polled to completion through it, whichever instance answers', async () => {
    const started = await call(nginx.url, 'tools/call', { name: 'pm_validate', arguments: {} }, taskMeta);
    expect(started.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = started.result.taskId as string;
    const done = await poll(nginx.url, taskId);
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { items: 3000 } } });
    // every instance reads the same record
    for (const s of instances) expect((await call(`http://127.0.0.1:${s.port}/mcp`, 'tasks/get', { taskId }, taskMeta)).result).toEqual(done);
  });

  test('a requestState consumed through one instance is refused by another', async () => {
    const [a, b] = [`http://127.0.0.1:${instances[0]!.port}/mcp`, `http://127.0.0.1:${instances[1]!.port}/mcp`];
    const id = (JSON.parse(await runPm(dir, ['create', 'Doomed', '--json'])) as { item: { id: string } }).item.id;
    const meta = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const asked = await call(a, 'tools/call', { name: 'pm_delete', arguments: { id } }, meta);
    expect(asked.result).toMatchObject({ resultType: 'input_required' });
    const retry = { name: 'pm_delete', arguments: { id }, requestState: asked.result.requestState, inputResponses: { consent: { action: 'accept', content: { confirm: true } } } };
    expect((await call(b, 'tools/call', retry, meta)).result).toMatchObject({ resultType: 'complete', structuredContent: { deleted: id } });
    expect((await call(a, 'tools/call', retry, meta)).error).toMatchObject({ code: -32602, data: { check: 'replayed' } });
  });

  test('a listener on instance A hears a change written through instance B and one by the CLI, each once', async () => {
    const a = `http://127.0.0.1:${instances[0]!.port}/mcp`;
    const b = `http://127.0.0.1:${instances[1]!.port}/mcp`;
    const listen = modernRequest('listen-a', 'subscriptions/listen', { notifications: { resourceSubscriptions: ['pm://items'] } });
    const stream = await openSse(a, listen.body, listen.headers);
    try {
      await stream.waitFor((e) => e.method === 'notifications/subscriptions/acknowledged');
      const updated = (uri: string) => stream.events.filter((e) => e.method === 'notifications/resources/updated' && e.params?.uri === uri);
      const viaB = (await call(b, 'tools/call', { name: 'pm_create', arguments: { title: 'written through B' } })).result.structuredContent.item.id as string;
      await stream.waitFor((e) => e.params?.uri === `pm://items/${viaB}`);
      const viaCli = (JSON.parse(await runPm(dir, ['create', 'written by the CLI', '--json'])) as { item: { id: string } }).item.id;
      await stream.waitFor((e) => e.params?.uri === `pm://items/${viaCli}`);
      // a last write through B: once it is heard, anything still travelling for the earlier ones has arrived
      const sentinel = (await call(b, 'tools/call', { name: 'pm_create', arguments: { title: 'sentinel' } })).result.structuredContent.item.id as string;
      await stream.waitFor((e) => e.params?.uri === `pm://items/${sentinel}`);
      expect(updated(`pm://items/${viaB}`)).toHaveLength(1);
      expect(updated(`pm://items/${viaCli}`)).toHaveLength(1);
      expect(updated(`pm://items/${sentinel}`)).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  test('LISTEN/NOTIFY alone carries a change to an instance whose file watch cannot see it (another machine)', async () => {
    // An instance over another copy of the tracker stands in for one on another host: its file
    // watch never sees B's writes, so what it hears came through PostgreSQL.
    const elsewhere = await makeTempTracker('pm-scaleout-remote-');
    try {
      const remote = await http.start(elsewhere.dir, { PM_MCP_TASK_STORE: pg.url, PM_MCP_PG_SCHEMA: schema });
      const listen = modernRequest('listen-remote', 'subscriptions/listen', { notifications: { resourcesListChanged: true, resourceSubscriptions: ['pm://items', 'pm://context'] } });
      const stream = await openSse(remote.url, listen.body, listen.headers);
      try {
        await stream.waitFor((e) => e.method === 'notifications/subscriptions/acknowledged');
        const b = `http://127.0.0.1:${instances[1]!.port}/mcp`;
        const id = (await call(b, 'tools/call', { name: 'pm_create', arguments: { title: 'heard far away' } })).result.structuredContent.item.id as string;
        await stream.waitFor((e) => e.params?.uri === `pm://items/${id}`);
        await stream.waitFor((e) => e.params?.uri === 'pm://context');
        expect(stream.events.filter((e) => e.method === 'notifications/resources/list_changed')).toHaveLength(1);
      } finally {
        stream.close();
        remote.proc.process.kill('SIGTERM');
        await remote.proc.exited;
      }
    } finally {
      await elsewhere.remove();
    }
  });

  test('PostgreSQL stopped mid-run: clear errors, readiness fails; back again: service resumes and no task is lost', async () => {
    const before = await call(nginx.url, 'tools/call', { name: 'pm_validate', arguments: {} }, taskMeta);
    const kept = await poll(nginx.url, before.result.taskId as string);
    await pg.stop();
    for (const s of instances) {
      const probe = await getProbe(`http://127.0.0.1:${s.port}/readyz`);
      expect(probe.status).toBe(503);
      expect(probe.body).toEqual({ status: 'unavailable', reasons: [expect.stringMatching(/^database unreachable: PostgreSQL /)] });
    }
    const refused = await call(nginx.url, 'tools/call', { name: 'pm_validate', arguments: {} }, taskMeta);
    expect(refused.error).toMatchObject({ code: -31054, message: expect.stringMatching(/^The shared task store \(PostgreSQL\) is unreachable .*retry shortly$/), data: { reason: 'store_unavailable', retryable: true } });
    // reads of the tracker itself do not need the database
    expect((await call(nginx.url, 'tools/list')).result.tools.length).toBeGreaterThan(0);
    await pg.start();
    for (const s of instances) expect((await getProbe(`http://127.0.0.1:${s.port}/readyz`)).status).toBe(200);
    expect((await call(nginx.url, 'tasks/get', { taskId: kept.taskId }, taskMeta)).result).toEqual(kept);
    const after = await call(nginx.url, 'tools/call', { name: 'pm_validate', arguments: {} }, taskMeta);
    expect(await poll(nginx.url, after.result.taskId as string)).toMatchObject({ status: 'completed' });
  });

  test('the instance running a task is killed with SIGKILL: the next poll through the balancer fails the task, actionably', async () => {
    const started = await call(nginx.url, 'tools/call', { name: 'pm_export', arguments: {} }, taskMeta);
    const taskId = started.result.taskId as string;
    const victim = await instanceOf(taskId);
    victim.proc.process.kill('SIGKILL');
    await victim.proc.exited;
    instances.splice(instances.indexOf(victim), 1);
    const [row] = await db.query<{ status: string; heartbeat_at: string }>(`SELECT status, heartbeat_at FROM ${db.table('tasks')} WHERE task_id = $1`, [taskId]);
    expect(row!.status).toBe('working'); // it was still running when its instance died
    // the lease runs out three heartbeats after the last one (a point in time)
    const leaseEnd = Number(row!.heartbeat_at) + 3 * HEARTBEAT_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, leaseEnd - Date.now()) + 50));
    const next = await call(nginx.url, 'tasks/get', { taskId }, taskMeta);
    expect(next.result).toMatchObject({ status: 'failed', statusMessage: 'The server running this task stopped before it finished; run the tool again.', error: { code: -32603, data: { reason: 'worker_gone' } } });
    // the balancer keeps serving with the instances left
    expect((await call(nginx.url, 'tools/list')).result.tools.length).toBeGreaterThan(0);
  });

  test('SIGTERM drains an instance: its running task is failed with a clear status, and it exits 0', async () => {
    const started = await call(nginx.url, 'tools/call', { name: 'pm_export', arguments: {} }, taskMeta);
    const taskId = started.result.taskId as string;
    const victim = await instanceOf(taskId);
    victim.proc.process.kill('SIGTERM');
    expect((await victim.proc.exited).code).toBe(0);
    instances.splice(instances.indexOf(victim), 1);
    const read = await call(nginx.url, 'tasks/get', { taskId }, taskMeta);
    expect(read.result).toMatchObject({ status: 'failed', statusMessage: 'The server running this task was shut down before it finished; run the tool again.', error: { code: -32603, data: { reason: 'worker_stopped' } } });
    expect(victim.proc.stderr()).toMatch(/failed 1 running task \(worker_stopped\)/);
  });
});
