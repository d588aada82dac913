import { jest } from '@jest/globals';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToEnd, type Run } from '../support/child-processes.js';

// The backlog views, several items at once, history values, export to stdout and cancel with
// a reason, through the real `pm` process (bin/pm.cjs over dist/, built by jest's global setup).
jest.setTimeout(90_000);

const BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));

function pm(cwd: string, args: string[], input = ''): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, PM_ACTOR: 'tester', HOME: cwd };
  delete env.PM_ROOT;
  delete env.PM_DEBUG;
  return runToEnd(process.execPath, [BIN, ...args], { cwd, env, input });
}

async function pmJson<T = any>(cwd: string, args: string[]): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const run = await pm(cwd, [...args, '--json']);
  if (run.code !== 0) throw new Error(`pm ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

let dir: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pm-cli-views-'));
  expect((await pm(dir, ['init'])).code).toBe(0);
  const create = async (name: string, ...argv: string[]) => { ids[name] = (await pmJson(dir, ['create', ...argv])).item.id; };
  await create('epic', 'Checkout', '--type', 'Epic', '-p', '1');
  await create('cart', 'Cart', '-p', '1', '--parent', ids.epic!);
  await create('api', 'Payment API', '-p', '2', '--tag', 'backend');
  await create('button', 'Pay button', '-p', '1', '--parent', ids.epic!, '--blocked-by', ids.api!);
  await create('spike1', 'Spike one', '-p', '3', '--tag', 'spike');
  await create('spike2', 'Spike two', '-p', '3', '--tag', 'spike');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('backlog views (real process)', () => {
  it('pm ready lists every ready item with the reason, by the same rule as next', async () => {
    const ready = await pmJson(dir, ['ready']);
    expect(ready.items.map((i: { id: string }) => i.id)).toEqual([ids.cart, ids.api, ids.spike1, ids.spike2]);
    expect(ready.items[0]).toMatchObject({ reason: 'open, unclaimed, no blockers', parentTitle: 'Checkout' });
    expect((await pmJson(dir, ['next'])).item.id).toBe(ready.items[0].id);
    const text = await pm(dir, ['ready', '--priority', '2']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^ID +PRI +STATUS +TYPE +TITLE\n${ids.api} +P2 +open +Task +Payment API  \\[backend\\]\n    why: open, unclaimed, no blockers\n`));
  });

  it('pm blocked names the open blockers; pm tree shows children and progress; list filters by priority', async () => {
    const blocked = await pm(dir, ['blocked']);
    expect(blocked.stdout).toContain(`${ids.button}`);
    expect(blocked.stdout).toContain(`    waits on ${ids.api} open "Payment API"\n`);
    const tree = await pm(dir, ['tree', ids.epic!]);
    expect(tree.stdout).toMatch(new RegExp(`${ids.epic} +P1 +open +Epic +Checkout  0/2 done\n  ${ids.cart} `));
    const list = await pmJson(dir, ['list', '-p', '3']);
    expect(list.items.map((i: { id: string }) => i.id).sort()).toEqual([ids.spike1, ids.spike2].sort());
    expect((await pm(dir, ['list', '-p', '7'])).code).toBe(2);
  });
});

describe('several items at once (real process)', () => {
  it('claims several ids, goes on past a missing one and exits 10', async () => {
    const run = await pm(dir, ['claim', ids.cart!, 'pm-zzzzzz', ids.api!]);
    expect(run.code).toBe(10);
    expect(run.stdout).toContain('Failed pm-zzzzzz: no item pm-zzzzzz (exit 3)');
    expect(run.stdout).toMatch(/Claimed 2 of 3 items; 1 failed \(pm-zzzzzz\)\.\n$/);
    expect((await pmJson(dir, ['release', ids.cart!, ids.api!])).succeeded).toBe(2);
    const tagged = await pm(dir, ['tag', ids.cart!, ids.button!, '--add', 'checkout']);
    expect(tagged.stdout).toMatch(/Tagged 2 of 2 items\.\n$/);
    expect((await pmJson(dir, ['list', '--tag', 'checkout'])).total).toBe(2);
  });

  it('refuses a --filter without a terminal unless --yes, then cancels each with the reason', async () => {
    const refused = await pm(dir, ['close', '--filter', 'tag=spike', '--cancel', '--reason', 'spikes done']);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('--filter selected 2 item(s); pass --yes to cancel them (there is no terminal to ask)');
    const done = await pm(dir, ['close', '--filter', 'tag=spike', '--cancel', '--reason', 'spikes done', '--yes']);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/Canceled 2 of 2 items\.\n$/);
    expect((await pmJson(dir, ['get', ids.spike1!])).closure.evidence).toBe('spikes done');
    const noReason = await pm(dir, ['close', ids.cart!, '--cancel']);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason: required with --cancel: say why the item is dropped');
  });
});

describe('history values and export to stdout (real process)', () => {
  it('pm history shows old -> new values', async () => {
    await pm(dir, ['update', ids.api!, '-p', '0', '--assignee', 'bob']);
    const history = await pm(dir, ['history', ids.api!]);
    expect(history.stdout).toContain('      priority: 2 -> 0\n');
    expect(history.stdout).toContain('      assignee: (none) -> "bob"\n');
  });

  it('pm export --stdout and pm export - print the document and write no file', async () => {
    const jsonl = await pm(dir, ['export', '--stdout', '--format', 'jsonl']);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(Object.values(ids).sort());
    const doc = JSON.parse((await pm(dir, ['export', '-'])).stdout) as { format: string; items: unknown[] };
    expect(doc).toMatchObject({ format: 'pm-export', version: 1 });
    expect(doc.items).toHaveLength(Object.keys(ids).length);
    expect(await readdir(join(dir, '.agents/pm/.runtime')).then((names) => names.includes('exports'), () => false)).toBe(false);
  });
});
