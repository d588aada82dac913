/**
 * Item and history files that are not regular files, through the real `pm` and pm-mcp-http
 * processes over real FIFOs and symbolic links in temp dirs (docs/TRACKER.md "What pm reads and
 * writes"): nothing blocks, nothing is read or written through a link, and the files are named.
 */
import { execFileSync } from 'node:child_process';
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GitProject } from '../support/git-project.js';
import { httpPost, modernRequest } from '../support/mcp-http.js';
import { fillTracker, serverFixture } from '../support/server-fixture.js';

const EXIT_CORRUPT = 7;
const PM_GET_SCHEMA = { type: 'object', properties: { id: { type: 'string', 'x-mcp-header': 'Item-Id' } }, required: ['id'] };

describe('pm over an item file that is a FIFO or a link', () => {
  let project: GitProject;
  let fifo: string;
  let kept: string;
  const itemFile = (id: string) => join(project.dir, '.agents/pm/items', `${id}.md`);
  const historyFile = (id: string) => join(project.dir, '.agents/pm/history', `${id}.jsonl`);

  beforeAll(async () => {
    project = await GitProject.create({ drivers: false });
    kept = await project.create('kept');
    fifo = await project.create('fifo');
    await rm(itemFile(fifo));
    execFileSync('mkfifo', [itemFile(fifo)]);
  });
  afterAll(() => project.remove());

  it('get and comment fail at once with a typed error and hold no lock: another writer goes on', async () => {
    const get = await project.pm('get', fifo);
    expect(get.code).toBe(EXIT_CORRUPT);
    expect(get.stderr).toContain('is a FIFO, not a regular file');
    const comment = await project.pm('comment', fifo, 'hello');
    expect(comment.code).toBe(EXIT_CORRUPT);
    await project.pmOk('comment', kept, 'still writable');
  });

  it('list names the FIFO as unreadable and validate reports not_a_regular_file', async () => {
    const list = await project.pmJson<{ items: { id: string }[]; unreadable: { id: string; message: string }[] }>('list');
    expect(list.items.map((i) => i.id)).toEqual([kept]);
    expect(list.unreadable).toEqual([{ id: fifo, message: expect.stringContaining('FIFO') }]);
    const validate = await project.pm('validate', '--json');
    expect(JSON.parse(validate.stdout).findings).toContainEqual(expect.objectContaining({ code: 'not_a_regular_file', itemId: fifo }));
  });

  it('refuses an item file linked to /dev/zero without reading it', async () => {
    const zero = await project.create('zero');
    await rm(itemFile(zero));
    await symlink('/dev/zero', itemFile(zero));
    const get = await project.pm('get', zero);
    expect(get.code).toBe(EXIT_CORRUPT);
    expect(get.stderr).toContain('is a symbolic link');
    const list = await project.pmJson<{ unreadable: { id: string }[] }>('list');
    expect(list.unreadable.map((u) => u.id).sort()).toEqual([fifo, zero].sort());
  });

  it('never appends to a history file linked outside the tracker, nor creates a dangling target', async () => {
    const outside = join(project.top, 'outside.jsonl');
    const history = await readFile(historyFile(kept), 'utf8');
    await writeFile(outside, history);
    await rm(historyFile(kept));
    await symlink(outside, historyFile(kept));
    const through = await project.pm('comment', kept, 'through the link');
    expect(through.code).toBe(EXIT_CORRUPT);
    expect(through.stderr).toContain('symbolic link');
    expect(await readFile(outside, 'utf8')).toBe(history);

    const nowhere = join(project.top, 'nowhere.jsonl');
    await rm(historyFile(kept));
    await symlink(nowhere, historyFile(kept));
    expect((await project.pm('comment', kept, 'dangling')).code).toBe(EXIT_CORRUPT);
    expect(existsSync(nowhere)).toBe(false);
    const validate = JSON.parse((await project.pm('validate', '--json')).stdout) as { findings: { code: string; file?: string }[] };
    expect(validate.findings).toContainEqual(expect.objectContaining({ code: 'symlink', file: historyFile(kept) }));
  });
});

describe('pm-mcp-http with a FIFO item', () => {
  const fixture = serverFixture('pm-fifo-http-');

  it('answers pm_get with a typed error, stays healthy, and stops on SIGTERM', async () => {
    const { dir, root } = await fixture.tracker();
    await fillTracker(root, 2);
    const path = join(root, 'items', 'pm-000001.md');
    await rm(path);
    execFileSync('mkfifo', [path]);
    const server = await fixture.http.start(dir);
    const request = modernRequest(1, 'tools/call', { name: 'pm_get', arguments: { id: 'pm-000001' } }, { toolInputSchema: PM_GET_SCHEMA });
    const reply = await httpPost(server.url, request.body, request.headers);
    // A tool's typed failure is a tool result with isError, naming its reason (not -32603).
    expect(reply.body?.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('is a FIFO, not a regular file; pm does not read it (not_a_regular_file)') }] });
    const health = await httpPost(new URL('/healthz', server.url).href, undefined, {}, { method: 'GET', defaults: false });
    expect(health.status).toBe(200);
    server.proc.process.kill('SIGTERM');
    expect(await server.proc.exited).toEqual({ code: 0, signal: null });
  });
});
