#!/usr/bin/env node
// pm-mcp: the MCP server over stdio. Runs the bundle dist/bundle/pm-mcp.cjs with a code cache
// (bin/bundle-loader.js), or the compiled sources in dist/ when there is no bundle (both built on
// install by the prepare script); src/composition/mcp-stdio-main.ts is the entry point.
import { fileURLToPath } from 'node:url';
import { loadBundle } from './bundle-loader.js';

let main;
try {
  ({ main } = loadBundle(fileURLToPath(new URL('../dist/bundle/pm-mcp.cjs', import.meta.url))) ?? (await import('../dist/composition/mcp-stdio-main.js')));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/')) throw error;
  process.stderr.write('pm-mcp: dist/ is missing or incomplete; run `npm install` or `node scripts/build.mjs` first\n');
  process.exit(1);
}
await main();
