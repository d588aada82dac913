import { mkdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { httpPost, modernRequest, type HttpReply, type LooseJson } from '../support/mcp-http.js';
import { PM_BIN } from '../support/mcp-stdio.js';
import { runToEnd, testRunCacheEnv, type Run } from '../support/child-processes.js';
import { fillTracker, serverFixture } from '../support/server-fixture.js';

/** More than the first build's threshold, so a rebuild goes through the build aside. */
const ITEMS = 1100;
const SQLITE_HEADER = 'SQLite format 3\0';

const indexPath = (root: string) => join(root, '.runtime', 'index.sqlite');

async function header(path: string): Promise<string> {
  return (await readFile(path)).subarray(0, 16).toString('latin1');
}

function pm(dir: string, args: readonly string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...testRunCacheEnv(), PM_ACTOR: 'tester', PM_INDEX_WATCHER: 'off', NO_COLOR: '1' };
  delete env.PM_ROOT;
  return runToEnd(process.execPath, [PM_BIN, ...args], { cwd: dir, env });
}

async function pmJson(dir: string, args: readonly string[]): Promise<{ json: LooseJson; run: Run; ms: number }> {
  const started = Date.now();
  const run = await pm(dir, [...args, '--json']);
  const ms = Date.now() - started;
  if (run.code !== 0) throw new Error(`pm ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return { json: JSON.parse(run.stdout) as LooseJson, run, ms };
}

describe('the derived index heals itself under real processes', () => {
  const { http, tracker } = serverFixture('pm-index-heal-');
  let nextId = 1;

  async function tool(url: string, name: string, args: Record<string, unknown>): Promise<LooseJson> {
    const request = modernRequest(nextId++, 'tools/call', { name, arguments: args });
    const reply: HttpReply = await httpPost(url, request.body, request.headers);
    expect({ status: reply.status, error: reply.body?.error, isError: reply.body?.result?.isError }).toEqual({ status: 200, error: undefined, isError: undefined });
    return reply.body!.result.structuredContent as LooseJson;
  }

  test('an index truncated under a running pm-mcp-http: its queries and writes keep answering, the CLI does not wait, the index is rebuilt', async () => {
    const { dir, root } = await tracker();
    await fillTracker(root, ITEMS);
    const server = await http.start(dir, { PM_MCP_PROFILE: 'full' });
    expect((await tool(server.url, 'pm_list', { limit: 1 })).total).toBe(ITEMS);

    await truncate(indexPath(root), 0);
    expect((await tool(server.url, 'pm_list', { limit: 1 })).total).toBe(ITEMS);
    const created = (await tool(server.url, 'pm_create', { title: 'written after the truncation' })).item as LooseJson;
    const found = await tool(server.url, 'pm_search', { query: 'truncation' });
    expect((found.results as LooseJson[]).map((hit) => hit.id)).toEqual([created.id]);
    expect(server.proc.stderr()).toContain('is damaged (the index file is empty (truncated)), so pm makes it anew and rebuilds it from the item files');
    expect(await header(indexPath(root))).toBe(SQLITE_HEADER);

    // Truncated again: a one-shot process finds the file empty beside the server's log and does not wait for its locks.
    await truncate(indexPath(root), 0);
    const list = await pmJson(dir, ['list', '--limit', '1']);
    expect(list.json.total).toBe(ITEMS + 1);
    expect(list.ms).toBeLessThan(10_000);
    expect(list.run.stderr).toContain('is damaged');
    const search = await pmJson(dir, ['search', 'truncation']);
    expect((search.json.results as LooseJson[]).map((hit) => hit.id)).toEqual([created.id]);
    // The server reopens the file the CLI made and keeps writing and reading.
    const second = (await tool(server.url, 'pm_create', { title: 'second write after the damage' })).item as LooseJson;
    expect((await tool(server.url, 'pm_list', { limit: 1 })).total).toBe(ITEMS + 2);
    expect((await pmJson(dir, ['get', second.id as string])).json.title).toBe('second write after the damage');
    expect((await stat(indexPath(root))).size).toBeGreaterThan(ITEMS * 100);
  }, 120_000);

  test('a directory at the index path is replaced by a rebuilt index', async () => {
    const { dir, root } = await tracker();
    await fillTracker(root, 5);
    await mkdir(join(indexPath(root), 'inside'), { recursive: true });
    const list = await pmJson(dir, ['list']);
    expect(list.json.total).toBe(5);
    expect(list.run.stderr).toContain('is damaged (a directory is at the index path)');
    expect(await header(indexPath(root))).toBe(SQLITE_HEADER);
    const again = await pmJson(dir, ['list']);
    expect(again.run.stderr).toBe('');
  });

  test('garbage in the index file is replaced by a rebuilt index', async () => {
    const { dir, root } = await tracker();
    await fillTracker(root, 5);
    await pmJson(dir, ['list']);
    await writeFile(indexPath(root), 'not a database '.repeat(500));
    const next = await pmJson(dir, ['next']);
    expect(next.json.item.id).toBe('pm-000000');
    expect(next.run.stderr).toContain('is damaged (the index file is not an SQLite database)');
  });

  test('a runtime area that cannot hold the index: every query answers from the item files and says so once', async () => {
    const { dir, root } = await tracker();
    await fillTracker(root, 5);
    await rm(join(root, '.runtime'), { recursive: true, force: true });
    await writeFile(join(root, '.runtime'), 'a file where the runtime directory belongs');
    const list = await pmJson(dir, ['list']);
    expect(list.json.total).toBe(5);
    const search = await pmJson(dir, ['search', 'Item 3']);
    expect((search.json.results as LooseJson[])[0]!.id).toBe('pm-000003');
    const next = await pmJson(dir, ['next']);
    expect(next.json.item.id).toBe('pm-000000');
    const context = await pmJson(dir, ['context']);
    expect(context.json.total).toBe(5);
    for (const run of [list.run, search.run, next.run, context.run]) {
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining('cannot be written (ENOTDIR: not a directory')]);
      expect(run.stderr).toContain('so this process keeps the index in memory and reads every item file');
    }
  });
});
