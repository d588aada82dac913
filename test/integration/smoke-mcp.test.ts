/**
 * `npm run smoke:mcp` (scripts/smoke-mcp.mjs) as CI runs it (seed 004
 * "Legacy boundary": the smoke gate reads PM_MCP_LEGACY_PROTOCOL_VERSIONS from the built SDK and
 * drives one real initialize per declared revision against the released launcher, plus a
 * negative control for an undeclared revision; "Rollout, rollback, and proof": SDK primitives,
 * direct server calls, real stdio, packed artifacts, npx and bunx agree on discovery). The full run packs, installs and uses npx, so it
 * gets a generous timeout. A second run points the gate at a drifted fake server to show that
 * the gate itself fails when the accepted set and the declared set disagree.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PM_MCP_LEGACY_PROTOCOL_VERSIONS, PM_MCP_PROTOCOL_VERSION } from '../../src/domain/mcp/index.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/smoke-mcp.mjs', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

const live = new Set<ReturnType<typeof spawn>>();

function runSmoke(args: string[], timeoutMs: number): Promise<Run> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // SIGTERM first: the script then removes its temp dir and kills its own children.
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ code, stdout, stderr, ms: Date.now() - start });
    });
  });
}

const passLines = (out: string) => out.split('\n').filter((l) => l.startsWith('PASS  '));
const failLines = (out: string) => out.split('\n').filter((l) => l.startsWith('FAIL  '));

/**
 * A drifted server: it answers initialize with whatever revision is asked (accepting undeclared
 * ones) and lists legacy revisions in server/discover. Everything else is well-formed.
 */
const DRIFTED_SERVER = `
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let i;
  while ((i = buffer.indexOf('\\n')) >= 0) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    const answer = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
    if (m.method === 'initialize') answer({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'pm', version: '0.0.0' } });
    else if (m.method === 'ping') answer({});
    else if (m.method === 'tools/list') answer({ tools: [{ name: 'pm_context', inputSchema: { type: 'object' } }] });
    else if (m.method === 'server/discover') answer({ resultType: 'complete', supportedVersions: ['${PM_MCP_PROTOCOL_VERSION}', ...${JSON.stringify(PM_MCP_LEGACY_PROTOCOL_VERSIONS)}], capabilities: {}, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'pm', version: '0.0.0' } } });
    else process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }) + '\\n');
  }
});
`;

describe('smoke:mcp', () => {
  afterAll(() => {
    for (const child of live) child.kill('SIGKILL');
  });

  it('packs, installs and drives every declared revision through every launcher under Node and Bun, all agreeing, and exits 0', async () => {
    // The installs reuse the work tree's better-sqlite3 build (a local prebuild), else build it from source.
    const run = await runSmoke([], 890_000);
    if (process.env.PM_TEST_TIMINGS) console.log(`smoke:mcp took ${run.ms} ms\n${run.stdout}`);
    expect(failLines(run.stdout)).toEqual([]);
    expect({ code: run.code, tail: run.stdout.split('\n').slice(-3).join('\n') }).toEqual({ code: 0, tail: expect.stringMatching(/smoke:mcp: \d+ passed, 0 failed/) });
    const passed = passLines(run.stdout).join('\n');
    expect(passed).toContain('built SDK declares PM_MCP_LEGACY_PROTOCOL_VERSIONS');
    expect(passed).toContain('PASS  npm pack');
    expect(passed).toMatch(/tarball contents: .* no test files/);
    expect(passed).toContain('installed SDK export matches the built declaration');
    const launchers = ['work-tree pm-mcp (node)', 'installed pm-mcp (node)', 'npx pm-mcp (node)', 'work-tree pm-mcp (bun)', 'installed pm-mcp (bun)', 'bunx pm-mcp (node)', 'bunx --bun pm-mcp (bun)'];
    for (const launcher of launchers) {
      for (const revision of PM_MCP_LEGACY_PROTOCOL_VERSIONS) expect(passed).toContain(`${launcher}: initialize ${revision} is answered with ${revision}`);
      expect(passed).toMatch(new RegExp(`${launcher.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: initialize \\S+ \\(undeclared\\) is refused with -32022`));
      expect(passed).toContain(`${launcher}: server/discover (${PM_MCP_PROTOCOL_VERSION}) lists only ${PM_MCP_PROTOCOL_VERSION}`);
    }
    // Every consumer agrees with the in-process dispatcher under Node: the launchers, and the SDK
    // primitive and the dispatcher under both runtimes.
    expect(passed).toMatch(/agreement: 11 consumers give the same server\/discover and initialize/);
    for (const consumer of [...launchers, 'SDK buildMcpDiscoverResult() (node)', 'in-process dispatcher (bun)', 'SDK buildMcpDiscoverResult() (bun)']) expect(run.stdout).toContain(`same   ${consumer}`);
    expect(passed).toMatch(/SQLite index contract suite under Bun \(bun test, bun:sqlite\) .* [1-9]\d* pass, 0 fail/);
    expect(passed).toContain('installed pm under Bun reads the index Node wrote');
  }, 900_000);

  it('fails (exit 1, FAIL lines) against a server whose accepted set drifted from the declaration', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pm-smoke-drift-'));
    try {
      const fake = join(dir, 'drifted-server.mjs');
      await writeFile(fake, DRIFTED_SERVER);
      const run = await runSmoke(['--bin', fake], 60_000);
      expect(run.code).toBe(1);
      const failed = failLines(run.stdout).join('\n');
      expect(failed).toMatch(/initialize \S+ \(undeclared\) is refused with -32022 \(\d+ ms\): accepted/);
      expect(failed).toMatch(/server\/discover .* supportedVersions/);
      // The declared revisions themselves are still answered correctly by the fake: only drift fails.
      for (const revision of PM_MCP_LEGACY_PROTOCOL_VERSIONS) expect(passLines(run.stdout).join('\n')).toContain(`initialize ${revision} is answered with ${revision}`);
      expect(run.stdout).toMatch(/smoke:mcp: \d+ passed, 2 failed/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
