import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, truncate, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToEnd, type Run } from '../support/child-processes.js';
import { httpPost, McpHttpProcesses, modernRequest, type LooseJson } from '../support/mcp-http.js';
import { McpProcesses, modernMeta, PM_BIN, RawMcpClient } from '../support/mcp-stdio.js';

// The real `pm`, `pm-mcp` and `pm-mcp-http` on a small tmpfs mounted for each test (the tests run as root, here
// and in CI): a disk that fills up and a mount that turns read-only, not simulated but as the
// kernel reports them (docs/TRACKER.md "What reaches the disk when"). write-faults.test.ts
// enumerates every failure point over the in-memory adapters; this proves the node adapters
// report the same typed errors and leave the same state.
jest.setTimeout(120_000);

const COMMENT = `marker-word ${'c'.repeat(6000)}`;

function pm(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const merged: NodeJS.ProcessEnv = { ...process.env, PM_ACTOR: 'tester', PM_INDEX_WATCHER: 'off', ...env };
  for (const key of ['PM_ROOT', 'PM_DEBUG']) if (!(key in env)) delete merged[key];
  return runToEnd(process.execPath, [PM_BIN, ...args], { cwd, env: merged, input: '' });
}

async function pmJson<T = Record<string, unknown>>(cwd: string, args: string[]): Promise<T> {
  const run = await pm(cwd, [...args, '--json']);
  if (run.code !== 0) throw new Error(`pm ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

/** Fills the file system, then frees `freeKb`: the next writes past that fail with ENOSPC. */
async function fillLeaving(dir: string, freeKb: number): Promise<void> {
  const filler = join(dir, 'filler');
  await unlink(filler).catch(() => undefined);
  try {
    execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'ignore' });
  } catch {
    // dd stops at ENOSPC: the disk is full.
  }
  const { size } = await stat(filler);
  await truncate(filler, Math.max(0, size - freeKb * 1024));
}

const history = (dir: string, id: string) => readFile(join(dir, '.agents/pm/history', `${id}.jsonl`), 'utf8');
const storageFailure = (run: Run) => (JSON.parse(run.stderr) as { error: { code: number; reason: string; message: string; data: Record<string, unknown> } }).error;

describe('pm on a file system that fills up or turns read-only', () => {
  let dir: string;
  const processes = new McpProcesses();
  const httpProcesses = new McpHttpProcesses();

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pm-storage-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir]);
    await pmJson(dir, ['init']);
  });

  afterEach(async () => {
    await processes.killAll();
    await httpProcesses.killAll();
    execFileSync('umount', [dir]);
    await rm(dir, { recursive: true, force: true });
  });

  test('a full disk: exit 9 storage_full, the history as it was, validate clean, and the same key completes once space is back', async () => {
    const { item } = await pmJson<{ item: { id: string } }>(dir, ['create', 'target']);
    const before = await history(dir, item.id);
    // 4 and 8 KB free: the write fails at another point each time (the history append, the item file).
    for (const freeKb of [4, 8]) {
      await fillLeaving(dir, freeKb);
      const run = await pm(dir, ['comment', item.id, COMMENT, '--idempotency-key', 'k-1', '--json']);
      expect({ freeKb, code: run.code }).toEqual({ freeKb, code: 9 });
      expect(storageFailure(run)).toMatchObject({ code: -31055, reason: 'storage_full', data: { code: 'ENOSPC', remedy: expect.stringContaining('free space') } });
      expect(await history(dir, item.id)).toBe(before);
      const validate = await pm(dir, ['validate']);
      expect({ freeKb, code: validate.code, out: validate.stdout }).toEqual({ freeKb, code: 0, out: expect.stringContaining('0 warnings') });
    }
    await unlink(join(dir, 'filler'));
    const done = await pmJson<{ replayed: boolean; receipt: { receiptId: string } }>(dir, ['comment', item.id, COMMENT, '--idempotency-key', 'k-1']);
    expect(done.replayed).toBe(false);
    const again = await pmJson<{ replayed: boolean; receipt: { receiptId: string } }>(dir, ['comment', item.id, COMMENT, '--idempotency-key', 'k-1']);
    expect(again).toMatchObject({ replayed: true, receipt: { receiptId: done.receipt.receiptId } });
    expect((await history(dir, item.id)).split('\n').filter((line) => line.includes('"idempotencyKey":"k-1"'))).toHaveLength(1);
    expect((await pm(dir, ['validate'])).code).toBe(0);
  });

  test('a disk too full for the index only: the written change succeeds with a warning, and the next query catches up', async () => {
    const { item } = await pmJson<{ item: { id: string } }>(dir, ['create', 'target']);
    await fillLeaving(dir, 16);
    const run = await pm(dir, ['comment', item.id, COMMENT, '--json']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { changed: boolean; warnings?: string[] };
    expect(result.changed).toBe(true);
    expect(result.warnings).toEqual([expect.stringContaining('the change is saved, but the derived index could not be updated')]);
    await unlink(join(dir, 'filler'));
    const found = await pmJson<{ results: { id: string }[] }>(dir, ['search', 'marker-word']);
    expect(found.results.map((r) => r.id)).toEqual([item.id]);
  });

  test('a read-only mount: writes and export fail with exit 9 read_only (never ENOENT), reads still work', async () => {
    const { item } = await pmJson<{ item: { id: string } }>(dir, ['create', 'target']);
    execFileSync('mount', ['-o', 'remount,ro', dir]);
    const comment = await pm(dir, ['comment', item.id, 'on a read-only mount', '--json']);
    expect(comment.code).toBe(9);
    expect(storageFailure(comment)).toMatchObject({ code: -31055, reason: 'read_only', data: { code: 'EROFS' } });
    // The index cannot be written either: queries answer from the files, saying so once.
    const listed = await pm(dir, ['list', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).items.map((i: { id: string }) => i.id)).toContain(item.id);
    expect(listed.stderr).toMatch(/cannot be written .*keeps the index in memory/);
    const exported = await pm(dir, ['export']);
    expect(exported.code).toBe(9);
    expect(exported.stderr).toContain('read-only (EROFS)');
    expect(exported.stderr).not.toContain('ENOENT');
    expect((await pmJson<{ title: string }>(dir, ['get', item.id])).title).toBe('target');
    expect((await pm(dir, ['validate'])).code).toBe(0);
    execFileSync('mount', ['-o', 'remount,rw', dir]);
  });

  test('over MCP a full disk is a typed storage_full tool error with its remedy, never a bare internal error', async () => {
    const { item } = await pmJson<{ item: { id: string } }>(dir, ['create', 'target']);
    const client = new RawMcpClient(processes.spawn(dir, { PM_ACTOR: 'tester', PM_INDEX_WATCHER: 'off' }), '2025-11-25');
    const listed = await client.request('tools/list', { _meta: modernMeta() });
    expect(listed.result).toMatchObject({ tools: expect.any(Array) });
    await fillLeaving(dir, 4);
    const response = await client.request('tools/call', { name: 'pm_comment', arguments: { id: item.id, text: COMMENT }, _meta: modernMeta() });
    expect(response.error).toBeUndefined();
    const result = response.result as { isError?: boolean; content: { type: string; text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('(storage_full)');
    expect(result.content[0]!.text).toContain('free space');
    expect(result.content[0]!.text).not.toContain('Internal error');
    await unlink(join(dir, 'filler'));
    const retry = await client.request('tools/call', { name: 'pm_comment', arguments: { id: item.id, text: COMMENT }, _meta: modernMeta() });
    expect((retry.result as { isError?: boolean }).isError).not.toBe(true);
    client.proc.endInput();
    await client.proc.exited;
  });

  test('over pm-mcp-http a full disk is the same storage_full tool error as over stdio: nothing half-applied, /healthz and reads answer, and the same key completes once', async () => {
    const { item } = await pmJson<{ item: { id: string } }>(dir, ['create', 'target']);
    const before = await history(dir, item.id);
    const file = () => readFile(join(dir, '.agents/pm/items', `${item.id}.md`), 'utf8');
    const fileBefore = await file();
    const env = { PM_ACTOR: 'tester', PM_INDEX_WATCHER: 'off' };
    const server = await httpProcesses.start(dir, env);
    let next = 1;
    const call = async (name: string, args: Record<string, unknown>): Promise<LooseJson> => {
      const request = modernRequest(next++, 'tools/call', { name, arguments: args });
      const reply = await httpPost(server.url, request.body, request.headers);
      // A tool's typed failure is a tool result (HTTP 200), never a transport error.
      expect({ name, status: reply.status }).toEqual({ name, status: 200 });
      return reply.body!.result as LooseJson;
    };
    const stdio = new RawMcpClient(processes.spawn(dir, env), '2025-11-25');
    // Both servers have read the tracker (and built their index) before the disk fills.
    expect((await call('pm_list', {})).isError).not.toBe(true);
    await stdio.request('tools/call', { name: 'pm_list', arguments: {}, _meta: modernMeta() });
    const comment = { id: item.id, text: COMMENT, idempotencyKey: 'h-1' };

    // 4 and 8 KB free: the write fails at another point each time (the history append, the item file).
    for (const freeKb of [4, 8]) {
      await fillLeaving(dir, freeKb);
      const failed = await call('pm_comment', comment);
      expect(failed.isError).toBe(true);
      expect(failed.content[0].text).toContain('(storage_full)');
      expect(failed.content[0].text).toContain('free space');
      expect(failed.content[0].text).not.toContain('Internal error');
      // pm-mcp answers the same call on the same full disk with the same result.
      const overStdio = await stdio.request('tools/call', { name: 'pm_comment', arguments: comment, _meta: modernMeta() });
      expect(overStdio.result).toEqual(failed);
      expect(await history(dir, item.id)).toBe(before);
      expect(await file()).toBe(fileBefore);
      const health = await httpPost(new URL('/healthz', server.url).href, undefined, {}, { method: 'GET', defaults: false });
      expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: { status: 'ok' } });
      // Reads answer from what is on disk.
      const listed = await call('pm_list', {});
      expect(listed.isError).not.toBe(true);
      expect(listed.structuredContent.items.map((i: { id: string }) => i.id)).toEqual([item.id]);
      const found = await call('pm_search', { query: 'target' });
      expect(found.isError).not.toBe(true);
      expect(found.structuredContent.results.map((r: { id: string }) => r.id)).toEqual([item.id]);
      expect({ freeKb, validate: (await pm(dir, ['validate'])).code }).toEqual({ freeKb, validate: 0 });
    }

    await unlink(join(dir, 'filler'));
    const done = await call('pm_comment', comment);
    expect(done.isError).not.toBe(true);
    expect(done.structuredContent.replayed).toBe(false);
    const again = await call('pm_comment', comment);
    expect(again.structuredContent).toMatchObject({ replayed: true, receipt: { receiptId: done.structuredContent.receipt.receiptId } });
    expect((await history(dir, item.id)).split('\n').filter((line) => line.includes('"idempotencyKey":"h-1"'))).toHaveLength(1);
    expect((await pm(dir, ['validate'])).code).toBe(0);
    stdio.proc.endInput();
    await stdio.proc.exited;
  });
});
