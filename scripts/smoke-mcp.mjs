#!/usr/bin/env node
// smoke:mcp: the packed-artifact gate for pm-mcp (seed 004 "Legacy boundary" and "Rollout,
// rollback, and proof"; docs/MCP.md "Smoke gate"). It reads PM_MCP_LEGACY_PROTOCOL_VERSIONS from the
// BUILT SDK (dist/sdk/index.js), packs the package once (`npm pack`, whose prepack builds),
// checks what the tarball holds, installs it once into a fresh temp dir, initializes a tracker
// there, and then drives, against the installed `pm-mcp` bin AND via
// `npx --yes --package <tarball> pm-mcp`:
//   - one real initialize per declared revision (answered with that revision),
//   - a negative control: initialize with an undeclared revision (-32022 naming every declared one),
//   - one modern server/discover (2026-07-28 per-request _meta).
// So the accepted set and the declared set cannot drift apart. One PASS/FAIL line per check;
// exit code 1 on any failure.
//
// Usage: node scripts/smoke-mcp.mjs [--bin <launcher.js>] [--keep]
//   --bin   skip pack/install/npx and run the protocol checks against this launcher
//           (node <launcher.js>), e.g. bin/pm-mcp.cjs of the working tree
//   --keep  keep the temp dir (printed) for inspection
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const binIndex = args.indexOf('--bin');
const localBin = binIndex >= 0 ? resolve(args[binIndex + 1] ?? '') : undefined;
const WIN = process.platform === 'win32';

const results = [];
const children = new Set();

