// Removes the run's temp directory made by test/support/global-setup.js (code caches of the
// spawned bins). Only a directory the setup created under the OS temp dir is removed.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';

export default async function globalTeardown() {
  const runDir = process.env.PM_TEST_RUN_DIR;
  if (!runDir || dirname(resolve(runDir)) !== resolve(tmpdir()) || !basename(runDir).startsWith('pm-test-run-')) return;
  rmSync(runDir, { recursive: true, force: true });
}
