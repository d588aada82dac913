/**
 * Links and directories inside a tracker, through the real `pm` and pm-mcp-http processes over
 * real files in temp dirs (docs/TRACKER.md "What pm reads and writes"): no write leaves the
 * tracker through a linked directory or file, nothing outside changes, config.yaml and
 * .gitattributes are never read through a link, and a directory named like an item is named.
 */
import { mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GitProject } from '../support/git-project.js';
import { httpPost, modernRequest } from '../support/mcp-http.js';
import { fillTracker, serverFixture } from '../support/server-fixture.js';

const EXIT_REFUSED = 7;

/** Every file below dir with its content, to prove nothing outside the tracker changed. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out[join(entry.parentPath, entry.name)] = await readFile(join(entry.parentPath, entry.name), 'utf8');
    else out[join(entry.parentPath, entry.name)] = entry.isDirectory() ? '<dir>' : '<other>';
  }
  return out;
}

describe('pm never writes through a link inside the tracker', () => {
  let project: GitProject;
  let kept: string;
  let outside: string;
  const pm = () => join(project.dir, '.agents/pm');

  /** Moves `name` of the tracker outside and leaves a link to it in its place; returns the outside path. */
  async function linkOut(name: string): Promise<string> {
    const target = join(outside, name.replace(/^\./, ''));
    await rename(join(pm(), name), target);
    await symlink(target, join(pm(), name));
    return target;
  }

  async function restore(name: string, target: string): Promise<void> {
    await rm(join(pm(), name));
    await rename(target, join(pm(), name));
  }

  beforeAll(async () => {
    project = await GitProject.create({ drivers: false });
    kept = await project.create('kept');
    outside = join(project.top, 'outside');
    await mkdir(outside);
  });
  afterAll(() => project.remove());

  it('refuses create and comment when items/ is a link, naming it, and leaves the linked directory and the history alone', async () => {
    const history = await readFile(join(pm(), 'history', `${kept}.jsonl`), 'utf8');
    const target = await linkOut('items');
    const before = await snapshot(outside);
    const create = await project.pm('create', 'through the link');
    expect(create.code).toBe(EXIT_REFUSED);
    expect(create.stderr).toContain(`${join(pm(), 'items')}: is a symbolic link, not a directory; pm writes nothing below it`);
    expect((await project.pm('comment', kept, 'through the link')).code).toBe(EXIT_REFUSED);
    expect((await project.pm('delete', kept, '--yes')).code).toBe(EXIT_REFUSED);
    expect(await snapshot(outside)).toEqual(before);
    expect(await readFile(join(pm(), 'history', `${kept}.jsonl`), 'utf8')).toBe(history);
    await restore('items', target);
    await project.pmOk('comment', kept, 'after the link is gone');
  });

  it('refuses to append history through a linked history/', async () => {
    const target = await linkOut('history');
    const before = await snapshot(outside);
    const comment = await project.pm('comment', kept, 'through the link');
    expect(comment.code).toBe(EXIT_REFUSED);
    expect(comment.stderr).toContain(`${join(pm(), 'history')}: is a symbolic link`);
    expect(await snapshot(outside)).toEqual(before);
    await restore('history', target);
  });

  it('writes no lock, ledger, export or index through a linked .runtime/; reads still answer, from an index in memory', async () => {
    const target = await linkOut('.runtime');
    await rm(target, { recursive: true });
    await mkdir(target);
    const create = await project.pm('create', 'keyed', '--idempotency-key', 'k1');
    expect(create.code).toBe(EXIT_REFUSED);
    expect(create.stderr).toContain(`${join(pm(), '.runtime')}: is a symbolic link, not a directory`);
    expect((await project.pm('export')).code).toBe(EXIT_REFUSED);
    const list = await project.pm('list', '--json');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).items.map((i: { id: string }) => i.id)).toEqual([kept]);
    expect(list.stderr).toContain('is a symbolic link; pm writes no index below it');
    expect(await readdir(target)).toEqual([]);
    await rm(join(pm(), '.runtime'));
    await mkdir(join(pm(), '.runtime'));
  });

  it('refuses a config.yaml linked to /dev/zero at once, without reading it', async () => {
    const config = await readFile(join(pm(), 'config.yaml'), 'utf8');
    await rm(join(pm(), 'config.yaml'));
    await symlink('/dev/zero', join(pm(), 'config.yaml'));
    for (const command of [['list'], ['create', 'x'], ['init']]) {
      const run = await project.pm(...command);
      expect(run.code).toBe(EXIT_REFUSED);
      expect(run.stderr).toContain('config.yaml: is a symbolic link, not a regular file; pm does not read it');
    }
    await rm(join(pm(), 'config.yaml'));
    await writeFile(join(pm(), 'config.yaml'), config);
  });

  it('refuses merge install over a linked .gitattributes before changing git config, and leaves the target alone', async () => {
    const target = join(outside, 'gitattributes');
    await writeFile(target, '*.png binary\n');
    await symlink(target, join(project.dir, '.gitattributes'));
    const install = await project.pm('merge', 'install');
    expect(install.code).toBe(EXIT_REFUSED);
    expect(install.stderr).toContain('.gitattributes: is a symbolic link, not a regular file');
    expect(await readFile(target, 'utf8')).toBe('*.png binary\n');
    expect((await project.git('config', '--get', 'merge.pm-item.driver')).code).not.toBe(0);
    await rm(join(project.dir, '.gitattributes'));
  });

  it('names a directory in place of an item file or history log in list, search, next and validate', async () => {
    const id = 'pm-dir001';
    await mkdir(join(pm(), 'items', `${id}.md`));
    await mkdir(join(pm(), 'history', `${id}.jsonl`));
    const list = await project.pmJson<{ items: { id: string }[]; unreadable: { id: string; message: string }[] }>('list');
    expect(list.items.map((i) => i.id)).toEqual([kept]);
    expect(list.unreadable).toEqual([{ id, message: expect.stringContaining('is a directory, not a regular file') }]);
    for (const command of [['search', 'kept'], ['next']]) {
      const run = await project.pm(...command);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`1 item could not be read and is left out: ${id}`);
    }
    const validate = JSON.parse((await project.pm('validate', '--json')).stdout) as { findings: { code: string; file?: string }[] };
    expect(validate.findings).toContainEqual(expect.objectContaining({ code: 'not_a_regular_file', file: join(pm(), 'items', `${id}.md`) }));
    expect(validate.findings).toContainEqual(expect.objectContaining({ code: 'not_a_regular_file', file: join(pm(), 'history', `${id}.jsonl`) }));
    const get = await project.pm('get', id);
    expect(get.code).toBe(EXIT_REFUSED);
    expect(get.stderr).toContain('is a directory');
    await rm(join(pm(), 'items', `${id}.md`), { recursive: true });
    await rm(join(pm(), 'history', `${id}.jsonl`), { recursive: true });
  });
});

