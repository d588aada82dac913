import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// bin/bundle-loader.cjs in real node processes: the code cache is written at process exit, so
// every step is its own process over a temp bundle and a temp cache directory.
jest.setTimeout(60_000);

const LOADER = fileURLToPath(new URL('../../bin/bundle-loader.cjs', import.meta.url));
const PM_MCP_BUNDLE = fileURLToPath(new URL('../../dist/bundle/pm-mcp.cjs', import.meta.url));

interface Loaded {
  readonly code: number | null;
  readonly status: string | undefined;
  readonly value: unknown;
  readonly stderr: string;
}

/** Loads `file` in a fresh process and reports the cache status and the bundle's `value` export. */
function load(file: string, env: NodeJS.ProcessEnv): Promise<Loaded> {
  const script = `
    const { loadBundle } = await import(${JSON.stringify(LOADER)});
    let status;
    const exports = loadBundle(${JSON.stringify(file)}, { onCacheStatus: (s) => { status = s; } });
    process.stdout.write(JSON.stringify({ status, value: exports === undefined ? 'no bundle' : exports.value }));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, PM_COMPILE_CACHE: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      const parsed = stdout ? (JSON.parse(stdout) as { status?: string; value: unknown }) : { value: undefined };
      resolve({ code, status: parsed.status, value: parsed.value, stderr });
    });
  });
}

describe('bundle loader (V8 code cache)', () => {
  let dir: string;
  let cacheDir: string;
  let bundle: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-bundle-loader-'));
    cacheDir = join(dir, 'cache');
    bundle = join(dir, 'demo.cjs');
    writeFileSync(bundle, 'const path = require("node:path"); exports.value = [path.basename(__filename), 6 * 7].join(":");\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const caches = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.endsWith('.bin')) : []);

  it('runs the bundle, writes a cache at exit, and the next process accepts it', async () => {
    const first = await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir });
    expect(first).toMatchObject({ code: 0, status: 'absent', value: 'demo.cjs:42' });
    expect(caches()).toHaveLength(1);
    const second = await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir });
    expect(second).toMatchObject({ code: 0, status: 'accepted', value: 'demo.cjs:42' });
    expect(caches()).toHaveLength(1);
  });

  it('survives a corrupt cache: rejected, the bundle still runs, and the cache is rewritten', async () => {
    await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir });
    const [file] = caches();
    writeFileSync(join(cacheDir, file!), Buffer.from('not a V8 code cache at all'));
    const broken = await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir });
    expect(broken).toMatchObject({ code: 0, status: 'rejected', value: 'demo.cjs:42' });
    expect(readFileSync(join(cacheDir, file!)).toString()).not.toBe('not a V8 code cache at all');
    expect(await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir })).toMatchObject({ status: 'accepted' });
  });

  it('replaces the cache of an earlier build of the same bundle', async () => {
    await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir });
    const [before] = caches();
    // A rebuild replaces the file by rename (new inode, size and mtime).
    writeFileSync(`${bundle}.tmp`, 'exports.value = "rebuilt";\n');
    renameSync(`${bundle}.tmp`, bundle);
    expect(await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir })).toMatchObject({ status: 'absent', value: 'rebuilt' });
    const after = caches();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
  });

  it('PM_COMPILE_CACHE=0 turns the cache off', async () => {
    const run = await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir, PM_COMPILE_CACHE: '0' });
    expect(run).toMatchObject({ code: 0, status: 'off', value: 'demo.cjs:42' });
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('an unwritable cache directory costs nothing but the cache', async () => {
    writeFileSync(join(dir, 'a-file'), '');
    const run = await load(bundle, { PM_COMPILE_CACHE_DIR: join(dir, 'a-file', 'cache') });
    expect(run).toMatchObject({ code: 0, status: 'absent', value: 'demo.cjs:42', stderr: '' });
  });

  it('reports a missing bundle as undefined (the bins then run the unbundled sources)', async () => {
    expect(await load(join(dir, 'missing.cjs'), { PM_COMPILE_CACHE_DIR: cacheDir })).toMatchObject({ code: 0, value: 'no bundle' });
  });

  it('the built pm-mcp bundle is ASCII (decoded as latin1) and holds neither express nor jose', () => {
    const bytes = readFileSync(PM_MCP_BUNDLE);
    expect(bytes.every((b) => b < 0x80)).toBe(true);
    const text = bytes.toString('latin1');
    expect(text).not.toMatch(/require\("express"\)|express\/lib\/|createLocalJWKSet|jwtVerify/);
  });
});
