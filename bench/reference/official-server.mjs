#!/usr/bin/env node
// Reference server for `npm run bench:mcp` and `npm run bench:tokens`: the official MCP
// TypeScript SDK v2 (@modelcontextprotocol/server, devDependency) over stdio, serving the SAME
// tool list as the pm-mcp profile under test. argv[2] is a JSON file written by the bench at
// start-up: { tools: <pm's tools/list entries>, callResult?: <a CallToolResult body>,
// tracker?: { root, actor } }. Each tool is registered with pm's name, title, description,
// annotations and JSON Schemas (input and output, via the SDK's fromJsonSchema).
//   bench:mcp      every handler returns the same constant CallToolResult (a copy of pm's own
//                  pm_get result), so list and call payloads match pm's;
//   bench:tokens   (`tracker` given) every handler runs pm's own tool over that tracker and
//                  answers the way the SDK documents structured results: the JSON text of
//                  structuredContent in a text block beside it, failures as isError text.
import { readFileSync } from 'node:fs';
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const { tools, callResult, tracker } = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** pm's tool definitions over the tracker at `tracker.root` (bench:tokens only). */
async function trackerHandlers() {
  const [{ buildContainer }, { IDS }, { settingsFromEnv }, { createPmTrackerTools, pmTrackerToolDeps }] = await Promise.all([
    import('../../dist/composition/container.js'),
    import('../../dist/composition/service-ids.js'),
    import('../../dist/composition/settings.js'),
    import('../../dist/domain/mcp-tracker/index.js'),
  ]);
  const container = await buildContainer(settingsFromEnv({ PM_ROOT: tracker.root, PM_ACTOR: tracker.actor }, tracker.root, 'official-reference'));
  const opened = await container.getAsync(IDS.Tracker);
  await opened.ready();
  const definitions = createPmTrackerTools(pmTrackerToolDeps({ tracker: opened, defaultActor: tracker.actor }), tools.map((t) => t.name));
  const ctx = { principal: undefined, clientInfo: undefined };
  return new Map(definitions.map((tool) => [tool.name, async (args) => {
    const parsed = tool.args.safeParse(args ?? {});
    if (!parsed.success) return { content: [{ type: 'text', text: parsed.error.message }], isError: true };
    try {
      const output = await tool.handler(parsed.data, ctx);
      return { content: [{ type: 'text', text: JSON.stringify(output.structuredContent) }], structuredContent: output.structuredContent };
    } catch (error) {
      return { content: [{ type: 'text', text: error.message }], isError: true };
    }
  }]));
}

const handlers = tracker ? await trackerHandlers() : undefined;

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
      handlers ? (args) => handlers.get(tool.name)(args) : async () => callResult,
    );
  }
  return server;
});
