#!/usr/bin/env node
// pm-mcp-http: the MCP server over sessionless Streamable HTTP (`npm start`). Runs the compiled
// sources in dist/ (built on install by the prepare script); src/composition/mcp-http-main.ts is
// the entry point.
let main;
try {
  ({ main } = await import('../dist/composition/mcp-http-main.js'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/')) throw error;
  process.stderr.write('pm-mcp-http: dist/ is missing or incomplete; run `npm install` or `node scripts/build.mjs` first\n');
  process.exit(1);
}
await main();
