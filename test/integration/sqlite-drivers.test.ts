/**
 * The real `pm` under every supported Node against one tracker and one index file
 * (docs/TRACKER.md "SQLite drivers"): installed once (the machine's npm install), run by the
 * Node running the suite and by Node 22 and 24 from .tools/, each with the driver its runtime
 * has (better-sqlite3 or node:sqlite). Every process answers the same, none warns, and where no
 * driver loads pm says why and keeps working from the item files.
 */
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GitProject } from '../support/git-project.js';
import { toolNode } from '../support/tool-nodes.js';

const BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));
const RUNTIMES: readonly (readonly [string, string])[] = [
  ['this Node', process.execPath],
  ['Node 22', toolNode(22)],
  ['Node 24', toolNode(24)],
];

let project: GitProject;
beforeAll(async () => {
  project = await GitProject.create({ drivers: false });
}, 60_000);
afterAll(() => project.remove());

const pmUnder = (node: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) => project.run(node, [BIN, ...args], env);

/** What list, next and search answer, as one comparable value. */
async function answers(node: string, env: NodeJS.ProcessEnv = {}) {
  const runs = await Promise.all([['list', '--all', '--json'], ['next', '--json'], ['search', 'driver', '--json']].map((args) => pmUnder(node, args, env)));
  for (const run of runs) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  const [list, next, search] = runs.map((run) => JSON.parse(run.stdout) as Record<string, unknown>);
  return { list: list!.items, next: (next as { item?: { id: string } }).item?.id, search: (search!.results as { id: string }[]).map((r) => r.id) };
}

describe('one index file, every supported Node', () => {
  it('each Node writes through its own driver and every one reads the same answers, with no warning', async () => {
    const ids: string[] = [];
    for (const [name, node] of RUNTIMES) {
      const run = await pmUnder(node, ['create', `Written under ${name} with its driver`, '--json']);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      ids.push((JSON.parse(run.stdout) as { item: { id: string } }).item.id);
      expect((await pmUnder(node, ['update', ids[0]!, '--priority', String(ids.length - 1)])).code).toBe(0);
    }
    const seen = await Promise.all(RUNTIMES.map(([, node]) => answers(node)));
    expect([...seen[0]!.search].sort()).toEqual([...ids].sort());
    for (const other of seen.slice(1)) expect(other).toEqual(seen[0]);
  }, 120_000);

  it('a first build under one Node is the index every other Node reads', async () => {
    const index = `${project.dir}/.agents/pm/.runtime/index.sqlite`;
    for (const [, builder] of RUNTIMES) {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${index}${suffix}`, { force: true });
      const built = await answers(builder);
      expect(existsSync(index)).toBe(true);
      for (const [, reader] of RUNTIMES) expect(await answers(reader)).toEqual(built);
    }
  }, 120_000);
});

describe('where no SQLite driver loads', () => {
  it('pm says why and how to fix it, then answers from the item files as the index would', async () => {
    const expected = await answers(process.execPath);
    // Under Node no bun:sqlite can load: the driver asked for alone fails as a broken install does.
    const env = { PM_INDEX_DRIVER: 'bun:sqlite' };
    const run = await pmUnder(process.execPath, ['list', '--all', '--json'], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).items).toEqual(expected.list);
    expect(run.stderr.split('\n')).toEqual([
      'pm: no SQLite driver could load for the index, so pm keeps the index in memory and reads every item file (correct, but slower on large trackers)',
      expect.stringMatching(/^ {2}bun:sqlite: Cannot find module 'bun:sqlite'/),
      '  fix: run pm with Bun, whose bun:sqlite is built in',
      '  PM_INDEX_DRIVER=bun:sqlite asks for this driver alone: unset it to let pm choose',
      expect.stringMatching(/^ {2}pm's directory: \//),
      '',
    ]);
    const created = await pmUnder(process.execPath, ['create', 'Made while the index was in memory', '--json'], env);
    expect(created.code).toBe(0);
    const id = (JSON.parse(created.stdout) as { item: { id: string } }).item.id;
    // The SQLite index of a working driver learns of the item from its file.
    expect((await answers(toolNode(24))).list).toContainEqual(expect.objectContaining({ id }));
  }, 60_000);

  it('`pm index watch` refuses, since an index in memory is nobody else’s to keep fresh', async () => {
    for (const env of [{ PM_INDEX_DRIVER: 'bun:sqlite' }, { PM_INDEX_DRIVER: 'memory' }]) {
      const run = await pmUnder(process.execPath, ['index', 'watch'], env);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^index watcher not started: the index is kept in memory here/);
    }
  }, 60_000);

  it('PM_INDEX_DRIVER=memory keeps the index in memory without a warning; an unknown driver is a usage error', async () => {
    const expected = await answers(process.execPath);
    expect(await answers(process.execPath, { PM_INDEX_DRIVER: 'memory' })).toEqual(expected);
    const bad = await pmUnder(process.execPath, ['list'], { PM_INDEX_DRIVER: 'sqlite3' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid configuration: PM_INDEX_DRIVER \(indexDriver\): .*"auto"/);
  }, 60_000);
});
