import type { PmMcpDispatcher } from '../domain/mcp/dispatcher.js';
import type { PmMcpServerDescriptor } from '../domain/mcp/server-descriptor.js';
import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';
import type { Tracker } from '../domain/tracker/tracker.js';
import type { Transport } from '../ports/transport.js';
import type { Telemetry } from '../ports/telemetry.js';
import type { McpUsageCounter } from '../domain/telemetry/usage-counter.js';
import type { ProcessLog } from './process-log.js';

/**
 * One compose function per process (the CLI, pm-mcp, pm-mcp-http), each in its own file so a
 * process loads only what it serves: each builds the process's whole graph in the container and
 * resolves its root services before anything is served, so nothing is bound later and every
 * failure of the graph (no tracker, a bad profile, bad authorization keys) happens before the
 * first request.
 */

/** A composed MCP server: the tracker, the dispatcher and the transport that will serve it. */
export interface McpServerApp<T extends Transport = Transport> {
  readonly tracker: Tracker;
  readonly server: PmMcpServerDescriptor;
  readonly dispatcher: PmMcpDispatcher;
  readonly transport: T;
  /** The per-era, revision and client request counts (logged as usage lines). */
  readonly usage: McpUsageCounter;
}

/** Options shared by the server compositions. */
export interface McpServerComposeOptions {
  readonly log: ProcessLog;
  /** Server extensions to register besides the built-in ones. */
  readonly extensions?: readonly PmMcpServerExtension[];
  /** OpenTelemetry, when the OTEL_* settings turned it on. */
  readonly telemetry?: Telemetry;
}
