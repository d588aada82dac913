import { ContainerModule } from 'inversify';
import type { Readable, Writable } from 'node:stream';
import { StdioTransport } from '../adapters/node/stdio-transport.js';
import type { McpServerApp, McpServerComposeOptions } from './compose-server.js';
import { buildContainer } from './container.js';
import { IDS } from './service-ids.js';
import type { Settings } from './settings.js';

/** pm-mcp's transport: newline-delimited JSON-RPC over the given streams (the process's stdin and stdout). */
export function stdioTransportModule(input: Readable, output: Writable): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(IDS.Transport).toResolvedValue(() => new StdioTransport(input, output)).inSingletonScope();
  });
}

/** pm-mcp's graph over `input`/`output` (see compose-server.ts). */
export async function composeStdioServer(settings: Settings, streams: { readonly input: Readable; readonly output: Writable }, options: McpServerComposeOptions): Promise<McpServerApp> {
  const container = await buildContainer(settings, 'node', {
    index: { follow: 'watch' },
    log: options.log,
    ...(options.extensions ? { extensions: options.extensions } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    modules: [stdioTransportModule(streams.input, streams.output)],
  });
  return {
    tracker: await container.getAsync(IDS.Tracker),
    server: await container.getAsync(IDS.McpServer),
    dispatcher: await container.getAsync(IDS.McpDispatcher),
    usage: await container.getAsync(IDS.McpUsage),
    transport: await container.getAsync(IDS.Transport),
  };
}
