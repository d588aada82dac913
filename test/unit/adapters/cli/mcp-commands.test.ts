import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { cliHarness } from '../../../support/cli-harness.js';

const binding = { method: 'tools/call', params: { name: 'pm_delete', arguments: { id: 'pm-a1' } }, principal: 'local:alice' };

describe('pm mcp rotate-key', () => {
  it('makes a fresh key current and reports how long the replaced one verifies', async () => {
    const cli = await cliHarness();
    const before = await cli.requestStates.seal({ consent: 'x' }, binding);
    const first = (await cli.requestStates.keys())[0]!;
    const out = await cli.json<{ current: { id: string; createdAt: string }; retired: { id: string; retiredAt: string; verifiesUntil: string }[] }>(['mcp', 'rotate-key']);
    expect(out.current.id).not.toBe(first.id);
    expect(out.current.createdAt).toBe(new Date(cli.clock.now()).toISOString());
    expect(out.retired).toEqual([{ id: first.id, retiredAt: new Date(cli.clock.now()).toISOString(), verifiesUntil: new Date(cli.clock.now() + 600_000).toISOString() }]);
    // state sealed before the rotation still opens; new state uses the new key
    expect(await cli.requestStates.open(before, binding)).toEqual({ consent: 'x' });
    expect((await cli.requestStates.seal({}, binding)).split('.')[1]).toBe(out.current.id);
  });

  it('prints one line per key for people', async () => {
    const cli = await cliHarness();
    const result = await cli.run(['mcp', 'rotate-key']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Rotated the requestState key: k2 seals from now on\.\n {2}k1 \(retired [^)]+\) still verifies until \S+\n$/);
  });

  it('is listed in the help', async () => {
    const cli = await cliHarness();
    const result = await cli.run(['help']);
    expect(result.stdout).toMatch(/mcp rotate-key/);
  });
});

describe('pm mcp stats', () => {
  const log = [
    'pm-mcp-http: listening on http://127.0.0.1:9/mcp',
    'pm-mcp-http: mcp-usage {"server":"1@a","era":"legacy","revision":"2025-11-25","client":"old","clientVersion":"1.0","requests":4}',
    'pm-mcp-http: mcp-usage {"server":"1@a","era":"modern","revision":"2026-07-28","client":"new","clientVersion":"2.0","requests":9}',
  ].join('\n');

  it('adds up the usage lines of a log file', async () => {
    const cli = await cliHarness();
    const out = await cli.json<Record<string, unknown>>(['mcp', 'stats', '--log', 'server.log'], { files: { 'server.log': log } });
    expect(out).toEqual({
      rows: [
        { era: 'legacy', revision: '2025-11-25', client: 'old', clientVersion: '1.0', requests: 4 },
        { era: 'modern', revision: '2026-07-28', client: 'new', clientVersion: '2.0', requests: 9 },
      ],
      legacyRequests: 4,
      modernRequests: 9,
      servers: 1,
      skippedLines: 0,
    });
  });

  it('reads stdin with --log - and prints a table for people', async () => {
    const cli = await cliHarness();
    const result = await cli.run(['mcp', 'stats', '--log', '-'], { stdin: log });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('legacy  2025-11-25  old 1.0');
    expect(result.stdout).toContain('legacy: 4 requests, modern: 9 requests, from 1 server run');
  });

  it('needs --log', async () => {
    const cli = await cliHarness();
    const result = await cli.run(['mcp', 'stats']);
    expect(result.error).toBeInstanceOf(UsageError);
    expect((result.error as UsageError).message).toContain('--log FILE');
    expect((result.error as UsageError).exitCode).toBe(2);
  });
});
