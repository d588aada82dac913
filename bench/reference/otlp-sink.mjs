#!/usr/bin/env node
// OTLP/HTTP receiver for `npm run bench:http`'s pm-traced server, on 127.0.0.1 (port 0): reads
// every POST body to the end and discards it, answering 200 with an empty JSON export response
// ({}, full success). It decodes nothing, so the CPU it takes on the benchmark's cores is the
// least a receiver on the same machine can cost; an operator's collector runs elsewhere. The
// benchmark reports this process's CPU time per traced request separately.
// Prints its base URL as the first stdout line.
import { createServer } from 'node:http';

const http = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
    res.end('{}');
  });
});
http.keepAliveTimeout = 60_000;
http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${http.address().port}\n`);
});
process.on('SIGTERM', () => { http.close(); process.exit(0); });
