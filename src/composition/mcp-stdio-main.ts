import { EXIT, PmError } from '../domain/errors/pm-error.js';
import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';
import type { McpServerApp } from './compose-server.js';
import type { Telemetry } from '../ports/telemetry.js';
import { composeStdioServer } from './compose-stdio.js';
import { createOtelTelemetry } from './otel-composition.js';
import { describeOtel, otelWanted } from './otel-settings.js';
import { osUser } from './os-user.js';
import { stderrLog } from './process-log.js';
import { packageInfo } from './package-info.js';
import { boundHeap } from './heap-growth.js';
import { settingsFromEnv } from './settings.js';
import { PM_MCP_USAGE, stdioCommandLine } from './stdio-command-line.js';

/** What a host embedding pm-mcp's entry point may add. */
export interface StdioMainOptions {
  /** Server extensions to register besides the built-in ones. */
  readonly extensions?: readonly PmMcpServerExtension[];
  /**
   * The command-line arguments to answer (`--help`, `--version`, anything else exits 2). The
   * bin passes its own; an embedding host that leaves it out keeps its arguments to itself.
   */
  readonly argv?: readonly string[];
}

const log = stderrLog('pm-mcp');

/**
 * pm-mcp: the MCP server over stdio (seed 004 "Transport behavior": a JSON-RPC/stdio adapter
 * over the SDK contracts). stdout carries only protocol messages; diagnostics go to stderr.
 * `--help` and `--version` are answered on stdout and exit 0 before anything is served; any
 * other argument exits 2 (stdio-command-line.ts).
 * Startup problems (no tracker: exit code 3; a bad PM_MCP_PROFILE or PM_MCP_TOOLS: 1) are
 * reported on stderr before anything is read. config.yaml is read by the dispatcher's prepare
 * hook once the first turn's input has been answered (server/discover does not need it; other
 * requests wait for it), and a file that cannot be used stops the server the same way (its
 * exit code, e.g. 7). On stdin EOF or SIGTERM, listen streams end gracefully, in-flight
 * requests finish, pending OpenTelemetry data is exported (when OTEL_* settings turn it on:
 * seed 004 "Removed, migrated, and deprecated behavior", remote operations use host
 * OpenTelemetry), and the process exits.
 */
export async function main(options: StdioMainOptions = {}): Promise<void> {
  const line = stdioCommandLine(options.argv ?? []);
  if (line.kind === 'help' || line.kind === 'version') {
    process.stdout.write(line.kind === 'help' ? PM_MCP_USAGE : `${packageInfo().version}\n`, () => process.exit(0));
    return;
  }
  if (line.kind === 'usage-error') {
    log.line(line.message);
    process.exit(EXIT.usage);
  }
  boundHeap('server');
  let app: McpServerApp;
  let telemetry: Telemetry | undefined;
  try {
    const settings = settingsFromEnv(process.env, process.cwd(), () => osUser());
    // Asked first: in the bundle, calling createOtelTelemetry loads the OpenTelemetry chunk
    // (scripts/build.mjs LAZY_CHUNKS), which a server without OTEL_* settings never needs.
    if (otelWanted(settings.otel)) {
      telemetry = await createOtelTelemetry(settings.otel, 'pm-mcp');
      log.line(`OpenTelemetry: ${describeOtel(settings.otel)}`);
    }
    app = await composeStdioServer(settings, { input: process.stdin, output: process.stdout }, { log, ...(options.extensions ? { extensions: options.extensions } : {}), ...(telemetry ? { telemetry } : {}) });
  } catch (error) {
    await telemetry?.shutdown().catch(() => undefined);
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
    // What the batch still holds is exported before the process goes (OTEL_BSP_EXPORT_TIMEOUT bounds it).
    await telemetry?.shutdown().catch((error: unknown) => log.error('OpenTelemetry shutdown', error));
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
