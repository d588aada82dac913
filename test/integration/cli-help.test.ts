import { jest } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { runToEnd, type Run } from '../support/child-processes.js';
import { useTempDir } from '../support/temp-dir.js';

// What a person sees when they get a command line wrong, from the real `pm` process: the
// nearest command, option or value named (case-insensitively), empty values refused by name,
// and refusals in CLI words (--force, --yes, --strict), never MCP's argument names or zod's.
jest.setTimeout(90_000);

const BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));

describe('pm help that helps (real process)', () => {
  const temp = useTempDir('pm-help-');

  async function setUp() {
    const dir = temp();
    const pm = (args: string[], actor = 'alice'): Promise<Run> => {
      const env: NodeJS.ProcessEnv = { ...process.env, PM_ACTOR: actor };
      for (const key of ['PM_ROOT', 'PM_DEBUG']) delete env[key];
      return runToEnd(process.execPath, [BIN, ...args], { cwd: dir, env });
    };
    expect((await pm(['init'])).code).toBe(0);
    const created = await pm(['create', 'First', '--json']);
    const id = (JSON.parse(created.stdout) as { item: { id: string } }).item.id;
    return { pm, id };
  }

  const refused = (run: Run, code: number, stderr: string) => {
    expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({ code, stderr: `pm: ${stderr}\n`, stdout: '' });
  };

  it('suggests the nearest command, option and value (case-insensitive: did you mean Task?)', async () => {
    const { pm } = await setUp();
    refused(await pm(['lsit']), 2, "unknown command 'lsit'; did you mean 'list'? (see 'pm --help')");
    refused(await pm(['list', '--stauts', 'open']), 2, "unknown option '--stauts'; did you mean '--status'? (see 'pm list --help')");
    refused(await pm(['create', 'X', '--type', 'task']), 2, "unknown type 'task'; did you mean Task? expected one of: Epic, Feature, Task, Chore, Issue, Decision");
    refused(await pm(['list', '--status', 'in-progress']), 2, "unknown status 'in-progress'; did you mean in_progress? expected one of: draft, open, in_progress, blocked, closed, canceled");
    refused(await pm(['list', '--sort', 'prioirty']), 2, "--sort: unknown value 'prioirty'; did you mean priority? expected one of: priority, created, updated, title, id (see 'pm list --help')");
  });

  it('refuses empty values by name instead of ignoring them or printing zod', async () => {
    const { pm, id } = await setUp();
    refused(await pm(['create', 'X', '--assignee', '']), 2, "--assignee: the value is empty (expected NAME) (see 'pm create --help')");
    refused(await pm(['update', id, '--assignee', '']), 2, "--assignee: the value is empty (expected NAME; to remove the assignee, use --unassign) (see 'pm update --help')");
    refused(await pm(['create', 'X', '--tag', '']), 2, "--tag: the value is empty (expected TAG) (see 'pm create --help')");
    refused(await pm(['list', '--tag', '']), 2, "--tag: the value is empty (expected TAG) (see 'pm list --help')");
    refused(await pm(['create', 'X', '--tag', 'a,']), 2, "--tag: 'a,' has an empty entry; give names separated by commas (see 'pm create --help')");
    expect((await pm(['list', '--all', '--json'])).stdout).not.toContain('"X"');
  });

  it('words refusals in CLI flags: --force, --yes, --strict', async () => {
    const { pm, id } = await setUp();
    expect((await pm(['claim', id])).code).toBe(0);
    const taken = await pm(['claim', id], 'bob');
    expect(taken.code).toBe(4);
    expect(taken.stderr).toMatch(/; wait for the lease to expire, ask them to release it, or pass --force\n$/);
    refused(await pm(['release', id], 'bob'), 4, `${id} is claimed by alice, not bob; pass --force to release somebody else's claim`);
    const strict = await pm(['update', id, '--priority', '0', '--strict'], 'bob');
    expect(strict.code).toBe(4);
    expect(strict.stderr).toMatch(/; ask them; strict mode \(--strict, or strict: true in config.yaml\) refuses it; without it, it is a warning\n$/);
    const deleting = await pm(['delete', id]);
    expect(deleting.code).toBe(6);
    expect(deleting.stderr).toMatch(/This needs explicit consent: pass --yes \(-y\)\.\n$/);
    for (const run of [taken, strict, deleting]) expect(run.stderr).not.toMatch(/CLI:|force: true|strict option/);
  });
});
