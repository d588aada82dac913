import { existsSync, readFileSync, renameSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ChildProcesses, type Child } from '../support/child-processes.js';
import { GitProject } from '../support/git-project.js';

const BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));
const children = new ChildProcesses();
const projects: GitProject[] = [];
/** Watchers started by a query (not children of this test): ended by pid after each test. */
const started = new Set<number>();

afterEach(async () => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await Promise.all([...started].map((pid) => until(() => !alive(pid), `watcher ${pid} to end`)));
  started.clear();
  await children.killAll();
  await Promise.all(projects.splice(0).map((p) => p.remove()));
});

interface Status {
  running: boolean;
  socket: string;
  status?: { pid: number; requests: number; events: number; sweeps: number };
  detail?: string;
}

interface Listed {
  items: { id: string; title: string }[];
}

/** Whether a process runs (a zombie, exited but not reaped, counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

/** Polls `check` until it holds (processes and sockets give no event to wait on from here). */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function project(): Promise<GitProject> {
  const p = await GitProject.create({ drivers: false });
  projects.push(p);
  return p;
}

/** A one-shot pm that asks the watcher (and starts one when none answers). */
async function pmWatched(p: GitProject, ...args: string[]): Promise<string> {
  const run = await p.run(process.execPath, [BIN, ...args], { PM_INDEX_WATCHER: 'on' });
  if (run.code !== 0) throw new Error(`pm ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run.stdout;
}

async function titles(p: GitProject): Promise<Record<string, string>> {
  const listed = JSON.parse(await pmWatched(p, 'list', '--all', '--limit', '500', '--json')) as Listed;
  return Object.fromEntries(listed.items.map((item) => [item.id, item.title]));
}

async function status(p: GitProject): Promise<Status> {
  return p.pmJson<Status>('index', 'status');
}

async function startWatcher(p: GitProject): Promise<Child> {
  const child = children.startNode(BIN, ['index', 'watch', '--root', p.dir], p.env);
  await until(async () => (await status(p)).status?.pid === child.pid, 'the watcher to answer');
  return child;
}

const file = (p: GitProject, id: string) => `${p.dir}/.agents/pm/items/${id}.md`;
const retitle = (text: string, from: string, to: string) => text.replace(`title: ${from}\n`, `title: ${to}\n`);

describe('the index watcher (real processes, temp dirs)', () => {
  it('with a watcher running, the next one-shot query sees every kind of change, through the watcher', async () => {
    const p = await project();
    const a = await p.create('alpha');
    const b = await p.create('bravo');
    const c = await p.create('charlie');
    await p.commitAll('three items');
    await startWatcher(p);
    const requests = async () => (await status(p)).status!.requests;
    expect(await titles(p)).toEqual({ [a]: 'alpha', [b]: 'bravo', [c]: 'charlie' });

    // In place, same size, twice within the same second (same inode, size and maybe mtime).
    const before = await requests();
    writeFileSync(file(p, a), retitle(readFileSync(file(p, a), 'utf8'), 'alpha', 'omega'));
    expect((await titles(p))[a]).toBe('omega');
    writeFileSync(file(p, a), retitle(readFileSync(file(p, a), 'utf8'), 'omega', 'gamma'));
    expect((await titles(p))[a]).toBe('gamma');
    // Two queries, each one refresh request (plus the status call in between).
    expect(await requests()).toBe(before + 3);

    // An editor's save: a temp file renamed over the item.
    writeFileSync(`${file(p, b)}~`, retitle(readFileSync(file(p, b), 'utf8'), 'bravo', 'saved by rename'));
    renameSync(`${file(p, b)}~`, file(p, b));
    expect((await titles(p))[b]).toBe('saved by rename');

    // Added and deleted behind pm's back.
    const added = `${a.slice(0, a.indexOf('-'))}-zzz9`;
    writeFileSync(file(p, added), retitle(readFileSync(file(p, c), 'utf8'), 'charlie', 'added by hand').replace(`id: ${c}\n`, `id: ${added}\n`));
    unlinkSync(file(p, c));
    const now = await titles(p);
    expect(now[added]).toBe('added by hand');
    expect(now[c]).toBeUndefined();

    // A pm write from another process that does not use the watcher.
    await p.pmOk('update', a, '--title', 'written by pm');
    expect((await titles(p))[a]).toBe('written by pm');

    // Git: another branch's files, and back.
    await p.commitAll('edits');
    await p.gitOk('checkout', '-q', '-b', 'other');
    writeFileSync(file(p, b), retitle(readFileSync(file(p, b), 'utf8'), 'saved by rename', 'on the other branch'));
    await p.commitAll('other');
    await p.checkout('main');
    expect((await titles(p))[b]).toBe('saved by rename');
    await p.checkout('other');
    expect((await titles(p))[b]).toBe('on the other branch');
    await p.checkout('HEAD~2');
    expect(await titles(p)).toEqual({ [a]: 'alpha', [b]: 'bravo', [c]: 'charlie' });
  });

  it('an index truncated under a running watcher is made anew by the next query, and the watcher follows the new file', async () => {
    const p = await project();
    const a = await p.create('alpha');
    const b = await p.create('bravo');
    await p.commitAll('two items');
    const watcher = await startWatcher(p);
    expect(await titles(p)).toEqual({ [a]: 'alpha', [b]: 'bravo' });
    truncateSync(`${p.dir}/.agents/pm/.runtime/index.sqlite`, 0);
    expect(await titles(p)).toEqual({ [a]: 'alpha', [b]: 'bravo' });
    // Changed outside pm after the repair: seen through the watcher, which checked every file of the new index.
    const before = (await status(p)).status!.requests;
    writeFileSync(file(p, a), retitle(readFileSync(file(p, a), 'utf8'), 'alpha', 'omega'));
    expect(await titles(p)).toEqual({ [a]: 'omega', [b]: 'bravo' });
    expect((await status(p)).status).toMatchObject({ pid: watcher.pid, requests: before + 2 });
    expect(readFileSync(`${p.dir}/.agents/pm/.runtime/index.sqlite`).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
  });

  it('a watcher killed mid-run leaves a stale socket: the next query is exact and starts a new watcher; pm index stop ends it', async () => {
    const p = await project();
    const a = await p.create('alpha');
    const first = await startWatcher(p);
    const socket = (await status(p)).socket;
    await children.kill(first);
    expect(existsSync(socket)).toBe(true);
    writeFileSync(file(p, a), retitle(readFileSync(file(p, a), 'utf8'), 'alpha', 'after the kill'));
    expect((await titles(p))[a]).toBe('after the kill');
    let pid = 0;
    await until(async () => {
      const s = await status(p);
      pid = s.status?.pid ?? 0;
      return pid !== 0;
    }, 'a query to start a new watcher');
    started.add(pid);
    expect(pid).not.toBe(first.pid);
    writeFileSync(file(p, a), retitle(readFileSync(file(p, a), 'utf8'), 'after the kill', 'seen by the new one'));
    expect((await titles(p))[a]).toBe('seen by the new one');
    const stopped = await p.pmJson<Status>('index', 'stop');
    expect(stopped).toMatchObject({ running: false, status: { pid } });
    await until(() => !alive(pid), 'the stopped watcher to exit');
    expect(existsSync(socket)).toBe(false);
    expect(await status(p)).toMatchObject({ running: false });
  });

  it('one watcher per tracker, and it exits when its temp dir is removed', async () => {
    const p = await project();
    await p.create('alpha');
    const watcher = await startWatcher(p);
    const second = children.startNode(BIN, ['index', 'watch', '--root', p.dir, '--json'], p.env);
    expect((await second.exited).code).toBe(0);
    expect(JSON.parse(second.lines.join('\n'))).toEqual({ exit: 'already-running' });
    expect((await status(p)).status?.pid).toBe(watcher.pid);
    rmSync(p.top, { recursive: true, force: true });
    expect(await watcher.exited).toEqual({ code: 0, signal: null });
  });

  it('PM_INDEX_WATCHER=off, the default of the test run: queries neither ask a watcher nor start one', async () => {
    expect(process.env.PM_INDEX_WATCHER).toBe('off');
    const p = await project();
    const a = await p.create('alpha');
    await startWatcher(p);
    const before = (await status(p)).status!.requests;
    writeFileSync(file(p, a), retitle(readFileSync(file(p, a), 'utf8'), 'alpha', 'swept'));
    expect(await p.pmOk('list')).toContain('swept');
    // Only the status calls reached it.
    expect((await status(p)).status!.requests).toBe(before + 1);
    const other = await project();
    await other.create('bravo');
    await other.pmOk('list');
    expect(await status(other)).toMatchObject({ running: false });
  });

  it("config.yaml's index.watcher applies when PM_INDEX_WATCHER is unset", async () => {
    const p = await project();
    await p.create('alpha');
    await startWatcher(p);
    const config = `${p.dir}/.agents/pm/config.yaml`;
    const original = readFileSync(config, 'utf8');
    const unset = { PM_INDEX_WATCHER: '' };
    const requests = async () => (await status(p)).status!.requests;
    writeFileSync(config, `${original}index:\n  watcher: off\n`);
    let before = await requests();
    expect((await p.run(process.execPath, [BIN, 'list'], unset)).code).toBe(0);
    expect(await requests()).toBe(before + 1);
    writeFileSync(config, `${original}index:\n  watcher: on\n`);
    before = await requests();
    expect((await p.run(process.execPath, [BIN, 'list'], unset)).code).toBe(0);
    expect(await requests()).toBe(before + 2);
    writeFileSync(config, `${original}index:\n  watcher: sometimes\n`);
    const refused = await p.run(process.execPath, [BIN, 'list'], unset);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('index.watcher');
  });
});
