// Runs once per jest run, in the parent process, before any test worker starts.
// 1. Integration tests run the real binaries, which load dist/: build it once per run.
// 2. Tests write nothing outside temp dirs: one temp directory for the whole run holds the V8
//    code caches of every spawned `pm`, `pm-mcp` and `pm-mcp-http` (bin/bundle-loader.cjs
//    writes to $PM_COMPILE_CACHE_DIR, else $XDG_CACHE_HOME/pm, else ~/.cache/pm) and anything
//    else that honours XDG_CACHE_HOME. The variables are set in process.env here, so the
//    workers and every child they spawn inherit them; test/support/global-teardown.js removes
//    the directory.
// 3. No spawned `pm` starts an index watcher that would outlive its test; the watcher's own
//    tests turn it on for the processes they start and stop it by pid or `pm index stop`.
// 4. What the tests need beyond npm's packages is provisioned here, once (scripts/provision.mjs):
//    nginx, PostgreSQL, bash-completion, zsh and fish from Debian's packages, Node 22 and 24 and Bun into .tools/. What
//    cannot be provisioned stops the run at once, saying what to install and how; the variables
//    it returns (PM_NGINX, PM_TEST_PG_BIN, PM_TEST_SHELLS, PM_TEST_NODE22, PM_TEST_NODE24, PM_TEST_BUN) point the
//    tests at them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../../scripts/build.mjs';
import { provision } from '../../scripts/provision.mjs';

export default async function globalSetup() {
  const runDir = mkdtempSync(join(tmpdir(), 'pm-test-run-'));
  process.env.PM_TEST_RUN_DIR = runDir;
  process.env.PM_COMPILE_CACHE_DIR = join(runDir, 'compile-cache');
  process.env.XDG_CACHE_HOME = join(runDir, 'xdg-cache');
  process.env.PM_INDEX_WATCHER = 'off';
  Object.assign(process.env, provision());
  await build();
}
