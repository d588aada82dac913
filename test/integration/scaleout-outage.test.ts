/**
 * Change notifications across a PostgreSQL outage (docs/DEPLOY.md "When PostgreSQL is down";
 * seed 004 "Transport behavior"): a writer on one checkout and a listener on another checkout
 * (standing in for another host, whose file watch never sees the writer's files) share one real
 * PostgreSQL. A change written while the database is down is queued in the writer's
 * `.runtime/announcements.jsonl` and reaches the listener after recovery exactly once, in order
 * — also when the writer is killed before the database returns.
 */
import { jest } from '@jest/globals';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { httpPost, McpHttpProcesses, modernRequest, openSse, type HttpServerProcess, type LooseJson, type SseStream } from '../support/mcp-http.js';
import { makeTempTracker } from '../support/mcp-stdio.js';
import { freshSchema, startPostgres, type PostgresServer } from '../support/postgres-server.js';

jest.setTimeout(120_000);

let nextId = 1;
async function create(server: HttpServerProcess, title: string): Promise<string> {
  const request = modernRequest(nextId++, 'tools/call', { name: 'pm_create', arguments: { title } });
  const reply = await httpPost(server.url, request.body, request.headers);
  const message: LooseJson | undefined = reply.body ?? reply.events.find((e) => 'result' in e || 'error' in e);
  if (!message?.result?.structuredContent?.item?.id) throw new Error(`pm_create failed (HTTP ${reply.status}): ${reply.text}`);
  return message.result.structuredContent.item.id as string;
}

/** Resolves once the instance's /readyz answers 200 (the database is back), polling as a load balancer does. */
async function ready(server: HttpServerProcess, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const reply = await httpPost(`http://127.0.0.1:${server.port}/readyz`, undefined, {}, { method: 'GET', defaults: false });
    if (reply.status === 200) return;
    if (Date.now() > until) throw new Error(`/readyz still ${reply.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the balancer's probe interval
  }
}

/** The item ids the stream was told about, in the order it heard them (each occurrence). */
const heardItems = (stream: SseStream): string[] =>
  stream.events.filter((e) => e.method === 'notifications/resources/updated' && typeof e.params?.uri === 'string' && e.params.uri.startsWith('pm://items/')).map((e) => (e.params.uri as string).slice('pm://items/'.length));

describe('pm-mcp-http across a PostgreSQL outage: listeners on another host hear every change once', () => {
  const http = new McpHttpProcesses();
  let pg: PostgresServer;
  let main: Awaited<ReturnType<typeof makeTempTracker>>;
  let elsewhere: Awaited<ReturnType<typeof makeTempTracker>>;
  let env: NodeJS.ProcessEnv;
  let writer: HttpServerProcess;
  let remote: HttpServerProcess;
  const outboxFile = () => `${main.root}/.runtime/announcements.jsonl`;

  beforeAll(async () => {
    pg = await startPostgres();
    main = await makeTempTracker('pm-outage-main-');
    elsewhere = await makeTempTracker('pm-outage-remote-');
    env = { PM_MCP_TASK_STORE: pg.url, PM_MCP_PG_SCHEMA: freshSchema('pm_outage') };
    writer = await http.start(main.dir, env);
    remote = await http.start(elsewhere.dir, env);
  }, 180_000);

  afterAll(async () => {
    await http.killAll();
    await pg?.stop();
    if (pg) await rm(pg.dir, { recursive: true, force: true });
    await main?.remove();
    await elsewhere?.remove();
  }, 60_000);

  const listen = async (): Promise<SseStream> => {
    const request = modernRequest(`listen-${nextId++}`, 'subscriptions/listen', { notifications: { resourceSubscriptions: ['pm://items'] } });
    const stream = await openSse(remote.url, request.body, request.headers);
    await stream.waitFor((e) => e.method === 'notifications/subscriptions/acknowledged');
    return stream;
  };

  test('a change written during the outage is delivered after recovery, exactly once, in order', async () => {
    const stream = await listen();
    try {
      const before = await create(writer, 'before the outage');
      await stream.waitFor((e) => e.params?.uri === `pm://items/${before}`);
      await pg.stop();
      const during = [await create(writer, 'during the outage 1'), await create(writer, 'during the outage 2')];
      // the writes stand; their announcements wait in the runtime area, and the log says so
      expect((await readFile(outboxFile(), 'utf8')).trim().split('\n')).toHaveLength(2);
      expect(writer.proc.stderr()).toContain('item written; its announcement is queued until the database returns (PostgreSQL is unreachable)');
      expect(writer.proc.stderr()).not.toMatch(/announcing a change failed|nothing was changed/);
      await pg.start();
      await ready(writer);
      const after = await create(writer, 'after the outage');
      await stream.waitFor((e) => e.params?.uri === `pm://items/${after}`, 30_000);
      expect(heardItems(stream)).toEqual([before, ...during, after]);
      expect(existsSync(outboxFile())).toBe(false);
      expect(writer.proc.stderr()).toMatch(/sent [23] queued announcements now that the database answers/);
    } finally {
      stream.close();
    }
  });

  test('the writer killed before the database returns: the queued announcement survives the restart', async () => {
    const stream = await listen();
    try {
      await pg.stop();
      const during = await create(writer, 'written, then the writer dies');
      writer.proc.process.kill('SIGKILL');
      await writer.proc.exited;
      expect(await readFile(outboxFile(), 'utf8')).toContain(during);
      await pg.start();
      writer = await http.start(main.dir, env); // the restarted writer sends what its predecessor queued
      const after = await create(writer, 'after the restart');
      await stream.waitFor((e) => e.params?.uri === `pm://items/${after}`, 30_000);
      expect(heardItems(stream)).toEqual([during, after]);
      expect(existsSync(outboxFile())).toBe(false);
    } finally {
      stream.close();
    }
  });
});
