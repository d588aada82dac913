import type { MessageSink } from '../../ports/message-sink.js';
import { outboundJsonRpcNotification } from './json-rpc.js';
import { MCP_LOG_LEVELS, type McpLogLevel } from './protocol.js';

/**
 * Request-scoped notifications (2026-07-28 `basic/patterns/progress`, `server/utilities/logging`):
 * progress only when the request carried `_meta.progressToken`, log messages only when it set
 * `io.modelcontextprotocol/logLevel` (and the server advertises `logging`). Both travel on the
 * request's own channel and stop for good once the request completes or is cancelled.
 */
export interface McpRequestNotifier {
  /** True when the request asked for progress notifications. */
  readonly progressEnabled: boolean;
  /** True when a log message at `level` would be delivered. */
  logEnabled(level: McpLogLevel): boolean;
  /** Sends `notifications/progress`; values that do not increase are dropped (progress MUST increase). */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message` at or above the requested level; otherwise nothing. */
  log(level: McpLogLevel, data: unknown, logger?: string): void;
}

/** A notifier plus the switch the dispatcher uses to end it when the request finishes. */
export interface McpRequestNotifierHandle {
  readonly notifier: McpRequestNotifier;
  close(): void;
}

/** Options for {@link createMcpRequestNotifier}. */
export interface McpRequestNotifierOptions {
  readonly progressToken: string | number | undefined;
  readonly logLevel: McpLogLevel | undefined;
  /** Whether the server advertises `capabilities.logging` (required before any log message). */
  readonly loggingAdvertised: boolean;
}

/** A notifier that never sends anything (no sink, or SDK callers resolving a context by hand). */
export const SILENT_MCP_NOTIFIER: McpRequestNotifier = Object.freeze({
  progressEnabled: false,
  logEnabled: () => false,
  progress: () => undefined,
  log: () => undefined,
});

/** Creates the notifier for one request over `sink`. */
export function createMcpRequestNotifier(sink: MessageSink, options: McpRequestNotifierOptions): McpRequestNotifierHandle {
  let open = true;
  let last = Number.NEGATIVE_INFINITY;
  const threshold = options.logLevel && options.loggingAdvertised ? MCP_LOG_LEVELS.indexOf(options.logLevel) : Number.POSITIVE_INFINITY;
  const token = options.progressToken;
  const notifier: McpRequestNotifier = Object.freeze({
    progressEnabled: token !== undefined,
    logEnabled: (level: McpLogLevel) => open && MCP_LOG_LEVELS.indexOf(level) >= threshold,
    progress(progress: number, total?: number, message?: string) {
      if (!open || token === undefined || !Number.isFinite(progress) || progress <= last) return;
      last = progress;
      sink.send(outboundJsonRpcNotification('notifications/progress', {
        progressToken: token,
        progress,
        ...(total !== undefined && Number.isFinite(total) ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      }));
    },
    log(level: McpLogLevel, data: unknown, logger?: string) {
      if (!notifier.logEnabled(level)) return;
      sink.send(outboundJsonRpcNotification('notifications/message', { level, ...(logger !== undefined ? { logger } : {}), data }));
    },
  });
  return { notifier, close: () => { open = false; } };
}
