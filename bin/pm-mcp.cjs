#!/usr/bin/env node
// pm-mcp: the MCP server over stdio. Runs the bundle dist/bundle/pm-mcp.cjs with a code cache
// (bin/bundle-loader.cjs), or the compiled sources in dist/ when there is no bundle (both built on
// install by the prepare script); src/composition/mcp-stdio-main.ts is the entry point. CommonJS,
// like the loader, so a start does not pay for node's ES module loader (a stdio host starts
// pm-mcp for every session).
'use strict';
const { failBin, loadMain } = require('./bundle-loader.cjs');

loadMain('pm-mcp', 'pm-mcp.cjs', 'composition/mcp-stdio-main.js', 'server')
  .then((main) => main({ argv: process.argv.slice(2) }))
  .catch(failBin('pm-mcp'));
