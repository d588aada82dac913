#!/usr/bin/env node
// pm-mcp: the MCP server over stdio. Runs the compiled sources in dist/ (built on install by
// the prepare script); src/composition/mcp-stdio-main.ts is the entry point.
let main;
try {
  ({ main } = await import('../dist/bundle/pm-mcp.mjs').catch((error) => {
    // No bundle (built without devDependencies): run the unbundled compiled sources.
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('/dist/bundle/')) return import('../dist/composition/mcp-stdio-main.js');
    throw error;
  }));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/')) throw error;
  process.stderr.write('pm-mcp: dist/ is missing or incomplete; run `npm install` or `node scripts/build.mjs` first\n');
  process.exit(1);
}
await main();
