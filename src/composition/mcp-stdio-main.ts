import { PmError } from '../domain/errors/pm-error.js';
import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';
import type { McpServerApp } from './compose-server.js';
import { composeStdioServer } from './compose-stdio.js';
import { osUser } from './os-user.js';
import { stderrLog } from './process-log.js';
import { settingsFromEnv } from './settings.js';

/** What a host embedding pm-mcp's entry point may add. */
export interface StdioMainOptions {
  /** Server extensions to register besides the built-in ones. */
  readonly extensions?: readonly PmMcpServerExtension[];
}

const log = stderrLog('pm-mcp');

/**
 * pm-mcp: the MCP server over stdio (seed 004 "Transport behavior": a JSON-RPC/stdio adapter
 * over the SDK contracts). stdout carries only protocol messages; diagnostics go to stderr.
 * Startup problems (no tracker: exit code 3; a bad PM_MCP_PROFILE or PM_MCP_TOOLS: 1) are
 * reported on stderr before anything is read. config.yaml is read by the dispatcher's prepare
 * hook once the first turn's input has been answered (server/discover does not need it; other
 * requests wait for it), and a file that cannot be used stops the server the same way (its
 * exit code, e.g. 7). On stdin EOF or SIGTERM, listen streams end gracefully, in-flight
 * requests finish, and the process exits.
 */
export async function main(options: StdioMainOptions = {}): Promise<void> {
  let app: McpServerApp;
  try {
    const settings = settingsFromEnv(process.env, process.cwd(), () => osUser());
    app = await composeStdioServer(settings, { input: process.stdin, output: process.stdout }, { log, ...(options.extensions ? { extensions: options.extensions } : {}) });
  } catch (error) {
    exitOnStartupError(error);
  }
  const { dispatcher, transport, tracker } = app;
  await transport.start(dispatcher);
  // Two check phases: the first turn's stdin data is read and its responses flushed first.
  const prepared = new Promise((resolve) => setImmediate(() => setImmediate(resolve))).then(() => dispatcher.prepare());
  prepared.catch(exitOnStartupError);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await prepared.catch(() => undefined); // a bad config.yaml exits with its own code
    await transport.close();
    await tracker.dispose();
    process.stdout.write('', () => process.exit(0));
  };
  process.stdin.on('end', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

function exitOnStartupError(error: unknown): never {
  log.line(error instanceof Error ? error.message : String(error));
  process.exit(error instanceof PmError ? error.exitCode : 1);
}
