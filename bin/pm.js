#!/usr/bin/env node
// The `pm` CLI. Runs the bundle dist/bundle/pm.cjs with a code cache (bin/bundle-loader.js), or
// the compiled sources in dist/ when there is no bundle (both built by `npm install` via the
// prepare script, or by `node scripts/build.mjs`); src/composition/cli-main.ts is the entry point.
import { fileURLToPath } from 'node:url';
import { loadBundle } from './bundle-loader.js';

let main;
try {
  ({ main } = loadBundle(fileURLToPath(new URL('../dist/bundle/pm.cjs', import.meta.url))) ?? (await import('../dist/composition/cli-main.js')));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/')) throw error;
  process.stderr.write('pm: dist/ is missing or incomplete; run `npm install` or `node scripts/build.mjs` first\n');
  process.exit(1);
}

// A reader that stops early (`pm list | head -1`) is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exit(await main(process.argv.slice(2)));
