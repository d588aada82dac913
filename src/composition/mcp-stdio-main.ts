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
 * Startup problems (no tracker: exit code 3; a bad PM_MCP_PROFILE or PM_MCP_TOOLS: 1) are
 * reported on stderr before anything is read. config.yaml is read once the first turn's input has
 * been answered (server/discover does not need it; other requests wait for it), and a file that
 * cannot be used stops the server the same way (its exit code, e.g. 7). On stdin EOF or
 * SIGTERM, listen streams end gracefully, in-flight requests finish, and the process exits.
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
    exitOnStartupError(error);
  }
  const transport = new StdioTransport(process.stdin, process.stdout);
  const connection = dispatcher.connect();
  const pending = new Set<Promise<void>>();
  await transport.start((frame, facts, sink) => {
    const work = connection.handleFrame(frame, facts, sink).finally(() => pending.delete(work));
    pending.add(work);
  });
  // Two check phases: the first turn's stdin data is read and its responses flushed first.
  const configChecked = new Promise((resolve) => setImmediate(() => setImmediate(resolve))).then(() => tracker.ready());
  configChecked.catch(exitOnStartupError);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await configChecked.catch(() => undefined); // a bad config.yaml exits with its own code
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

function exitOnStartupError(error: unknown): never {
  process.stderr.write(`pm-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof PmError ? error.exitCode : 1);
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
