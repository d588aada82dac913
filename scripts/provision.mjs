// What `npm test` needs beyond npm's own packages, provisioned once per test run by jest's global
// setup (test/support/global-setup.js) and by .ci/run, so the README's two commands are the whole
// set-up on a fresh machine:
// - nginx and PostgreSQL, from Debian's packages (scripts/install-nginx.sh, install-postgres.sh:
//   apt-get as root or through password-less sudo) for the scale-out tests;
// - bash-completion, zsh and fish, from Debian's packages (scripts/install-shells.sh), to drive
//   `pm completion` in each shell (PM_TEST_SHELLS: the three shells' paths);
// - .tools/ from the npm registry (scripts/tools.mjs): Node 22 and 24, to run pm under every
//   supported Node, and Bun.
// Whatever cannot be provisioned stops the run at once with one message naming each missing
// piece and how to install it; no test is skipped for want of it. Prints one line per piece.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTools, NODE_MAJORS } from './tools.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** Runs one of the install scripts; returns its exit status and output. */
function runScript(script) {
  const result = spawnSync('bash', [join(here, script)], { encoding: 'utf8', cwd: resolve(here, '..'), maxBuffer: 16 * 1024 * 1024 });
  return { status: result.status ?? 1, stdout: result.stdout ?? '', stderr: `${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
}

/** The value an install script printed as its last `<label>: <value>` line. */
function printed(stdout, label) {
  const lines = stdout.split('\n').filter((line) => line.startsWith(`${label}: `));
  return lines.at(-1)?.slice(label.length + 2).split(' (')[0];
}

/** Thrown when something the tests need could not be provisioned; the message says what and how. */
export class ProvisionError extends Error {}

/**
 * Makes nginx, PostgreSQL's binaries and .tools/ available and returns the environment that
 * points the tests at them (PM_NGINX, PM_TEST_PG_BIN, PM_TEST_SHELLS, PM_TEST_NODE22,
 * PM_TEST_NODE24, PM_TEST_BUN). `run` and `tools` are the install steps (replaced in tests).
 */
export function provision({ log = (line) => process.stderr.write(`${line}\n`), run = runScript, tools = () => ensureTools(log) } = {}) {
  const env = {};
  const missing = [];
  const service = (name, script, label, variable, how) => {
    const result = run(script);
    const value = result.status === 0 ? printed(result.stdout, label) : undefined;
    if (value) {
      env[variable] = value;
      log(`provision: ${name}: ${value}`);
    } else missing.push(`${name}: ${(result.stderr.trim() || result.stdout.trim()).split('\n').at(-1) || `scripts/${script} failed`}\n    ${how}`);
  };
  service('nginx', 'install-nginx.sh', 'nginx', 'PM_NGINX', "as root: apt-get update && apt-get install -y nginx-light, or set PM_NGINX to an nginx binary");
  service('PostgreSQL', 'install-postgres.sh', 'postgresql', 'PM_TEST_PG_BIN', "as root: apt-get update && apt-get install -y postgresql, or set PM_TEST_PG_BIN to the directory holding initdb, pg_ctl and postgres");
  service('shells', 'install-shells.sh', 'shells', 'PM_TEST_SHELLS', 'as root: apt-get update && apt-get install -y bash-completion zsh fish');
  try {
    const installed = tools();
    for (const major of NODE_MAJORS) env[`PM_TEST_NODE${major}`] = installed.nodes[major].path;
    env.PM_TEST_BUN = installed.bun.path;
    log(`provision: ${NODE_MAJORS.map((major) => `Node ${installed.nodes[major].version}`).join(', ')}, Bun ${installed.bun.version} (.tools/)`);
  } catch (error) {
    missing.push(`Node ${NODE_MAJORS.join(' and ')} and Bun in .tools/: ${String(error?.message ?? error).split('\n')[0]}\n    they come from the npm registry: check that npm can reach it, then run npm run tools`);
  }
  if (missing.length > 0) throw new ProvisionError(`the tests need what could not be provisioned on this machine:\n  - ${missing.join('\n  - ')}`);
  return env;
}

// `node scripts/provision.mjs`: provision and print the environment (.ci/run runs it before the tests).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(JSON.stringify(provision(), null, 2));
  } catch (error) {
    process.stderr.write(`provision: ${error.message}\n`);
    process.exit(1);
  }
}
