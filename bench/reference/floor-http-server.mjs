#!/usr/bin/env node
// Floor for `npm run bench:http`: a bare node:http JSON-RPC responder on 127.0.0.1 (port 0).
// Reads the whole POST body, JSON.parses it, and answers every request with one fixed small
// result ({ resultType: 'complete' }) as application/json; no validation, no dispatch. This is
// what node:http plus one parse and one serialization cost per request on this machine.
// Prints the endpoint URL as the first stdout line.
import { createServer } from 'node:http';

const http = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let id = null;
    try {
      id = JSON.parse(Buffer.concat(chunks).toString('utf8')).id ?? null;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
      return;
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete' } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
http.keepAliveTimeout = 60_000;
http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
});
process.on('SIGTERM', () => { http.close(); process.exit(0); });
