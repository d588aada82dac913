#!/usr/bin/env node
// The `pm` CLI. Runs the bundle dist/bundle/pm.cjs with a code cache (bin/bundle-loader.cjs), or
// the compiled sources in dist/ when there is no bundle (both built by `npm install` via the
// prepare script, or by `node scripts/build.mjs`); src/composition/cli-main.ts is the entry point.
// CommonJS, like the loader, so a start does not pay for node's ES module loader.
'use strict';
const { failBin, loadMain } = require('./bundle-loader.cjs');

// A reader that stops early (`pm list | head -1`) is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

loadMain('pm', 'pm.cjs', 'composition/cli-main.js', 'one-shot')
  // The launcher lets a query start the tracker's index watcher as this very pm.
  .then((main) => main(process.argv.slice(2), { watcherLauncher: [process.execPath, __filename] }))
  .then((code) => process.exit(code))
  .catch(failBin('pm'));