describe('a tracker kept elsewhere behind a linked .agents/pm', () => {
  it('is followed: items land in the linked directory', async () => {
    const project = await GitProject.create({ drivers: false });
    try {
      const elsewhere = join(project.top, 'elsewhere');
      await rename(join(project.dir, '.agents/pm'), elsewhere);
      await symlink(elsewhere, join(project.dir, '.agents/pm'));
      const id = await project.create('kept elsewhere');
      expect(await readFile(join(elsewhere, 'items', `${id}.md`), 'utf8')).toContain('kept elsewhere');
    } finally {
      await project.remove();
    }
  });
});

describe('pm-mcp-http with a directory named like an item', () => {
  const fixture = serverFixture('pm-dir-item-http-');

  it('names it in pm_list as unreadable, next to the items it lists', async () => {
    const { dir, root } = await fixture.tracker();
    await fillTracker(root, 2);
    await mkdir(join(root, 'items', 'pm-dir001.md'));
    const server = await fixture.http.start(dir);
    const request = modernRequest(1, 'tools/call', { name: 'pm_list', arguments: {} });
    const reply = await httpPost(server.url, request.body, request.headers);
    const result = reply.body?.result as { isError?: boolean; structuredContent?: { items: { id: string }[]; unreadable: { id: string; message: string }[] } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.items).toHaveLength(2);
    expect(result.structuredContent?.unreadable).toEqual([{ id: 'pm-dir001', message: expect.stringContaining('is a directory, not a regular file') }]);
  });
});
