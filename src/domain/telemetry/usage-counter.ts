import type { Telemetry } from '../../ports/telemetry.js';
import type { McpObservedRequest, McpRequestObservation, McpRequestObserver } from '../mcp/request-observer.js';
import type { McpRequestContext } from '../mcp/request-context.js';
import type { McpEra } from '../mcp/protocol.js';

/**
 * Legacy-use evidence, local only (seed 004 "Legacy boundary": the adapter is removed only
 * after telemetry shows no required legacy consumers): how many requests each era, revision
 * and client name/version sent. pm sends these counts nowhere by itself; the server writes
 * them to its own log (read back by `pm mcp stats`) and, when the operator turned
 * OpenTelemetry on, adds them to the `pm.mcp.requests` counter.
 */

/** The counter the requests are added to when OpenTelemetry is on. */
export const PM_MCP_REQUESTS_METRIC = 'pm.mcp.requests';

/** One row of the counts. */
export interface McpUsageRow {
  readonly era: McpEra;
  /** The revision that served the requests, or `unresolved` when the request failed before one was known. */
  readonly revision: string;
  readonly client: string;
  readonly clientVersion: string;
  readonly requests: number;
}

const UNKNOWN = '(unknown)';

class UsageObservation implements McpRequestObservation {
  private ctx: McpRequestContext | undefined;

  constructor(
    private readonly counter: McpUsageCounter,
    private readonly era: McpEra,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  resolved(ctx: McpRequestContext): void {
    this.ctx = ctx;
  }

  end(): void {
    this.counter.count(this.era, this.ctx?.revision ?? 'unresolved', this.ctx?.clientInfo?.name ?? UNKNOWN, this.ctx?.clientInfo?.version ?? UNKNOWN);
  }
}

/** Counts requests per era, revision and client; a request observer of the dispatcher. */
export class McpUsageCounter implements McpRequestObserver {
  private readonly rows = new Map<string, { era: McpEra; revision: string; client: string; clientVersion: string; requests: number }>();

  /**
   * `onFirstSeen` is told about each combination the first time it is counted (the server logs
   * it at once, so even a short-lived client leaves its trace); `telemetry`, when given, gets
   * every count as well.
   */
  constructor(private readonly options: { readonly onFirstSeen?: (row: McpUsageRow) => void; readonly telemetry?: Telemetry } = {}) {}

  observe(request: McpObservedRequest): McpRequestObservation {
    return new UsageObservation(this, request.era);
  }

  /** Adds one request. */
  count(era: McpEra, revision: string, client: string, clientVersion: string): void {
    const key = JSON.stringify([era, revision, client, clientVersion]);
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = { era, revision, client, clientVersion, requests: 0 }));
    row.requests++;
    if (row.requests === 1) this.options.onFirstSeen?.({ ...row });
    this.options.telemetry?.addToCounter(PM_MCP_REQUESTS_METRIC, 1, { 'pm.mcp.era': era, 'mcp.protocol.version': revision, 'pm.mcp.client.name': client, 'pm.mcp.client.version': clientVersion });
  }

  /** Every combination counted so far, legacy first, then by revision, client and version. */
  snapshot(): readonly McpUsageRow[] {
    return [...this.rows.values()].map((row) => ({ ...row })).sort(compareUsageRows);
  }
}

/** Legacy rows first, then revision, client and version. */
export function compareUsageRows(a: McpUsageRow, b: McpUsageRow): number {
  if (a.era !== b.era) return a.era === 'legacy' ? -1 : 1;
  return a.revision.localeCompare(b.revision) || a.client.localeCompare(b.client) || a.clientVersion.localeCompare(b.clientVersion);
}
