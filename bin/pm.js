#!/usr/bin/env node
// The `pm` CLI. Runs the compiled sources in dist/ (built by `npm install` via the prepare
// script, or by `node scripts/build.mjs`); src/composition/cli-main.ts is the entry point.
let main;
try {
  ({ main } = await import('../dist/bundle/pm.mjs').catch((error) => {
    // No bundle (built without devDependencies): run the unbundled compiled sources.
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('/dist/bundle/')) return import('../dist/composition/cli-main.js');
    throw error;
  }));
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
