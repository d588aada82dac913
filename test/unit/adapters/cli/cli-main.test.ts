import { readFileSync } from 'node:fs';
import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { describeFailure, main } from '../../../../src/composition/cli-main.js';
import { SettingsError } from '../../../../src/composition/settings.js';
import { ConsentRequiredError, NotFoundError, StaleRevisionError } from '../../../../src/domain/errors/index.js';
import { FakeCliIo } from '../../../support/fake-cli-io.js';

const version = (JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('describeFailure (the one error mapper)', () => {
  it('uses the exit code and JSON-RPC error of typed errors', () => {
    expect(describeFailure(new NotFoundError('no item pm-abc', { itemId: 'pm-abc' }))).toEqual({
      exitCode: 3,
      message: 'no item pm-abc',
      json: { error: { code: -32602, reason: 'not_found', message: 'no item pm-abc', data: { reason: 'not_found', itemId: 'pm-abc' } } },
    });
    expect(describeFailure(new StaleRevisionError('stale')).exitCode).toBe(4);
    expect(describeFailure(new ConsentRequiredError('consent')).json.error).toMatchObject({ code: -31052, reason: 'consent_required' });
  });

  it('points usage errors at the right help', () => {
    const failure = describeFailure(new UsageError('missing <id>', 'get'));
    expect(failure.exitCode).toBe(2);
    expect(failure.message).toBe("missing <id> (see 'pm get --help')");
    expect(failure.json.error).toEqual({ code: -32602, reason: 'usage', message: 'missing <id>', data: { reason: 'usage', hint: 'pm get --help' } });
  });

  it('treats bad settings as usage errors and anything else as exit 1', () => {
    expect(describeFailure(new SettingsError('invalid configuration: lockTimeoutMs')).exitCode).toBe(2);
    expect(describeFailure(new Error('boom'))).toMatchObject({ exitCode: 1, message: 'boom', json: { error: { code: -32603, reason: 'internal_error' } } });
    expect(describeFailure('thrown string').message).toBe('thrown string');
    // A native module's load error says what to do on its last lines: none of it is cut.
    const abi = new Error("The module '/x/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. Please try re-compiling");
    expect(describeFailure(abi).message).toBe("The module '/x/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. Please try re-compiling");
  });
});

describe('main', () => {
  const run = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const io = new FakeCliIo();
    const code = await main(argv, { io, env, cwd: '/nonexistent-pm-test-dir' });
    return { code, io };
  };

  it('prints the package version and help without a tracker', async () => {
    expect((await run(['--version'])).io.stdout).toBe(`${version}\n`);
    const help = await run(['list', '-h']);
    expect(help.code).toBe(0);
    expect(help.io.stdout).toMatch(/^Usage: pm list \[options\]/);
  });

  it('reports errors on stderr with a pm: prefix, or as JSON with --json', async () => {
    const human = await run(['frobnicate']);
    expect(human.code).toBe(2);
    expect(human.io.stdout).toBe('');
    expect(human.io.stderr).toBe("pm: unknown command 'frobnicate' (see 'pm --help')\n");
    const json = await run(['get', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.io.stderr)).toEqual({ error: { code: -32602, reason: 'usage', message: 'missing <id>', data: { reason: 'usage', hint: 'pm get --help' } } });
  });

  it('exits 3 when there is no tracker, 2 on bad settings, with a stack only under PM_DEBUG=1', async () => {
    const missing = await run(['list']);
    expect(missing.code).toBe(3);
    expect(missing.io.stderr).toBe("pm: no tracker found in /nonexistent-pm-test-dir or any parent directory; run 'pm init' to create one\n");
    const bad = await run(['list'], { PM_LOCK_TIMEOUT_MS: 'soon' });
    expect(bad.code).toBe(2);
    expect(bad.io.stderr).toMatch(/^pm: invalid configuration: PM_LOCK_TIMEOUT_MS \(lockTimeoutMs\)/);
    expect(bad.io.stderr).not.toContain('    at ');
    const debug = await run(['list'], { PM_DEBUG: '1' });
    expect(debug.io.stderr).toMatch(/^pm: no tracker found.*\nTrackerNotFoundError: .*\n    at /s);
  });
});
