import { readMcpUsageLog } from '../../../domain/telemetry/usage-log.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../usage-error.js';

/**
 * `pm mcp rotate-key`: a fresh key for sealing MRTR `requestState` (seed 004 "MRTR, tasks, and
 * cache behavior": HMAC-sealed continuation state). The replaced key keeps verifying what it
 * sealed for one state lifetime, so a rotation never breaks an interaction in flight; keys
 * retired longer ago are forgotten. Running servers read the key file again on their next use.
 */
export const mcpRotateKeyCommand: CliCommand = {
  name: 'mcp rotate-key',
  summary: "Rotate the key that seals MCP requestState (the old key verifies for one more state lifetime)",
  description:
    "pm's MCP servers seal the state of a multi round-trip request (an elicitation form for consent, say) with an HMAC key kept in .agents/pm/.runtime/request-state-keys.json (mode 0600, never committed). This makes a fresh key current. State sealed with the replaced key stays valid until it expires (at most one state lifetime, 10 minutes); running servers pick the new key up on their next request. Rotate after the runtime directory may have been copied or read by someone else. JSON: { current: { id, createdAt }, retired: [{ id, retiredAt, verifiesUntil }] }.",
  args: [],
  options: {},
  examples: ['pm mcp rotate-key', 'pm mcp rotate-key --json'],
  async run(_args, { services }) {
    const sealer = await services.requestStates();
    const current = await sealer.rotate();
    const retired = (await sealer.keys()).filter((key) => key.retiredAt !== undefined).map((key) => ({ id: key.id, retiredAt: new Date(key.retiredAt!).toISOString(), verifiesUntil: new Date(key.retiredAt! + sealer.lifetimeMs).toISOString() }));
    const human = [`Rotated the requestState key: ${current.id} seals from now on.`, ...retired.map((key) => `  ${key.id} (retired ${key.retiredAt}) still verifies until ${key.verifiesUntil}`)].join('\n');
    return { value: { current: { id: current.id, createdAt: new Date(current.createdAt).toISOString() }, retired }, human: `${human}\n` };
  },
};

/**
 * `pm mcp stats`: the legacy-use evidence a running server has logged (seed 004 "Legacy
 * boundary": the legacy adapter is removed only after usage shows no required legacy
 * consumers). Reads a server's log — pm-mcp-http writes `mcp-usage` lines to stderr
 * — and prints the request counts per era, revision and client. Nothing is sent anywhere.
 */
export const mcpStatsCommand: CliCommand = {
  name: 'mcp stats',
  summary: 'Request counts per protocol era, revision and client, from a running MCP server\'s log',
  description:
    "pm-mcp-http counts its requests per era (modern 2026-07-28, or the legacy initialize-era adapter), revision and client name/version, and writes the totals to its log (stderr) as `mcp-usage` lines: when a combination is first seen, every 10 minutes, and at shutdown. This reads such a log (a file, or - for stdin) and adds up the servers that wrote to it: the evidence for deciding when legacy clients are gone. Counts stay on this machine. JSON: { rows: [{ era, revision, client, clientVersion, requests }], legacyRequests, modernRequests, servers, skippedLines }.",
  args: [],
  options: { log: { type: 'string', value: 'FILE', description: 'The server log to read (- for stdin)' } },
  examples: ['pm-mcp-http 2>> pm-mcp.log &  pm mcp stats --log pm-mcp.log', 'pm mcp stats --log - --json < pm-mcp.log'],
  async run(args, { io }) {
    const path = args.values.log;
    if (typeof path !== 'string' || path === '') throw new UsageError('pm mcp stats needs --log FILE (the server\'s stderr log, or - for stdin)', 'mcp stats');
    const text = path === '-' ? await io.readStdin() : await io.readFile(path);
    const { rows, servers, skipped } = readMcpUsageLog(text);
    const sum = (era: string) => rows.filter((row) => row.era === era).reduce((total, row) => total + row.requests, 0);
    const value = { rows, legacyRequests: sum('legacy'), modernRequests: sum('modern'), servers, skippedLines: skipped };
    const lines = rows.length
      ? rows.map((row) => `${row.era.padEnd(7)} ${row.revision.padEnd(11)} ${`${row.client} ${row.clientVersion}`.padEnd(32)} ${row.requests}`)
      : ['no mcp-usage lines in this log (is it the stderr of pm-mcp-http?)'];
    const human = [`era     revision    client                           requests`, ...lines, `legacy: ${value.legacyRequests} requests, modern: ${value.modernRequests} requests, from ${servers} server run${servers === 1 ? '' : 's'}${skipped ? ` (${skipped} malformed usage lines skipped)` : ''}`].join('\n');
    return { value, human: `${human}\n` };
  },
};
