import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTempTracker, McpProcesses } from '../support/mcp-stdio.js';

// Start-up failures of the real `pm-mcp` process: reported on stderr with an exit code, never
// as a half-working server. config.yaml is read once the first turn is answered.
jest.setTimeout(60_000);

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const discover = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: META } });
const toolsList = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: META } });

const processes = new McpProcesses();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await processes.killAll();
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function tracker() {
  const t = await makeTempTracker('pm-mcp-startup-');
  cleanups.push(() => t.remove());
  return t;
}

describe('pm-mcp start-up failures (real process)', () => {
  test('an unusable config.yaml: discover is answered, then the process exits 7 naming the file', async () => {
    const t = await tracker();
    await appendFile(join(t.root, 'config.yaml'), 'idPrefix: [unclosed\n');
    const proc = processes.spawn(t.dir);
    proc.writeLine(discover(1));
    const answer = JSON.parse(await proc.waitForLine((l) => l.includes('"id":1'))) as { result?: { resultType?: string } };
    expect(answer.result?.resultType).toBe('complete');
    expect((await proc.exited).code).toBe(7);
    expect(proc.stderr()).toMatch(/^pm-mcp: .*config\.yaml: YAML error/);
  });

  test('a request that needs the configuration gets its error before the process exits', async () => {
    const t = await tracker();
    await appendFile(join(t.root, 'config.yaml'), 'idPrefix: [unclosed\n');
    const proc = processes.spawn(t.dir);
    proc.writeLine(`${discover(1)}\n${toolsList(2)}`);
    const listed = JSON.parse(await proc.waitForLine((l) => l.includes('"id":2'))) as { error?: { code: number; message: string } };
    expect(listed.error).toMatchObject({ code: -31053, message: expect.stringContaining('config.yaml: YAML error') });
    expect((await proc.exited).code).toBe(7);
  });

  test('a bad PM_MCP_PROFILE and a directory without a tracker stop it before anything is read', async () => {
    const t = await tracker();
    const badProfile = processes.spawn(t.dir, { PM_MCP_PROFILE: 'everything' });
    badProfile.writeLine(discover(1));
    expect((await badProfile.exited).code).toBe(1);
    expect(badProfile.lines).toEqual([]);
    expect(badProfile.stderr()).toMatch(/^pm-mcp: .*everything/);

    const empty = await mkdtemp(join(tmpdir(), 'pm-mcp-no-tracker-'));
    cleanups.push(() => rm(empty, { recursive: true, force: true }));
    const none = processes.spawn(empty, { PM_ROOT: '' });
    none.writeLine(discover(1));
    expect((await none.exited).code).toBe(3);
    expect(none.lines).toEqual([]);
    expect(none.stderr()).toMatch(/^pm-mcp: .*pm init/);
  });
});

describe('pm-mcp command line (real process, stdin left open)', () => {
  const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

  test.each([['--help'], ['-h']])('%s prints the usage on stdout and exits 0 without reading stdin', async (flag) => {
    const t = await tracker();
    const proc = processes.spawn(t.dir, {}, undefined, [flag]);
    expect((await proc.exited).code).toBe(0);
    expect(proc.lines[0]).toBe('Usage: pm-mcp [options]');
    expect(proc.lines.join('\n')).toContain('PM_MCP_PROFILE');
    expect(proc.stderr()).toBe('');
  });

  test('--version prints the package version and exits 0, even where no tracker exists', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'pm-mcp-version-'));
    cleanups.push(() => rm(empty, { recursive: true, force: true }));
    const proc = processes.spawn(empty, { PM_ROOT: '' }, undefined, ['--version']);
    expect((await proc.exited).code).toBe(0);
    expect(proc.lines).toEqual([version]);
  });

  test.each([['--bogus'], ['serve'], ['--port', '8787']])('an unknown argument (%s) exits 2 with a message on stderr, nothing on stdout', async (...args) => {
    const t = await tracker();
    const proc = processes.spawn(t.dir, {}, undefined, args);
    expect((await proc.exited).code).toBe(2);
    expect(proc.lines).toEqual([]);
    expect(proc.stderr()).toMatch(new RegExp(`^pm-mcp: unknown argument ${args[0]}; pm-mcp takes no arguments but --help and --version \\(configuration is by environment: see pm-mcp --help\\)\n$`));
  });
});