function report(name, ok, detail, ms) {
  results.push({ name, ok });
  const time = ms === undefined ? '' : ` (${ms} ms)`;
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}${time}${detail ? `${ok ? ' - ' : ': '}${detail}` : ''}`);
}

/** Runs fn as one named check; a thrown error fails it with the error's message. */
async function check(name, fn) {
  const t0 = Date.now();
  try {
    const detail = await fn();
    report(name, true, typeof detail === 'string' ? detail : '', Date.now() - t0);
    return true;
  } catch (error) {
    report(name, false, error instanceof Error ? error.message : String(error), Date.now() - t0);
    return false;
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The environment for npm/npx and the servers: the caller's, minus what `npm run`/`npm test`
 * inject about *this* package (a leaked npm_config_local_prefix would point npm back at the
 * repository instead of the temp consumer).
 */
function cleanEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    const k = key.toLowerCase();
    if (/^npm_(lifecycle_|package_)/.test(k) || ['npm_command', 'npm_execpath', 'npm_node_execpath', 'init_cwd'].includes(k)) delete env[key];
    if (['npm_config_local_prefix', 'npm_config_call', 'npm_config_yes', 'npm_config_dry_run', 'npm_config_global', 'npm_config_workspace', 'npm_config_workspaces', 'npm_config_prefix'].includes(k)) delete env[key];
  }
  delete env.PM_ROOT; // the server must find the tracker from its working directory
  return env;
}
const ENV = cleanEnv();

/** Runs a command to completion; rejects on a non-zero exit or after timeoutMs. */
function run(command, commandArgs, { cwd = root, timeoutMs = 180_000 } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, commandArgs, { cwd, env: ENV, stdio: ['ignore', 'pipe', 'pipe'], shell: WIN });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (code === 0) resolvePromise({ stdout, stderr });
      else reject(new Error(`${command} ${commandArgs.join(' ')} exited ${code ?? signal}${signal === 'SIGKILL' ? ` (timeout ${timeoutMs} ms)` : ''}\n${stderr.trim().split('\n').slice(-15).join('\n')}`));
    });
  });
}

/** One stdio server process: newline-delimited JSON-RPC, responses matched by id. */
class Server {
  constructor(launcher, cwd) {
    this.launcher = launcher;
    this.child = spawn(launcher.command, launcher.args, { cwd, env: ENV, stdio: ['pipe', 'pipe', 'pipe'], shell: launcher.shell ?? false });
    children.add(this.child);
    this.lines = [];
    this.stderr = '';
    this.waiters = new Set();
    let partial = '';
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => {
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop();
      for (const line of parts) if (line.trim()) this.lines.push(line);
      for (const wake of this.waiters) wake();
    });
    this.child.stderr.on('data', (d) => (this.stderr += d));
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((r) => this.child.on('close', (code, signal) => {
      children.delete(this.child);
      r({ code, signal });
      for (const wake of this.waiters) wake();
    }));
  }

  send(message) {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  request(id, method, params, timeoutMs) {
    this.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => finish(new Error(`no response to ${method} within ${timeoutMs} ms; stderr: ${this.stderr.trim().slice(-500)}`)), timeoutMs);
      const wake = () => {
        for (const line of this.lines) {
          let value;
          try {
            value = JSON.parse(line);
          } catch {
            continue;
          }
          if (value && value.id === id && value.method === undefined) return finish(undefined, value);
        }
        if (this.child.exitCode !== null || this.child.signalCode !== null) finish(new Error(`${this.launcher.label} exited before answering ${method}; stderr: ${this.stderr.trim().slice(-500)}`));
      };
      const finish = (error, value) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        if (error) reject(error);
        else resolvePromise(value);
      };
      this.waiters.add(wake);
      wake();
    });
  }

  /** Ends stdin and expects a clean exit (code 0) within timeoutMs. */
  async close(timeoutMs = 20_000) {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const { code, signal } = await this.exited;
    clearTimeout(timer);
    assert(code === 0, `${this.launcher.label} exited ${code ?? signal} after stdin closed; stderr: ${this.stderr.trim().slice(-500)}`);
  }

  kill() {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** Starts a server, runs fn(server), and always ends the process. */
async function withServer(launcher, cwd, fn) {
  const server = new Server(launcher, cwd);
  try {
    const out = await fn(server);
    await server.close();
    return out;
  } finally {
    server.kill();
  }
}

const CLIENT_INFO = { name: 'pm-smoke-mcp', version: '1.0.0' };

/**
 * The protocol checks against one launcher, in turn: one process per declared revision, then one
 * process for the negative control followed by the modern probe (a refused initialize must
 * establish nothing, so the same process still answers server/discover and exits cleanly).
 */
async function protocolChecks(launcher, project, sdk, expectedVersion, timeoutMs) {
  const { legacy, modern } = sdk;
  for (const revision of legacy) {
    await check(`${launcher.label}: initialize ${revision} is answered with ${revision}`, () =>
      withServer(launcher, project, async (server) => {
        const init = await server.request(1, 'initialize', { protocolVersion: revision, capabilities: {}, clientInfo: CLIENT_INFO }, timeoutMs);
        assert(init.result, `initialize failed: ${JSON.stringify(init.error)}`);
        assert(init.result.protocolVersion === revision, `answered ${JSON.stringify(init.result.protocolVersion)}`);
        assert(init.result.serverInfo?.name === 'pm', `serverInfo ${JSON.stringify(init.result.serverInfo)}`);
        if (expectedVersion) assert(init.result.serverInfo.version === expectedVersion, `serverInfo.version ${init.result.serverInfo.version}, package ${expectedVersion}`);
        assert(!('resultType' in init.result), 'a legacy result carries resultType');
        server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        const ping = await server.request(2, 'ping', undefined, timeoutMs);
        assert(same(ping.result, {}), `ping: ${JSON.stringify(ping)}`);
        const list = await server.request(3, 'tools/list', undefined, timeoutMs);
        assert(Array.isArray(list.result?.tools) && list.result.tools.some((t) => t.name === 'pm_context'), `tools/list: ${JSON.stringify(list).slice(0, 300)}`);
        assert(!('resultType' in list.result), 'a legacy tools/list carries resultType');
        return `${init.result.serverInfo.name} ${init.result.serverInfo.version}, ${list.result.tools.length} tools`;
      }),
    );
  }

  const undeclared = ['2025-03-26', '2024-11-05', '2024-10-07'].find((r) => !legacy.includes(r));
  const server = new Server(launcher, project);
  try {
    await check(`${launcher.label}: initialize ${undeclared} (undeclared) is refused with -32022`, async () => {
      const response = await server.request(1, 'initialize', { protocolVersion: undeclared, capabilities: {}, clientInfo: CLIENT_INFO }, timeoutMs);
      assert(response.error, `accepted: ${JSON.stringify(response.result)}`);
      assert(response.error.code === -32022, `code ${response.error.code}`);
      assert(same(response.error.data?.supported, legacy), `data.supported ${JSON.stringify(response.error.data?.supported)} != declared ${JSON.stringify(legacy)}`);
      assert(response.error.data?.requested === undeclared, `data.requested ${JSON.stringify(response.error.data?.requested)}`);
      for (const revision of legacy) assert(response.error.message.includes(revision), `the message does not name ${revision}: ${response.error.message}`);
      return response.error.message;
    });
    await check(`${launcher.label}: server/discover (${modern}) lists only ${modern}`, async () => {
      const meta = { 'io.modelcontextprotocol/protocolVersion': modern, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO };
      const response = await server.request(2, 'server/discover', { _meta: meta }, timeoutMs);
      assert(response.result, `discover failed: ${JSON.stringify(response.error)}`);
      assert(response.result.resultType === 'complete', `resultType ${JSON.stringify(response.result.resultType)}`);
      assert(same(response.result.supportedVersions, [modern]), `supportedVersions ${JSON.stringify(response.result.supportedVersions)}`);
      assert(response.result._meta?.['io.modelcontextprotocol/serverInfo']?.name === 'pm', 'no serverInfo in result _meta');
      await server.close();
      return `supportedVersions ${JSON.stringify(response.result.supportedVersions)}`;
    });
  } finally {
    server.kill();
  }
}

/** Every file under dir, relative to root, skipping dot files. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (statSync(path).isFile()) out.push(relative(root, path).split('\\').join('/'));
  }
  return out;
}

/** What the tarball must and must not hold. */
function checkTarballFiles(files, pkg) {
  const have = new Set(files);
  const required = ['package.json', 'dist/sdk/index.js', 'dist/composition/mcp-stdio-main.js', ...Object.values(pkg.bin ?? {}).map((p) => p.replace(/^\.\//, ''))];
  const skills = filesUnder(join(root, 'skills'));
  const missing = [...required, ...skills].filter((f) => !have.has(f));
  assert(!missing.length, `missing from the tarball: ${missing.join(', ')}`);
  const forbidden = files.filter((f) => /(^|\/)(test|tests|__tests__|coverage|node_modules)\//.test(f) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(f) || /^(src|bench|scripts)\//.test(f) || /\.tmp-\d+/.test(f));
  assert(!forbidden.length, `must not be packed: ${forbidden.slice(0, 10).join(', ')}${forbidden.length > 10 ? ', …' : ''}`);
  const dist = files.filter((f) => f.startsWith('dist/')).length;
  return `${files.length} files (${dist} in dist/, bin: ${Object.keys(pkg.bin ?? {}).join(', ')}${skills.length ? `, ${skills.length} in skills/` : ', skills/ empty'}), no test files`;
}

/** Removes the npx cache entries created for this tarball (npx keeps one per package spec). */
async function removeNpxEntries(tarball) {
  let cache;
  try {
    cache = (await run('npm', ['config', 'get', 'cache'], { timeoutMs: 30_000 })).stdout.trim();
  } catch {
    return;
  }
  const npxDir = join(cache, '_npx');
  if (!cache || !existsSync(npxDir)) return;
  for (const entry of readdirSync(npxDir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(npxDir, entry, 'package.json'), 'utf8'));
      if ((manifest._npx?.packages ?? []).includes(tarball)) rmSync(join(npxDir, entry), { recursive: true, force: true });
    } catch {
      // not one of ours
    }
  }
}

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'pm-smoke-mcp-'));
  // The throwaway install's code caches (bin/bundle-loader.cjs) go with it.
  ENV.PM_COMPILE_CACHE_DIR = join(work, 'compile-cache');
  let tarball;
  const cleanup = async () => {
    for (const child of children) child.kill('SIGKILL');
    if (tarball) await removeNpxEntries(tarball);
    if (keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  };
  const interrupted = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    // 1. The declaration, from the built SDK.
    const sdkPath = join(root, 'dist', 'sdk', 'index.js');
    if (!existsSync(sdkPath)) await check('build (dist/sdk missing)', () => run('npm', ['run', 'build']).then(() => 'npm run build'));
    let sdk;
    const declared = await check('built SDK declares PM_MCP_LEGACY_PROTOCOL_VERSIONS', async () => {
      const mod = await import(pathToFileURL(sdkPath).href);
      const legacy = mod.PM_MCP_LEGACY_PROTOCOL_VERSIONS;
      const modern = mod.PM_MCP_PROTOCOL_VERSION;
      assert(Array.isArray(legacy) && legacy.length > 0, `PM_MCP_LEGACY_PROTOCOL_VERSIONS is ${JSON.stringify(legacy)}`);
      assert(legacy.every((r) => typeof r === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(r)), `not revisions: ${JSON.stringify(legacy)}`);
      assert(new Set(legacy).size === legacy.length, 'duplicate revisions');
      assert(same([...legacy].sort().reverse(), [...legacy]), `not newest first: ${JSON.stringify(legacy)}`);
      assert(typeof modern === 'string' && !legacy.includes(modern), `PM_MCP_PROTOCOL_VERSION ${JSON.stringify(modern)}`);
      sdk = { legacy: [...legacy], modern };
      return `${legacy.join(', ')} (modern ${modern})`;
    });
    if (!declared) return;

    const project = join(work, 'project');
    mkdirSync(project);

    if (localBin) {
      // Local mode: the protocol checks only, against one launcher.
      await check('tracker initialized (working-tree pm init)', () => run(process.execPath, [join(root, 'bin', 'pm.cjs'), 'init'], { cwd: project }).then(() => project));
      await protocolChecks({ label: relative(process.cwd(), localBin) || localBin, command: process.execPath, args: [localBin] }, project, sdk, undefined, 30_000);
      return;
    }

    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

    // 2. One pack (prepack builds) and what it holds.
    let packed;
    const packOk = await check('npm pack', async () => {
      const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { timeoutMs: 240_000 });
      const start = stdout.search(/^\[/m);
      assert(start >= 0, `no JSON from npm pack: ${stdout.slice(0, 300)}`);
      [packed] = JSON.parse(stdout.slice(start));
      tarball = join(work, packed.filename);
      assert(existsSync(tarball), `${tarball} was not written`);
      return `${packed.filename}, ${packed.size} bytes, ${packed.integrity}`;
    });
    if (!packOk) return;
    await check('tarball contents: dist/, bin/, skills/, no tests', () => checkTarballFiles(packed.files.map((f) => f.path), pkg));

    // 3. One install into a fresh consumer, while npx prepares its own copy of the tarball. Each
    // builds better-sqlite3's native module from source where no prebuilt binary can be
    // fetched (minutes on 2 cores, both at once), hence the long timeouts.
    const consumer = join(work, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), `${JSON.stringify({ name: 'pm-smoke-consumer', version: '1.0.0', private: true }, null, 2)}\n`);
    const npxArgs = ['--yes', '--prefer-offline', '--package', tarball];
    const [installed, npxReady] = await Promise.all([
      check('npm install <tarball> into a fresh temp dir', () => run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: consumer, timeoutMs: 720_000 }).then(() => consumer)),
      check('npx --package <tarball> resolves the launcher', () => run('npx', [...npxArgs, 'pm', '--version'], { cwd: work, timeoutMs: 720_000 }).then(({ stdout }) => `pm --version: ${stdout.trim()}`)),
    ]);

    const binDir = join(consumer, 'node_modules', '.bin');
    const installedPm = join(binDir, WIN ? 'pm.cmd' : 'pm');
    const installedMcp = join(binDir, WIN ? 'pm-mcp.cmd' : 'pm-mcp');
    if (installed) {
      await check('installed SDK export matches the built declaration', async () => {
        const script = "const m = await import('@unbrained/pm-cli/sdk'); console.log(JSON.stringify({ legacy: m.PM_MCP_LEGACY_PROTOCOL_VERSIONS, modern: m.PM_MCP_PROTOCOL_VERSION }));";
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, timeoutMs: 30_000 });
        const got = JSON.parse(stdout.trim());
        assert(same(got, sdk), `installed ${stdout.trim()} != built ${JSON.stringify(sdk)}`);
        return '@unbrained/pm-cli/sdk';
      });
      await check('installed docs/MCP.md names every declared revision', () => {
        const doc = readFileSync(join(consumer, 'node_modules', '@unbrained', 'pm-cli', 'docs', 'MCP.md'), 'utf8');
        const missing = sdk.legacy.filter((r) => !doc.includes(r));
        assert(!missing.length, `not documented: ${missing.join(', ')}`);
        return 'the documented set is the declared set';
      });
    }
    const initialized = installed && (await check('tracker initialized with the installed pm (pm init)', () => run(installedPm, ['init'], { cwd: project, timeoutMs: 60_000 }).then(() => project)));
    if (!initialized) return;

    // 4. The protocol checks, on both launchers at once.
    await Promise.all([
      protocolChecks({ label: 'installed pm-mcp', command: installedMcp, args: [], shell: WIN }, project, sdk, pkg.version, 30_000),
      npxReady ? protocolChecks({ label: 'npx pm-mcp', command: 'npx', args: [...npxArgs, 'pm-mcp'], shell: WIN }, project, sdk, pkg.version, 90_000) : Promise.resolve(),
    ]);
  } catch (error) {
    report('smoke:mcp', false, error instanceof Error ? error.stack : String(error));
  } finally {
    await cleanup();
  }
}

await main();
const failed = results.filter((r) => !r.ok).length;
console.log(`smoke:mcp: ${results.length - failed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed || !results.length ? 1 : 0);
