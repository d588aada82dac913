import { userInfo } from 'node:os';
import { StdioTransport } from '../adapters/node/stdio-transport.js';
import type { PmMcpDispatcher } from '../domain/mcp/dispatcher.js';
import type { PmMcpSubscriptionRegistry } from '../domain/mcp/subscriptions/subscription-registry.js';
import { PmError } from '../domain/errors/pm-error.js';
import type { Tracker } from '../domain/tracker/tracker.js';
import { buildContainer } from './container.js';
import { IDS } from './service-ids.js';
import { settingsFromEnv } from './settings.js';

/**
 * pm-mcp: the MCP server over stdio (seed 004 "Transport behavior": a JSON-RPC/stdio adapter
 * over the SDK contracts). stdout carries only protocol messages; diagnostics go to stderr.
 * Startup problems (no tracker, a bad PM_MCP_PROFILE or PM_MCP_TOOLS) are reported on stderr
 * with exit code 1 before anything is read. On stdin EOF or SIGTERM, listen streams end
 * gracefully, in-flight requests finish, and the process exits.
 */
export async function main(): Promise<void> {
  let dispatcher: PmMcpDispatcher;
  let subscriptions: PmMcpSubscriptionRegistry;
  let tracker: Tracker;
  try {
    const settings = settingsFromEnv(process.env, process.cwd(), safeUser);
    const container = await buildContainer(settings, 'node');
    tracker = await container.getAsync(IDS.Tracker);
    subscriptions = await container.getAsync(IDS.McpSubscriptions);
    dispatcher = await container.getAsync(IDS.McpDispatcher);
  } catch (error) {
    process.stderr.write(`pm-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof PmError ? error.exitCode : 1);
  }
  const transport = new StdioTransport(process.stdin, process.stdout);
  const connection = dispatcher.connect();
  const pending = new Set<Promise<void>>();
  await transport.start((frame, facts, sink) => {
    const work = connection.handleFrame(frame, facts, sink).finally(() => pending.delete(work));
    pending.add(work);
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    subscriptions.shutdown();
    await Promise.allSettled([...pending]);
    await transport.close();
    await tracker.dispose();
    process.stdout.write('', () => process.exit(0));
  };
  process.stdin.on('end', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
