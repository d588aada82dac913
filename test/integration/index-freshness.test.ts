import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import type { Tracker } from '../../src/domain/tracker/tracker.js';
import { buildContainer } from '../../src/composition/container.js';
import { IDS } from '../../src/composition/service-ids.js';
import { settingsFromEnv } from '../../src/composition/settings.js';
import { ChildProcesses, workerPath } from '../support/child-processes.js';
import { initNodeTracker, openNodeTracker } from '../support/node-tracker.js';
import { useTempDir } from '../support/temp-dir.js';

const temp = useTempDir('pm-index-');
const children = new ChildProcesses();
afterEach(() => children.killAll());

const itemFile = (root: string, id: string) => `${root}/items/${id}.md`;

/** Every item as list sees it (all statuses), id → title/priority/revision. */
async function snapshot(tracker: Tracker): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let cursor: string | undefined;
  do {
    const page = await tracker.list({ all: true, sort: 'id', limit: 500, ...(cursor ? { cursor } : {}) });
    for (const item of page.items) out[item.id] = `${item.title}|P${item.priority}|r${item.revision}|${item.status}`;
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** What a tracker with no index at all answers: the truth from the files. */
async function rebuilt(root: string): Promise<Record<string, string>> {
  const copy = `${root}/../../fresh-${Math.random().toString(36).slice(2)}/.agents/pm`;
  execFileSync('mkdir', ['-p', copy]);
  execFileSync('cp', ['-r', `${root}/config.yaml`, `${root}/items`, `${root}/history`, copy]);
  const tracker = await openNodeTracker(copy);
  try {
    return await snapshot(tracker);
  } finally {
    await tracker.dispose();
  }
}

async function watchingTracker(root: string): Promise<Tracker> {
  const container = await buildContainer(settingsFromEnv({ PM_ROOT: root, PM_ACTOR: 'watcher' }, root, 'watcher'), 'node', { index: { follow: 'watch' } });
  return container.getAsync(IDS.Tracker);
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
}

describe('the derived index follows every change (real files, real processes)', () => {
  it('two writer processes and a reader: every query shows at least every write acknowledged before it', async () => {
    const root = await initNodeTracker(temp());
    const writers = ['wa', 'wb'].map((name) => children.startNode(workerPath('index-writer.mjs'), [root, name, '40']));
    await Promise.all(writers.map((w) => w.waitForLine((line) => line === 'ready')));
    const reader = await openNodeTracker(root, 'reader');
    for (const w of writers) w.process.stdin!.write('go\n');
    const acked = (w: (typeof writers)[number]) => w.lines.filter((l) => l.startsWith('done ')).length;
    let rounds = 0;
    while (writers.some((w) => acked(w) < 40) && rounds < 400) {
      const before = writers.map(acked);
      const seen = await Promise.all(['wa', 'wb'].map(async (tag) => (await reader.list({ tag: [tag], all: true, limit: 1 })).total));
      seen.forEach((count, i) => expect(count).toBeGreaterThanOrEqual(before[i]!));
      rounds++;
    }
    const exits = await Promise.all(writers.map((w) => w.exited));
    expect(exits.map((e) => e.code)).toEqual([0, 0]);
    expect((await reader.list({ tag: ['wa'], all: true })).total).toBe(40);
    expect((await reader.list({ tag: ['wb'], all: true })).total).toBe(40);
    expect(await snapshot(reader)).toEqual(await rebuilt(root));
    await reader.dispose();
  });

  it('repairs what a writer killed at any point left behind: the index always equals a rebuild', async () => {
    const root = await initNodeTracker(temp());
    for (let round = 0; round < 4; round++) {
      const writer = children.startNode(workerPath('crash-writer.mjs'), [root]);
      await writer.waitForLine((line) => line === `done ${5 + round * 3}`, 60_000);
      writer.process.kill('SIGKILL');
      await writer.exited;
      const reader = await openNodeTracker(root, 'reader');
      expect(await snapshot(reader)).toEqual(await rebuilt(root));
      await reader.dispose();
    }
  });

  it('follows git checkout, merge, rebase and pull (files replaced, added and removed by git)', async () => {
    const project = temp();
    const root = await initNodeTracker(project);
    git(project, 'init', '-q', '-b', 'main');
    const tracker = await openNodeTracker(root);
    const a = (await tracker.create({ title: 'alpha on main' })).item.id;
    const b = (await tracker.create({ title: 'beta on main' })).item.id;
    git(project, 'add', '-A');
    git(project, 'commit', '-qm', 'main');
    git(project, 'checkout', '-qb', 'topic');
    await tracker.update(a, { title: 'alpha on topic' });
    const c = (await tracker.create({ title: 'gamma only on topic' })).item.id;
    await tracker.delete(b, { consent: () => true });
    git(project, 'add', '-A');
    git(project, 'commit', '-qm', 'topic');
    const titles = async () => Object.values(await snapshot(tracker)).map((s) => s.split('|')[0]).sort();
    expect(await titles()).toEqual(['alpha on topic', 'gamma only on topic']);

    git(project, 'checkout', '-q', 'main');
    expect(await titles()).toEqual(['alpha on main', 'beta on main']);
    expect(await snapshot(tracker)).toEqual(await rebuilt(root));

    git(project, 'merge', '-q', 'topic');
    expect(await titles()).toEqual(['alpha on topic', 'gamma only on topic']);

    git(project, 'checkout', '-qb', 'side', 'HEAD~1');
    const d = (await tracker.create({ title: 'delta on side' })).item.id;
    git(project, 'add', '-A');
    git(project, 'commit', '-qm', 'side');
    git(project, 'rebase', '-q', 'main');
    expect(await titles()).toEqual(['alpha on topic', 'delta on side', 'gamma only on topic']);
    expect((await tracker.get(d)).title).toBe('delta on side');

    const clone = `${temp()}/clone`;
    git(temp(), 'clone', '-q', '-b', 'side', project, clone);
    const cloned = await openNodeTracker(`${clone}/.agents/pm`);
    expect(Object.keys(await snapshot(cloned)).sort()).toEqual([a, c, d].sort());
    await tracker.update(c, { title: 'gamma pulled', priority: 0 });
    git(project, 'commit', '-qam', 'upstream change');
    git(clone, 'pull', '-q', '--no-rebase', 'origin', 'side');
    expect((await snapshot(cloned))[c]).toMatch(/^gamma pulled\|P0\|/);
    expect(await snapshot(cloned)).toEqual(await rebuilt(`${clone}/.agents/pm`));
    await cloned.dispose();
    await tracker.dispose();
  });

  for (const mode of ['check', 'watch'] as const) {
    it(`sees editor saves by rename and same-size in-place edits at once (${mode === 'check' ? 'one-shot' : 'long-lived, watching'})`, async () => {
      const root = await initNodeTracker(temp());
      const writer = await openNodeTracker(root);
      const { item } = await writer.create({ title: 'edited by hand', priority: 1 });
      await writer.dispose();
      const tracker = mode === 'check' ? await openNodeTracker(root) : await watchingTracker(root);
      const path = itemFile(root, item.id);
      for (let round = 0; round < 12; round++) {
        expect((await tracker.list({ all: true })).items[0]!.priority).toBe(1 + (round % 2));
        const text = readFileSync(path, 'utf8');
        const next = text.replace(/^priority: \d$/m, `priority: ${1 + ((round + 1) % 2)}`);
        if (round % 3 === 0) {
          writeFileSync(`${path}.swp`, next);
          renameSync(`${path}.swp`, path);
        } else {
          // Same size, same inode, right after the query: only the modification time (or the
          // racy re-read) can tell.
          const fd = openSync(path, 'r+');
          writeSync(fd, next, 0, 'utf8');
          closeSync(fd);
        }
      }
      expect((await tracker.search({ query: 'edited' })).total).toBe(1);
      writeFileSync(itemFile(root, 'pm-zz9999'), readFileSync(path, 'utf8').replace(`id: ${item.id}`, 'id: pm-zz9999').replace('edited by hand', 'added by hand'));
      expect((await tracker.search({ query: 'added' })).results.map((r) => r.id)).toEqual(['pm-zz9999']);
      rmSync(path);
      expect(Object.keys(await snapshot(tracker))).toEqual(['pm-zz9999']);
      await tracker.dispose();
    });
  }

  it('rebuilds a missing or corrupt index, and removes temp files only of writers that are gone', async () => {
    const root = await initNodeTracker(temp());
    const tracker = await openNodeTracker(root);
    const { item } = await tracker.create({ title: 'survivor' });
    await tracker.dispose();
    const db = `${root}/.runtime/index.sqlite`;
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    writeFileSync(db, 'garbage, not a database'.repeat(200));
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const abandoned = `${item.id}.md.tmp-${gone}-deadbeef`;
    const live = `${item.id}.md.tmp-${process.pid}-cafe0001`;
    writeFileSync(`${root}/items/${abandoned}`, 'half written');
    writeFileSync(`${root}/items/${live}`, 'being written');
    const again = await openNodeTracker(root);
    expect((await again.list()).items.map((i) => i.title)).toEqual(['survivor']);
    expect(existsSync(`${root}/items/${abandoned}`)).toBe(false);
    expect(readdirSync(`${root}/items`).sort()).toEqual([`${item.id}.md`, live].sort());
    await again.dispose();
  });

  it('validate removes the temp file a killed writer left, as a query does, and reports the rest', async () => {
    const root = await initNodeTracker(temp());
    const tracker = await openNodeTracker(root);
    const { item } = await tracker.create({ title: 'survivor' });
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const abandoned = `${item.id}.md.tmp-${gone}-deadbeef`;
    const live = `${item.id}.md.tmp-${process.pid}-cafe0002`;
    const files: [string, string][] = [[abandoned, 'half written'], [live, 'being written'], ['notes.txt', 'the user’s']];
    for (const [name, text] of files) writeFileSync(`${root}/items/${name}`, text);
    const report = await tracker.validate();
    expect(report.findings.map((f) => [f.code, f.file?.split('/').pop()]).sort()).toEqual([['stray_file', live], ['stray_file', 'notes.txt']].sort());
    expect(existsSync(`${root}/items/${abandoned}`)).toBe(false);
    await tracker.dispose();
  });
});
