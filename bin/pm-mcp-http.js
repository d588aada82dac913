#!/usr/bin/env node
// pm-mcp-http: the MCP server over sessionless Streamable HTTP (`npm start`). Runs the compiled
// sources in dist/ (built on install by the prepare script); src/composition/mcp-http-main.ts is
// the entry point.
let main;
// PM_DEBUG=1: stack traces name src/*.ts lines through dist/**/*.js.map (scripts/build.mjs).
if (process.env.PM_DEBUG === '1') process.setSourceMapsEnabled(true);
try {
  ({ main } = await import('../dist/composition/mcp-http-main.js'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/')) throw error;
  process.stderr.write('pm-mcp-http: dist/ is missing or incomplete; run `npm install` or `node scripts/build.mjs` first\n');
  process.exit(1);
}
await main();
