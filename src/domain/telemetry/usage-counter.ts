import type { Telemetry, TelemetryObservation } from '../../ports/telemetry.js';
import type { McpObservedRequest, McpRequestObservation, McpRequestObserver } from '../mcp/request-observer.js';
import type { McpRequestContext } from '../mcp/request-context.js';
import type { McpEra } from '../mcp/protocol.js';

/**
 * Legacy-use evidence, local only (seed 004 "Legacy boundary": the adapter is removed only
 * after telemetry shows no required legacy consumers): how many requests each era, revision
 * and client name/version sent. pm sends these counts nowhere by itself; the server writes
 * them to its own log (read back by `pm mcp stats`) and, when the operator turned
 * OpenTelemetry on, reports them as the `pm.mcp.requests` counter (read at each collection).
 */

/** The counter the requests are reported as when OpenTelemetry is on. */
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
  private readonly rows = new Map<string, { era: McpEra; revision: string; client: string; clientVersion: string; requests: number; attributes: TelemetryObservation['attributes'] }>();

  /**
   * `onFirstSeen` is told about each combination the first time it is counted (the server logs
   * it at once, so even a short-lived client leaves its trace); `telemetry`, when given, reads
   * the counts at each of its collections.
   */
  constructor(private readonly options: { readonly onFirstSeen?: (row: McpUsageRow) => void; readonly telemetry?: Telemetry } = {}) {
    options.telemetry?.observeCounter(PM_MCP_REQUESTS_METRIC, () => [...this.rows.values()].map((row) => ({ value: row.requests, attributes: row.attributes })));
  }

  observe(request: McpObservedRequest): McpRequestObservation {
    return new UsageObservation(this, request.era);
  }

  /** Adds one request. */
  count(era: McpEra, revision: string, client: string, clientVersion: string): void {
    const key = JSON.stringify([era, revision, client, clientVersion]);
    let row = this.rows.get(key);
    if (!row) {
      const attributes = { 'pm.mcp.era': era, 'mcp.protocol.version': revision, 'pm.mcp.client.name': client, 'pm.mcp.client.version': clientVersion };
      this.rows.set(key, (row = { era, revision, client, clientVersion, requests: 0, attributes }));
    }
    row.requests++;
    if (row.requests === 1) this.options.onFirstSeen?.(rowOf(row));
  }

  /** Every combination counted so far, legacy first, then by revision, client and version. */
  snapshot(): readonly McpUsageRow[] {
    return [...this.rows.values()].map(rowOf).sort(compareUsageRows);
  }
}

function rowOf({ era, revision, client, clientVersion, requests }: McpUsageRow): McpUsageRow {
  return { era, revision, client, clientVersion, requests };
}

/** Legacy rows first, then revision, client and version. */
export function compareUsageRows(a: McpUsageRow, b: McpUsageRow): number {
  if (a.era !== b.era) return a.era === 'legacy' ? -1 : 1;
  return a.revision.localeCompare(b.revision) || a.client.localeCompare(b.client) || a.clientVersion.localeCompare(b.clientVersion);
}
