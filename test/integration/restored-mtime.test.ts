/**
 * The one-shot `pm` over an item edited in place at the same size with its modification time
 * put back (an editor followed by `touch -r`): the index's signature holds the status change
 * time, which no caller can set, so list and search see the edit (docs/TRACKER.md "The derived
 * index").
 */
import { closeSync, openSync, readFileSync, statSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { GitProject } from '../support/git-project.js';

describe('an in-place edit with a restored mtime', () => {
  let project: GitProject;
  beforeAll(async () => {
    project = await GitProject.create({ drivers: false });
  });
  afterAll(() => project.remove());

  it('is seen by the next pm list and pm search', async () => {
    const id = await project.create('aaaa');
    const file = join(project.dir, '.agents/pm/items', `${id}.md`);
    const old = new Date('2020-01-01T00:00:00Z');
    // An old mtime: the recorded signature is then not racy, so only the signature can tell.
    utimesSync(file, old, old);
    expect((await project.pmJson<{ items: { title: string }[] }>('list')).items.map((i) => i.title)).toEqual(['aaaa']);
    const before = statSync(file);
    const text = readFileSync(file, 'utf8').replace('title: aaaa', 'title: bbbb');
    const fd = openSync(file, 'r+');
    writeSync(fd, text, 0);
    closeSync(fd);
    utimesSync(file, old, old);
    const after = statSync(file);
    expect({ size: after.size, mtimeMs: after.mtimeMs, ino: after.ino }).toEqual({ size: before.size, mtimeMs: before.mtimeMs, ino: before.ino });
    expect((await project.pmJson<{ items: { title: string }[] }>('list')).items.map((i) => i.title)).toEqual(['bbbb']);
    expect((await project.pmJson<{ results: { id: string }[] }>('search', 'bbbb')).results.map((r) => r.id)).toEqual([id]);
  });
});
