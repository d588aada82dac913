#!/usr/bin/env node
// The floor for `npm run bench:mcp`: a bare newline-delimited JSON-RPC echo over stdio. It
// parses each line and answers every request with a fixed, pre-serialized result chosen by
// method (argv[2]: optional JSON file { "<method>": <result object> }; otherwise a small
// constant). No validation, no envelope, no handler: the least a stdio server can do.
// CommonJS, as pm's bins are: an ES module main costs node ~9 ms more to start.
'use strict';
const { readFileSync } = require('node:fs');

const byMethod = new Map();
if (process.argv[2]) {
  for (const [method, result] of Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')))) byMethod.set(method, JSON.stringify(result));
}
const fallback = JSON.stringify({ ok: true });
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    if (!line.trim()) continue;
    const message = JSON.parse(line);
    if (message.id === undefined) continue;
    process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${byMethod.get(message.method) ?? fallback}}\n`);
  }
});
