import { formatMcpUsageLine, readMcpUsageLog } from '../../../../src/domain/telemetry/usage-log.js';

const row = (era: 'legacy' | 'modern', revision: string, client: string, requests: number) => ({ era, revision, client, clientVersion: '1', requests });

test('keeps the last total per server and adds up the servers; other lines are ignored, malformed ones counted', () => {
  const log = [
    'pm-mcp-http: listening on http://127.0.0.1:1/mcp',
    `pm-mcp-http: ${formatMcpUsageLine('1@a', row('legacy', '2025-11-25', 'old', 1))}`,
    `pm-mcp-http: ${formatMcpUsageLine('1@a', row('legacy', '2025-11-25', 'old', 7))}`,
    `pm-mcp-http: ${formatMcpUsageLine('1@a', row('modern', '2026-07-28', 'new', 3))}`,
    `pm-mcp: ${formatMcpUsageLine('2@b', row('legacy', '2025-11-25', 'old', 2))}`,
    'pm-mcp: mcp-usage {not json',
    'pm-mcp: mcp-usage {"server":"x","era":"other"}',
  ].join('\n');
  expect(readMcpUsageLog(log)).toEqual({ rows: [row('legacy', '2025-11-25', 'old', 9), row('modern', '2026-07-28', 'new', 3)], servers: 2, skipped: 2 });
});

test('an empty log has no rows', () => {
  expect(readMcpUsageLog('')).toEqual({ rows: [], servers: 0, skipped: 0 });
});
