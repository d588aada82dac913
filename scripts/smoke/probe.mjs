// The in-process side of smoke:mcp's agreement gate, run by node AND by bun: composes pm-mcp's
// server graph from a package's compiled sources (dist/) inside this process and records
//   - the SDK primitive: buildMcpDiscoverResult() of the public SDK called directly on the
//     composed server description (its identity, capabilities, instructions and TTL);
//   - the dispatcher: server/discover and one legacy initialize per declared revision (each on a
//     fresh connection, as a fresh stdio process would be), frames handed straight to the
//     dispatcher with stdio transport facts.
// Prints one JSON line { runtime, sdk: { discover }, dispatcher: { discover, initialize } }.
//
// Usage: <node|bun> scripts/smoke/probe.mjs <package root> <tracker dir> <revision>...
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [packageRoot, project, ...revisions] = process.argv.slice(2);
if (!packageRoot || !project || !revisions.length) {
  process.stderr.write('usage: probe.mjs <package root> <tracker dir> <revision>...\n');
  process.exit(2);
}
const load = (path) => import(pathToFileURL(join(packageRoot, 'dist', path)).href);

const CLIENT_INFO = { name: 'pm-smoke-mcp', version: '1.0.0' };

/** Sends one request on `connection` and resolves with its response (the first message with its id). */
function request(connection, id, method, params) {
  return new Promise((resolve, reject) => {
    const sink = {
      send(message) {
        // An OutboundMessage: its `text` is the JSON-RPC message as it would go on the wire.
        if (message.kind === 'notification') return;
        const value = JSON.parse(message.text);
        if (value?.id === id) resolve(value);
      },
    };
    connection.dispatch(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }), { facts: { kind: 'stdio' }, sink }).catch(reject);
  });
}

const resultOf = (label, response) => {
  if (!response.result) throw new Error(`${label}: ${JSON.stringify(response.error)}`);
  return response.result;
};

async function main() {
  process.chdir(project);
  const [sdk, { composeStdioServer }, { settingsFromEnv }, { osUser }, { stderrLog }] = await Promise.all([
    load('sdk/index.js'),
    load('composition/compose-stdio.js'),
    load('composition/settings.js'),
    load('composition/os-user.js'),
    load('composition/process-log.js'),
  ]);
  const settings = settingsFromEnv(process.env, process.cwd(), () => osUser());
  const app = await composeStdioServer(settings, { input: new PassThrough(), output: new PassThrough() }, { log: stderrLog('pm-smoke-probe') });
  const { server, dispatcher, tracker } = app;
  await dispatcher.prepare();

  const direct = sdk.buildMcpDiscoverResult({ serverInfo: server.serverInfo, capabilities: server.capabilities, instructions: server.instructions, ttlMs: server.discoverTtlMs });

  const meta = { 'io.modelcontextprotocol/protocolVersion': sdk.PM_MCP_PROTOCOL_VERSION, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO };
  const discover = resultOf('server/discover', await request(dispatcher.connect(), 1, 'server/discover', { _meta: meta }));
  const initialize = {};
  for (const revision of revisions) {
    const init = await request(dispatcher.connect(), 1, 'initialize', { protocolVersion: revision, capabilities: {}, clientInfo: CLIENT_INFO });
    initialize[revision] = resultOf(`initialize ${revision}`, init);
  }
  await tracker.dispose();
  const runtime = process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.version}`;
  process.stdout.write(`${JSON.stringify({ runtime, sdk: { discover: direct }, dispatcher: { discover, initialize } })}\n`, () => process.exit(0));
}

main().catch((error) => {
  process.stderr.write(`probe: ${error?.stack ?? error}\n`);
  process.exit(1);
});
