/**
 * The test run's provisioning (scripts/provision.mjs, called by jest's global setup): what the
 * tests need beyond npm's packages is installed or found, and what cannot be stops the run at
 * once with one message naming each missing piece and how to install it.
 */
import { provision, ProvisionError, type ScriptRun } from '../../../scripts/provision.mjs';

const ok = (stdout: string): ScriptRun => ({ status: 0, stdout, stderr: '' });
const tools = () => ({ nodes: { 22: { path: '/t/node22', version: 'v22.23.5' }, 24: { path: '/t/node24', version: 'v24.22.3' } }, bun: { path: '/t/bun', version: '1.4.5' } });
const scripts = (overrides: Record<string, ScriptRun> = {}) => (script: string) =>
  overrides[script] ?? { 'install-nginx.sh': ok('nginx: /usr/sbin/nginx (nginx version: nginx/1.22.1)\n'), 'install-postgres.sh': ok('postgresql: /usr/lib/postgresql/15/bin\n'), 'install-shells.sh': ok('shells: /usr/bin/bash /usr/bin/zsh /usr/bin/fish\n') }[script]!;

describe('provision', () => {
  it('returns the variables that point the tests at nginx, PostgreSQL and the tool Nodes, one line each', () => {
    const lines: string[] = [];
    expect(provision({ log: (line) => lines.push(line), run: scripts(), tools })).toEqual({
      PM_NGINX: '/usr/sbin/nginx',
      PM_TEST_PG_BIN: '/usr/lib/postgresql/15/bin',
      PM_TEST_SHELLS: '/usr/bin/bash /usr/bin/zsh /usr/bin/fish',
      PM_TEST_NODE22: '/t/node22',
      PM_TEST_NODE24: '/t/node24',
      PM_TEST_BUN: '/t/bun',
    });
    expect(lines).toEqual(['provision: nginx: /usr/sbin/nginx', 'provision: PostgreSQL: /usr/lib/postgresql/15/bin', 'provision: shells: /usr/bin/bash /usr/bin/zsh /usr/bin/fish', 'provision: Node v22.23.5, Node v24.22.3, Bun 1.4.5 (.tools/)']);
  });

  it('names every piece it could not provide, with what the installer said and how to install it by hand', () => {
    const run = scripts({
      'install-nginx.sh': { status: 1, stdout: '', stderr: 'install-nginx: installing the Debian package needs root (or password-less sudo); run: apt-get install -y nginx-light\n' },
      'install-postgres.sh': { status: 0, stdout: 'nothing useful\n', stderr: '' },
    });
    const failing = () => {
      throw new Error('npm install --prefix .tools exited 1\nnpm error code E404');
    };
    let error: unknown;
    try {
      provision({ log: () => undefined, run, tools: failing });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ProvisionError);
    expect((error as Error).message.split('\n')).toEqual([
      'the tests need what could not be provisioned on this machine:',
      '  - nginx: install-nginx: installing the Debian package needs root (or password-less sudo); run: apt-get install -y nginx-light',
      '    as root: apt-get update && apt-get install -y nginx-light, or set PM_NGINX to an nginx binary',
      '  - PostgreSQL: nothing useful',
      '    as root: apt-get update && apt-get install -y postgresql, or set PM_TEST_PG_BIN to the directory holding initdb, pg_ctl and postgres',
      '  - Node 22 and 24 and Bun in .tools/: npm install --prefix .tools exited 1',
      '    they come from the npm registry: check that npm can reach it, then run npm run tools',
    ]);
  });
});
