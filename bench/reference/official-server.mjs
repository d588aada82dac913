#!/usr/bin/env node
// Reference server for `npm run bench:mcp`: the official MCP TypeScript SDK v2
// (@modelcontextprotocol/server, devDependency) over stdio, serving the SAME tool list as the
// pm-mcp profile under test. argv[2] is a JSON file written by the bench at start-up:
// { tools: <pm's tools/list entries>, callResult: <a CallToolResult body> }. Each tool is
// registered with pm's name, title, description, annotations and JSON Schemas (input and
// output, via the SDK's fromJsonSchema), and every handler returns the same constant
// CallToolResult (a copy of pm's own pm_get result), so list and call payloads match pm's.
import { readFileSync } from 'node:fs';
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const { tools, callResult } = JSON.parse(readFileSync(process.argv[2], 'utf8'));

serveStdio(() => {
  const server = new McpServer({ name: 'reference', version: '2.4.0' }, { capabilities: { tools: {} } });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        description: tool.description,
        inputSchema: fromJsonSchema(tool.inputSchema),
        ...(tool.outputSchema !== undefined ? { outputSchema: fromJsonSchema(tool.outputSchema) } : {}),
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      },
      async () => callResult,
    );
  }
  return server;
});
