import { jest } from '@jest/globals';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToEnd, type Run } from '../support/child-processes.js';

// The real `pm` process (bin/pm.cjs over dist/, built by jest's global setup) in fresh temp dirs.
// Every call starts a node process (~0.5 s), so these tests get a longer timeout.
jest.setTimeout(90_000);

const BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));

function pm(cwd: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv; bin?: string } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, PM_ACTOR: 'tester', ...options.env };
  for (const key of ['PM_ROOT', 'PM_DEBUG']) if (!options.env || !(key in options.env)) delete env[key];
  return runToEnd(process.execPath, [options.bin ?? BIN, ...args], { cwd, env, input: options.input ?? '' });

}

/** Runs with --json, expects exit 0 and returns the parsed result. */
async function pmJson<T = any>(cwd: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const run = await pm(cwd, [...args, '--json'], options);
  if (run.code !== 0) throw new Error(`pm ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as T;
}

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pm-cli-'));
  dirs.push(dir);
  return dir;
}

async function freshTracker(): Promise<string> {
  const dir = await freshDir();
  expect((await pm(dir, ['init'])).code).toBe(0);
  return dir;
}

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('pm CLI (real process)', () => {
  it('initializes a tracker, once', async () => {
    const dir = await freshDir();
    const init = await pm(dir, ['init', '--prefix', 'web']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`Initialized a pm tracker in ${dir}/.agents/pm`);
    expect(await readFile(join(dir, '.agents/pm/config.yaml'), 'utf8')).toMatch(/idPrefix: web/);
    expect(await readFile(join(dir, '.agents/pm/.gitignore'), 'utf8')).toContain('.runtime/');
    const again = await pmJson(dir, ['init']);
    expect(again).toMatchObject({ created: false, root: `${dir}/.agents/pm` });
    const created = await pmJson(dir, ['create', 'Prefixed']);
    expect(created.item.id).toMatch(/^web-[0-9a-z]+$/);
  });

  it('runs the everyday workflow from create to close', async () => {
    const dir = await freshTracker();
    const created = await pm(dir, ['create', 'Fix login redirect', '-p', '1', '--tag', 'auth', '--ac', 'redirects home', '--body-file', '-'], { input: 'Safari drops the cookie.\n' });
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    const id = /Created (\S+) "Fix login redirect" \(revision 1\)/.exec(created.stdout)![1]!;
    const file = await readFile(join(dir, '.agents/pm/items', `${id}.md`), 'utf8');
    expect(file).toMatch(/^---\nid: /);
    expect(file).toContain('Safari drops the cookie.');

    const list = await pm(dir, ['list']);
    expect(list.stdout).toMatch(new RegExp(`${id} +P1 +open +Task +Fix login redirect  \\[auth\\]`));
    expect((await pm(dir, ['show', id])).stdout).toContain('  1. [ ] redirects home');
    expect((await pmJson(dir, ['next'])).item.id).toBe(id);

    const claimed = await pmJson(dir, ['claim', id, '--lease', '15']);
    expect(claimed.item).toMatchObject({ status: 'in_progress', claim: { holder: 'tester' } });
    expect((await pmJson(dir, ['status'])).claims).toEqual([expect.objectContaining({ id, holder: 'tester' })]);
    expect((await pm(dir, ['context'])).stdout).toMatch(new RegExp(`Active claims:\\n  ${id}  tester  until `));
    expect((await pmJson(dir, ['update', id, '--check', '1', '--add-tag', 'web'])).item.tags).toEqual(['auth', 'web']);
    expect((await pm(dir, ['comment', id, 'Fixed', 'in', 'abc123'])).stdout).toMatch(/^Commented on /);
    expect((await pmJson(dir, ['release', id])).item.status).toBe('open');
    const closed = await pmJson(dir, ['close', id, '--evidence', 'commit abc123']);
    expect(closed.item).toMatchObject({ status: 'closed', closure: { by: 'tester', evidence: 'commit abc123' }, revision: 6 });
    expect((await pmJson(dir, ['list'])).total).toBe(0);
    expect((await pmJson(dir, ['list', '--all'])).total).toBe(1);
    expect((await pmJson(dir, ['reopen', id, '--reason', 'regressed'])).item.status).toBe('open');

    const history = await pmJson<{ op: string; actor: string }[]>(dir, ['history', id]);
    expect(history.map((e) => e.op)).toEqual(['create', 'claim', 'update', 'comment', 'release', 'close', 'reopen']);
    expect(new Set(history.map((e) => e.actor))).toEqual(new Set(['tester']));
    const search = await pmJson(dir, ['search', 'cookie', '--open']);
    expect(search.results.map((r: { id: string }) => r.id)).toEqual([id]);
    const validate = await pm(dir, ['validate']);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toBe('OK: 1 item checked, 0 warnings\n');
  });

  it('links, shows and unlinks dependencies, then deletes with consent', async () => {
    const dir = await freshTracker();
    const a = (await pmJson(dir, ['create', 'API'])).item.id;
    const b = (await pmJson(dir, ['create', 'UI', '--blocked-by', a])).item.id;
    const c = (await pmJson(dir, ['create', 'Docs'])).item.id;
    expect((await pmJson(dir, ['deps', 'add', c, '--blocked-by', b])).item.blockedBy).toEqual([b]);
    await pmJson(dir, ['deps', 'add', a, '--related', c]);
    const view = await pmJson(dir, ['deps', b]);
    expect(view).toMatchObject({ blockedBy: [{ id: a, status: 'open' }], blocks: [{ id: c }], openBlockers: 1 });
    const cycle = await pm(dir, ['deps', 'add', a, '--blocked-by', c]);
    expect(cycle.code).toBe(4);
    expect(cycle.stderr).toMatch(/^pm: .*would close a cycle/);
    expect((await pmJson(dir, ['deps', 'remove', c, '--blocked-by', b])).item.blockedBy).toEqual([]);
    expect((await pmJson(dir, ['next'])).item.id).toBe(a);

    const referenced = await pm(dir, ['delete', c, '--yes']);
    expect(referenced.code).toBe(4);
    expect(referenced.stderr).toBe(`pm: ${c} is still referenced by ${a}; remove those links first\n`);
    expect((await pm(dir, ['deps', 'remove', a, '--related', c])).code).toBe(0);
    const refused = await pm(dir, ['delete', c]);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toMatch(/^pm: Delete .*This needs explicit consent: pass --yes \(-y\)\.\n$/);
    const deleted = await pmJson(dir, ['delete', c, '--yes']);
    expect(deleted).toMatchObject({ item: null, receipt: { op: 'delete', itemId: c } });
    expect((await pm(dir, ['get', c])).code).toBe(3);
    expect((await pmJson(dir, ['history', c])).map((e: { op: string }) => e.op)).toEqual(['create', 'deps', 'deps', 'delete']);
  });

  it('replays an idempotency key instead of writing twice', async () => {
    const dir = await freshTracker();
    const first = await pmJson(dir, ['create', 'Once', '--idempotency-key', 'req-1']);
    const second = await pmJson(dir, ['create', 'Once', '--idempotency-key', 'req-1']);
    expect(second).toMatchObject({ replayed: true, changed: false, receipt: first.receipt });
    expect((await pmJson(dir, ['list'])).total).toBe(1);
    const id = first.item.id;
    const update = await pmJson(dir, ['update', id, '-p', '0', '--idempotency-key', 'req-2']);
    const replay = await pm(dir, ['update', id, '-p', '0', '--idempotency-key', 'req-2']);
    expect(replay.stdout).toContain(`matched receipt ${update.receipt.receiptId}, nothing written`);
    expect((await pmJson(dir, ['get', id])).revision).toBe(2);
    const reused = await pm(dir, ['update', id, '-p', '3', '--idempotency-key', 'req-2', '--json']);
    expect(reused.code).toBe(4);
    expect(JSON.parse(reused.stderr).error.reason).toBe('idempotency_key_reused');
  });

  it('exits with the documented codes on bad input', async () => {
    const dir = await freshTracker();
    const id = (await pmJson(dir, ['create', 'Target'])).item.id;
    await pmJson(dir, ['update', id, '--title', 'Target v2']);

    // Independent refusals, run side by side: none of them may change anything.
    const [unknown, stale, badPriority, unknownOption, noEvidence, badStatus, badCommand, noCommand, jsonError] = await Promise.all([
      pm(dir, ['get', 'pm-zzzzzz']),
      pm(dir, ['update', id, '--title', 'Mine', '--expected-revision', '1']),
      pm(dir, ['create', 'X', '-p', 'urgent']),
      pm(dir, ['list', '--colour']),
      pm(dir, ['close', id]),
      pm(dir, ['create', 'X', '--status', 'weird']),
      pm(dir, ['nonsense']),
      pm(dir, []),
      pm(dir, ['get', 'pm-zzzzzz', '--json']),
    ]);
    expect(unknown).toEqual({ code: 3, stdout: '', stderr: 'pm: no item pm-zzzzzz\n' });
    expect(stale.code).toBe(4);
    expect(stale.stderr).toBe(`pm: ${id} is at revision 2, not 1: it changed since you read it; re-read and retry\n`);
    expect(badPriority).toEqual({ code: 2, stdout: '', stderr: "pm: --priority: invalid priority 'urgent': expected an integer from 0 (highest) to 4 (lowest) (see 'pm create --help')\n" });
    expect(unknownOption).toEqual({ code: 2, stdout: '', stderr: "pm: unknown option '--colour' (see 'pm list --help')\n" });
    expect(noEvidence.code).toBe(2);
    expect(noEvidence.stderr).toMatch(/^pm: --evidence: required/);
    expect(badStatus.code).toBe(2);
    expect(badStatus.stderr).toBe("pm: unknown status 'weird'; expected one of: draft, open, in_progress, blocked, closed, canceled\n");
    expect(badCommand.stderr).toBe("pm: unknown command 'nonsense' (see 'pm --help')\n");
    expect([badCommand.code, noCommand.code]).toEqual([2, 2]);
    expect(jsonError.code).toBe(3);
    expect(jsonError.stdout).toBe('');
    expect(JSON.parse(jsonError.stderr)).toEqual({ error: { code: -32602, reason: 'not_found', message: 'no item pm-zzzzzz', data: { reason: 'not_found', itemId: 'pm-zzzzzz' } } });
    expect((await pmJson(dir, ['list'])).total).toBe(1);
    expect((await pmJson(dir, ['get', id])).title).toBe('Target v2');
    for (const run of [unknown, stale, badPriority, jsonError]) expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 5 from validate when a history file was tampered with, 0 with warnings only', async () => {
    const dir = await freshTracker();
    const id = (await pmJson(dir, ['create', 'Audited'])).item.id;
    await pmJson(dir, ['comment', id, 'second line']);
    const itemFile = join(dir, '.agents/pm/items', `${id}.md`);
    await writeFile(itemFile, (await readFile(itemFile, 'utf8')).replace('title: Audited', 'title: Audited by hand'));
    const warned = await pm(dir, ['validate']);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toMatch(/warning +unrecorded_change/);
    const historyFile = join(dir, '.agents/pm/history', `${id}.jsonl`);
    await writeFile(historyFile, (await readFile(historyFile, 'utf8')).replace('"actor":"tester"', '"actor":"mallory"'));
    const tampered = await pm(dir, ['validate', '--json']);
    expect(tampered.code).toBe(5);
    const report = JSON.parse(tampered.stdout);
    expect(report).toMatchObject({ ok: false, errors: 1 });
    expect(report.findings).toContainEqual(expect.objectContaining({ severity: 'error', code: 'history_tampered', itemId: id }));
  });

  it('finds the tracker from subdirectories, --root and PM_ROOT, and records --actor or PM_ACTOR', async () => {
    const dir = await freshTracker();
    const sub = join(dir, 'src', 'deep');
    await mkdir(sub, { recursive: true });
    const id = (await pmJson(sub, ['create', 'From below', '--actor', 'carol'])).item.id;
    const elsewhere = await freshDir();
    expect((await pm(elsewhere, ['list'])).code).toBe(3);
    expect((await pmJson(elsewhere, ['get', id, '--root', dir])).title).toBe('From below');
    expect((await pmJson(elsewhere, ['get', id], { env: { PM_ROOT: join(dir, '.agents/pm') } })).title).toBe('From below');
    await pmJson(elsewhere, ['comment', id, 'hi'], { env: { PM_ROOT: dir, PM_ACTOR: 'dave' } });
    expect((await pmJson(dir, ['history', id])).map((e: { actor: string }) => e.actor)).toEqual(['carol', 'dave']);
    expect((await pm(elsewhere, ['list'], { env: { PM_ROOT: elsewhere } })).stderr).toMatch(/^pm: PM_ROOT=.* holds no tracker/);
  });

  it('prints help and the version', async () => {
    const dir = await freshDir();
    const help = await pm(dir, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^pm \d+\.\d+\.\d+: a git-native project tracker/);
    expect((await pm(dir, ['deps', 'add', '--help'])).stdout).toMatch(/^Usage: pm deps add <id> \[options\]/);
    const version = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')).version;
    expect((await pm(dir, ['--version'])).stdout).toBe(`${version}\n`);
  });
});

describe('bins kept from before the CommonJS bins', () => {
  const run = (bin: string, cwd: string, args: string[], input: string) => pm(cwd, args, { input, bin: fileURLToPath(new URL(`../../bin/${bin}`, import.meta.url)) });

  test('bin/pm.js runs the CLI with its exit codes', async () => {
    const dir = await freshTracker();
    const list = await run('pm.js', dir, ['list', '--json'], '');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ items: [] });
    const unknown = await run('pm.js', dir, ['nosuch'], '');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'nosuch'");
  });

  test('bin/pm-mcp.js serves MCP over stdio', async () => {
    const dir = await freshTracker();
    const discover = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } };
    const served = await run('pm-mcp.js', dir, [], `${JSON.stringify(discover)}\n`);
    expect(served.code).toBe(0);
    expect(JSON.parse(served.stdout.trim())).toMatchObject({ id: 1, result: { resultType: 'complete', supportedVersions: ['2026-07-28'] } });
  });
});
