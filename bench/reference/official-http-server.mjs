#!/usr/bin/env node
// Reference server for `npm run bench:http`: the official MCP TypeScript SDK v2
// (@modelcontextprotocol/server, devDependency) over sessionless Streamable HTTP, 2026-07-28
// (createMcpHandler, legacy: 'reject'), hosted on plain node:http on 127.0.0.1 (port 0). argv[2]
// is the JSON file the bench writes: { tools: <pm's tools/list entries>, callResult: <a
// CallToolResult> }. The tools are registered exactly as in official-server.mjs (the stdio
// reference): pm's names, titles, descriptions, annotations and JSON Schemas, every handler
// returning a constant copy of pm's pm_get result. The SDK builds a fresh McpServer per request
// (its documented stateless idiom); the JSON Schemas are converted once, up front.
// @modelcontextprotocol/node (toNodeHandler) is not installed, so the node:http ↔ fetch bridge
// below is the minimal equivalent: read the body, build a Request, write the Response back.
// Prints the endpoint URL as the first stdout line.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';

const { tools, callResult } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const configs = tools.map((tool) => [tool.name, {
  ...(tool.title !== undefined ? { title: tool.title } : {}),
  description: tool.description,
  inputSchema: fromJsonSchema(tool.inputSchema),
  ...(tool.outputSchema !== undefined ? { outputSchema: fromJsonSchema(tool.outputSchema) } : {}),
  ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
}]);

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'reference', version: '2.4.0' }, { capabilities: { tools: {} } });
  for (const [name, config] of configs) server.registerTool(name, config, async () => callResult);
  return server;
}, { legacy: 'reject' });

const http = createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      ...(body.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? { body } : {}),
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(error?.stack ?? error));
  }
});
http.keepAliveTimeout = 60_000;
http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
});
process.on('SIGTERM', () => { http.close(); handler.close().finally(() => process.exit(0)); });
