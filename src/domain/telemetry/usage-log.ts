import { compareUsageRows, type McpUsageRow } from './usage-counter.js';

/**
 * The usage lines a server writes to its log and `pm mcp stats` reads back: one line
 * `mcp-usage {json}` per counted combination, written when it is first seen, every interval
 * and at shutdown, each carrying the running total for one server process (`server`). Reading
 * a log keeps the last total per server and combination and adds up the servers, so restarts
 * and several servers writing to one log are counted correctly.
 */

/** The marker in front of each usage line's JSON. */
export const PM_MCP_USAGE_MARKER = 'mcp-usage ';

/** The text of one usage line (without the process-name prefix the log adds). */
export function formatMcpUsageLine(server: string, row: McpUsageRow): string {
  return `${PM_MCP_USAGE_MARKER}${JSON.stringify({ server, era: row.era, revision: row.revision, client: row.client, clientVersion: row.clientVersion, requests: row.requests })}`;
}

function isRow(value: unknown): value is McpUsageRow & { server: string } {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return typeof row.server === 'string' && (row.era === 'legacy' || row.era === 'modern') && typeof row.revision === 'string' && typeof row.client === 'string' && typeof row.clientVersion === 'string' && Number.isSafeInteger(row.requests);
}

/** The totals in a log's text: lines without the marker, or with malformed JSON, are skipped and counted. */
export function readMcpUsageLog(text: string): { readonly rows: readonly McpUsageRow[]; readonly servers: number; readonly skipped: number } {
  const latest = new Map<string, McpUsageRow & { server: string }>();
  const servers = new Set<string>();
  let skipped = 0;
  for (const line of text.split('\n')) {
    const at = line.indexOf(PM_MCP_USAGE_MARKER);
    if (at < 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(line.slice(at + PM_MCP_USAGE_MARKER.length));
    } catch {
      skipped++;
      continue;
    }
    if (!isRow(value)) {
      skipped++;
      continue;
    }
    servers.add(value.server);
    const key = JSON.stringify([value.server, value.era, value.revision, value.client, value.clientVersion]);
    const before = latest.get(key);
    if (!before || value.requests >= before.requests) latest.set(key, value);
  }
  const totals = new Map<string, McpUsageRow>();
  for (const row of latest.values()) {
    const key = JSON.stringify([row.era, row.revision, row.client, row.clientVersion]);
    const sum = totals.get(key);
    totals.set(key, { era: row.era, revision: row.revision, client: row.client, clientVersion: row.clientVersion, requests: (sum?.requests ?? 0) + row.requests });
  }
  return { rows: [...totals.values()].sort(compareUsageRows), servers: servers.size, skipped };
}
