#!/usr/bin/env node
// smoke:mcp: the packed-artifact gate for pm-mcp (seed 004 "Legacy boundary" and "Rollout,
// rollback, and proof"; docs/MCP.md "Smoke gate", docs/RELEASE.md). It reads
// PM_MCP_LEGACY_PROTOCOL_VERSIONS from the BUILT SDK (dist/sdk/index.js), packs the package once
// (`npm pack`, whose prepack builds), checks what the tarball holds, installs it once into a
// fresh temp project (temp npm cache; better-sqlite3 from the work tree's own build, see
// smoke/native-prebuild.mjs), initializes a tracker there, and then:
//   1. drives every launcher — pm-mcp of the work tree and of the installed tarball under Node
//      and under Bun, `npx --offline --package <tarball> pm-mcp` (the temp cache), and
//      `bunx --package <tarball> pm-mcp` under Node and with --bun — with
//        - one real initialize per declared revision (answered with that revision),
//        - a negative control: initialize with an undeclared revision (-32022 naming every declared one),
//        - one modern server/discover (2026-07-28 per-request _meta);
//   2. records, under Node and under Bun, the SDK's buildMcpDiscoverResult() called directly and
//      the in-process dispatcher (smoke/probe.mjs);
//   3. compares server/discover and every initialize result of all of them with the in-process
//      dispatcher under Node: any difference fails the gate, with a diff (release/compare.mjs);
//   4. runs the SQLite index's contract suite under Bun (bun:sqlite) and lists the tracker with
//      the installed pm under Bun.
// Bun is the npm package `bun`, installed into .tools/ (scripts/tools.mjs). So the accepted set
// and the declared set cannot drift apart, and no consumer can disagree with another. One
// PASS/FAIL line per check; exit code 1 on any failure.
//
// With --published <spec> (after a release), the registry's artifact joins the gate: its name,
// version and sha512 must be the packed tarball's (release/published.mjs), and installed from the
// registry, through npx and through bunx it must answer like every other consumer.
//
// Usage: node scripts/smoke-mcp.mjs [--bin <launcher.js>] [--published <name@version>] [--keep] [--json <file>]
//   --bin   skip pack/install/npx/bunx and run the protocol checks against this launcher
//           (node <launcher.js>), e.g. bin/pm-mcp.cjs of the working tree
//   --published  also check this published version (or dist-tag) from the npm registry
//   --keep  keep the temp dir (printed) for inspection
//   --json  also write the results as JSON (read by scripts/release-evidence.mjs)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compareRecords, formatComparison } from './release/compare.mjs';
import { parsePublishedSpec, publishedDifferences, readRegistryView } from './release/published.mjs';
import { packLocalPrebuild } from './smoke/native-prebuild.mjs';
import { ENV, killAll, run, Server, WIN, withServer } from './smoke/process.mjs';
import { ensureTools } from './tools.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? resolve(args[i + 1] ?? '') : undefined;
};
const localBin = option('--bin');
const jsonOut = option('--json');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
let publishedSpec;
if (args.includes('--published')) {
  try {
    publishedSpec = parsePublishedSpec(args[args.indexOf('--published') + 1], manifest.name);
  } catch (error) {
    console.error(`smoke:mcp: ${error.message}`);
    process.exit(2);
  }
}

const results = [];
const report = { tarball: null, published: null, agreement: null, runtimes: { node: process.version } };

function record(name, ok, detail, ms) {
  results.push({ name, ok });
  const time = ms === undefined ? '' : ` (${ms} ms)`;
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}${time}${detail ? `${ok ? ' - ' : ': '}${detail}` : ''}`);
}

/** Runs fn as one named check; a thrown error fails it with the error's message. */
async function check(name, fn) {
  const t0 = Date.now();
  try {
    const detail = await fn();
    record(name, true, typeof detail === 'string' ? detail : '', Date.now() - t0);
    return true;
  } catch (error) {
    record(name, false, error instanceof Error ? error.message : String(error), Date.now() - t0);
    return false;
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const CLIENT_INFO = { name: 'pm-smoke-mcp', version: '1.0.0' };

/**
 * The protocol checks against one launcher, in turn: one process per declared revision, then one
 * process for the negative control followed by the modern probe (a refused initialize must
 * establish nothing, so the same process still answers server/discover and exits cleanly).
 */
async function protocolChecks(launcher, project, sdk, expectedVersion, timeoutMs) {
  const { legacy, modern } = sdk;
  const seen = { label: launcher.label, discover: undefined, initialize: {} };
  for (const revision of legacy) {
    await check(`${launcher.label}: initialize ${revision} is answered with ${revision}`, () =>
      withServer(launcher, project, async (server) => {
        const init = await server.request(1, 'initialize', { protocolVersion: revision, capabilities: {}, clientInfo: CLIENT_INFO }, timeoutMs);
        assert(init.result, `initialize failed: ${JSON.stringify(init.error)}`);
        assert(init.result.protocolVersion === revision, `answered ${JSON.stringify(init.result.protocolVersion)}`);
        assert(init.result.serverInfo?.name === 'pm', `serverInfo ${JSON.stringify(init.result.serverInfo)}`);
        if (expectedVersion) assert(init.result.serverInfo.version === expectedVersion, `serverInfo.version ${init.result.serverInfo.version}, package ${expectedVersion}`);
        assert(!('resultType' in init.result), 'a legacy result carries resultType');
        seen.initialize[revision] = init.result;
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
      seen.discover = response.result;
      await server.close();
      return `supportedVersions ${JSON.stringify(response.result.supportedVersions)}`;
    });
  } finally {
    server.kill();
  }
  return seen;
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


/** Runs the tasks (functions returning promises) at most `limit` at a time, results in order. */
async function pooled(tasks, limit) {
  const out = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/** The SDK primitive and the in-process dispatcher under one runtime (smoke/probe.mjs). */
async function probeRecords(runtime, label, project, sdk) {
  let records = [];
  await check(`in-process dispatcher and SDK buildMcpDiscoverResult() under ${label}`, async () => {
    const { stdout } = await run(runtime, [join(root, 'scripts', 'smoke', 'probe.mjs'), root, project, ...sdk.legacy], { cwd: project, timeoutMs: 60_000 });
    const probe = JSON.parse(stdout.trim().split('\n').pop());
    records = [
      { label: `in-process dispatcher (${label})`, ...probe.dispatcher },
      { label: `SDK buildMcpDiscoverResult() (${label})`, ...probe.sdk },
    ];
    return `${probe.runtime}: discover + initialize ${sdk.legacy.join(', ')}`;
  });
  return records;
}

/** The agreement gate: every record against the first (the in-process dispatcher under Node). */
async function agreement(records, sdk) {
  await check(`agreement: ${records.length} consumers give the same server/discover and initialize ${sdk.legacy.join(', ')}`, () => {
    const incomplete = records.filter((r) => r.discover === undefined);
    assert(!incomplete.length, `no server/discover result from ${incomplete.map((r) => r.label).join(', ')} (see its FAIL above)`);
    const comparison = compareRecords(records, sdk.legacy);
    report.agreement = comparison;
    const text = formatComparison(comparison);
    assert(comparison.ok, `differences from ${comparison.reference}:\n${text}`);
    return `reference ${comparison.reference}\n${text}`;
  });
}

/** The built SDK's declaration of the legacy and modern revisions. */
async function declaration() {
  const sdkPath = join(root, 'dist', 'sdk', 'index.js');
  if (!existsSync(sdkPath)) await check('build (dist/sdk missing)', () => run('npm', ['run', 'build'], { cwd: root }).then(() => 'npm run build'));
  let sdk;
  await check('built SDK declares PM_MCP_LEGACY_PROTOCOL_VERSIONS', async () => {
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
  return sdk;
}

/**
 * The published artifact (--published): the registry's name, version and sha512 against the
 * packed tarball, then one install from the registry into a fresh consumer; returns the
 * launchers that join the protocol checks and the agreement (installed under Node and Bun, npx,
 * bunx --bun), none when the registry's artifact is not the packed one.
 */
/** A consumer's own better-sqlite3, where this Node needs it (the local prebuild's version). */
function betterSqliteDependency(prebuild) {
  return prebuild.version ? { dependencies: { 'better-sqlite3': prebuild.version } } : {};
}

async function publishedConsumer(work, packed, pkg, prebuild, bun) {
  const { spec } = publishedSpec;
  const same = await check(`published ${spec}: the registry's artifact is the packed tarball`, async () => {
    const { stdout } = await run('npm', ['view', spec, 'name', 'version', 'dist.integrity', 'dist.tarball', '--json'], { cwd: work, timeoutMs: 120_000 });
    const registry = readRegistryView(stdout, spec);
    report.published = registry;
    const differences = publishedDifferences(registry, { name: pkg.name, version: pkg.version, integrity: packed.integrity });
    assert(!differences.length, differences.join('; '));
    return `${registry.name}@${registry.version} ${registry.integrity}`;
  });
  if (!same) return [];
  const consumer = join(work, 'published');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), `${JSON.stringify({ name: 'pm-smoke-published', version: '1.0.0', private: true, ...betterSqliteDependency(prebuild) }, null, 2)}\n`);
  const installed = await check(`npm install ${spec} (from the registry) into a fresh temp dir`, () => run('npm', ['install', spec, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: consumer, timeoutMs: 720_000 }).then(() => consumer));
  const installedPackage = join(consumer, 'node_modules', ...pkg.name.split('/'));
  return [
    installed && { label: `published ${spec} pm-mcp (node)`, command: join(consumer, 'node_modules', '.bin', WIN ? 'pm-mcp.cmd' : 'pm-mcp'), args: [], shell: WIN, timeoutMs: 30_000 },
    installed && bun && { label: `published ${spec} pm-mcp (bun)`, command: bun.path, args: [join(installedPackage, 'bin', 'pm-mcp.cjs')], timeoutMs: 30_000 },
    { label: `npx --package ${spec} pm-mcp (node)`, command: 'npx', args: ['--yes', '--package', spec, ...(prebuild.version ? ['--package', `better-sqlite3@${prebuild.version}`] : []), 'pm-mcp'], shell: WIN, timeoutMs: 180_000 },
    bun && { label: `bunx --bun --package ${spec} pm-mcp (bun)`, command: bun.path, args: ['x', '--bun', '--package', spec, 'pm-mcp'], timeoutMs: 180_000 },
  ];
}

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'pm-smoke-mcp-'));
  // The throwaway install's code caches (bin/bundle-loader.cjs), npm's cache (npx runs offline
  // from it) and bunx's install cache go with it.
  ENV.PM_COMPILE_CACHE_DIR = join(work, 'compile-cache');
  ENV.npm_config_cache = join(work, 'npm-cache');
  ENV.BUN_INSTALL_CACHE_DIR = join(work, 'bun-cache');
  const cleanup = () => {
    killAll();
    if (keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  };
  const interrupted = () => {
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    // 1. The declaration, from the built SDK.
    const sdk = await declaration();
    if (!sdk) return;
    const project = join(work, 'project');
    mkdirSync(project);

    if (localBin) {
      // Local mode: the protocol checks only, against one launcher.
      await check('tracker initialized (working-tree pm init)', () => run(process.execPath, [join(root, 'bin', 'pm.cjs'), 'init'], { cwd: project }).then(() => project));
      await protocolChecks({ label: relative(process.cwd(), localBin) || localBin, command: process.execPath, args: [localBin] }, project, sdk, undefined, 30_000);
      return;
    }

    const pkg = manifest;

    // 2. Bun (from .tools/), the local prebuild of better-sqlite3, and one pack (prepack builds).
    let bun;
    await check(`Bun from the npm package bun in .tools/`, () => {
      bun = ensureTools((line) => console.log(line)).bun;
      report.runtimes.bun = bun.version;
      return `bun ${bun.version} (${relative(root, bun.path)})`;
    });
    let prebuild = {};
    await check('better-sqlite3: the work tree’s build as a local prebuild for the installs', async () => {
      prebuild = await packLocalPrebuild(root, join(work, 'prebuilds'));
      if (prebuild.skipped) return `none: ${prebuild.skipped}`;
      Object.assign(ENV, prebuild.env);
      return `${prebuild.asset} (better-sqlite3 ${prebuild.version}, a dependency of the consumers)`;
    });
    let packed;
    let tarball;
    const packOk = await check('npm pack', async () => {
      const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, timeoutMs: 240_000 });
      const start = stdout.search(/^\[/m);
      assert(start >= 0, `no JSON from npm pack: ${stdout.slice(0, 300)}`);
      [packed] = JSON.parse(stdout.slice(start));
      tarball = join(work, packed.filename);
      assert(existsSync(tarball), `${tarball} was not written`);
      report.tarball = { filename: packed.filename, sha512: packed.integrity, size: packed.size };
      return `${packed.filename}, ${packed.size} bytes, ${packed.integrity}`;
    });
    if (!packOk) return;
    await check('tarball contents: dist/, bin/, skills/, no tests', () => checkTarballFiles(packed.files.map((f) => f.path), pkg));

    // 3. One install into a fresh consumer (it fills the temp npm cache), then npx (offline, from
    // that cache) and bunx prepare their own copies of the tarball.
    const consumer = join(work, 'consumer');
    mkdirSync(consumer);
    const consumerManifest = { name: 'pm-smoke-consumer', version: '1.0.0', private: true, ...betterSqliteDependency(prebuild) };
    writeFileSync(join(consumer, 'package.json'), `${JSON.stringify(consumerManifest, null, 2)}\n`);
    // On a Node that needs better-sqlite3, npx takes the consumer's (built from the local prebuild): offline, the cache holds its tarball but not the registry's answer for its name.
    const npxArgs = ['--yes', '--offline', '--package', tarball, ...(prebuild.version ? ['--package', join(consumer, 'node_modules', 'better-sqlite3')] : [])];
    const bunxArgs = ['x', '--package', tarball];
    const installed = await check('npm install <tarball> into a fresh temp dir', () => run('npm', ['install', tarball, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: consumer, timeoutMs: 720_000 }).then(() => consumer));
    const [npxReady, bunxReady] = await Promise.all([
      check('npx --offline --package <tarball> resolves the launcher (temp npm cache)', () => run('npx', [...npxArgs, 'pm', '--version'], { cwd: work, timeoutMs: 720_000 }).then(({ stdout }) => `pm --version: ${stdout.trim()}`)),
      bun ? check('bunx --package <tarball> resolves the launcher', () => run(bun.path, [...bunxArgs, 'pm', '--version'], { cwd: work, timeoutMs: 720_000 }).then(({ stdout }) => `pm --version: ${stdout.trim()}`)) : false,
    ]);

    const publishedLaunchers = publishedSpec ? await publishedConsumer(work, packed, pkg, prebuild, bun) : [];

    const binDir = join(consumer, 'node_modules', '.bin');
    const installedPm = join(binDir, WIN ? 'pm.cmd' : 'pm');
    const installedMcp = join(binDir, WIN ? 'pm-mcp.cmd' : 'pm-mcp');
    const installedPackage = join(consumer, 'node_modules', ...pkg.name.split('/'));
    if (installed) {
      await check('installed SDK export matches the built declaration', async () => {
        const script = `const m = await import('${pkg.name}/sdk'); console.log(JSON.stringify({ legacy: m.PM_MCP_LEGACY_PROTOCOL_VERSIONS, modern: m.PM_MCP_PROTOCOL_VERSION }));`;
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, timeoutMs: 30_000 });
        const got = JSON.parse(stdout.trim());
        assert(same(got, sdk), `installed ${stdout.trim()} != built ${JSON.stringify(sdk)}`);
        return `${pkg.name}/sdk`;
      });
      await check('installed docs/MCP.md names every declared revision', () => {
        const doc = readFileSync(join(installedPackage, 'docs', 'MCP.md'), 'utf8');
        const missing = sdk.legacy.filter((r) => !doc.includes(r));
        assert(!missing.length, `not documented: ${missing.join(', ')}`);
        return 'the documented set is the declared set';
      });
    }
    const initialized = installed && (await check('tracker initialized with the installed pm (pm init)', () => run(installedPm, ['init'], { cwd: project, timeoutMs: 60_000 }).then(() => project)));
    if (!initialized) return;

    // 4. Every launcher (two at a time), then the in-process records under both runtimes.
    const launchers = [
      { label: 'work-tree pm-mcp (node)', command: process.execPath, args: [join(root, 'bin', 'pm-mcp.cjs')], timeoutMs: 30_000 },
      { label: 'installed pm-mcp (node)', command: installedMcp, args: [], shell: WIN, timeoutMs: 30_000 },
      npxReady && { label: 'npx pm-mcp (node)', command: 'npx', args: [...npxArgs, 'pm-mcp'], shell: WIN, timeoutMs: 90_000 },
      bun && { label: 'work-tree pm-mcp (bun)', command: bun.path, args: [join(root, 'bin', 'pm-mcp.cjs')], timeoutMs: 30_000 },
      bun && { label: 'installed pm-mcp (bun)', command: bun.path, args: [join(installedPackage, 'bin', 'pm-mcp.cjs')], timeoutMs: 30_000 },
      bunxReady && { label: 'bunx pm-mcp (node)', command: bun.path, args: [...bunxArgs, 'pm-mcp'], timeoutMs: 90_000 },
      bunxReady && { label: 'bunx --bun pm-mcp (bun)', command: bun.path, args: ['x', '--bun', '--package', tarball, 'pm-mcp'], timeoutMs: 90_000 },
      ...publishedLaunchers,
    ].filter(Boolean);
    const served = await pooled(launchers.map((launcher) => () => protocolChecks(launcher, project, sdk, pkg.version, launcher.timeoutMs)), 2);
    const inProcess = [...(await probeRecords(process.execPath, 'node', project, sdk)), ...(bun ? await probeRecords(bun.path, 'bun', project, sdk) : [])];

    // 5. Everything agrees with the in-process dispatcher under Node.
    const [reference, ...probes] = inProcess;
    if (reference) await agreement([reference, ...probes, ...served], sdk);

    // 6. The SQLite index under Bun: its contract suite (bun:sqlite), and the installed pm.
    if (bun) {
      await check('SQLite index contract suite under Bun (bun test, bun:sqlite)', async () => {
        const { stdout, stderr } = await run(bun.path, ['test', './test/unit/adapters/node/sqlite-item-index.test.ts'], { cwd: root, timeoutMs: 120_000 });
        const out = `${stdout}\n${stderr}`;
        const pass = /(\d+) pass/.exec(out)?.[1];
        const failCount = /(\d+) fail/.exec(out)?.[1];
        assert(pass && Number(pass) > 0 && failCount === '0', `bun test: ${out.trim().split('\n').slice(-5).join(' | ')}`);
        return `${pass} pass, 0 fail`;
      });
      await check('installed pm under Bun reads the index Node wrote (pm create with node, pm list with bun)', async () => {
        const created = await run(installedPm, ['create', 'Smoke item written under Node'], { cwd: project, timeoutMs: 60_000 });
        // The installed pm had a SQLite driver under Node (else it warns and keeps the index in memory).
        assert(!created.stderr.includes('no SQLite driver'), `installed pm under Node: ${created.stderr.trim().slice(0, 400)}`);
        assert(existsSync(join(project, '.agents', 'pm', '.runtime', 'index.sqlite')), 'installed pm under Node wrote no index.sqlite');
        const { stdout } = await run(bun.path, [join(installedPackage, 'bin', 'pm.cjs'), 'list'], { cwd: project, timeoutMs: 60_000 });
        const line = stdout.split('\n').find((l) => l.includes('Smoke item written under Node'));
        assert(line, `pm list under bun: ${stdout.trim().slice(0, 300)}`);
        return line.trim();
      });
    }
  } catch (error) {
    record('smoke:mcp', false, error instanceof Error ? error.stack : String(error));
  } finally {
    cleanup();
  }
}

await main();
const failed = results.filter((r) => !r.ok).length;
const seconds = Number(((Date.now() - started) / 1000).toFixed(1));
if (jsonOut) {
  mkdirSync(dirname(jsonOut), { recursive: true });
  writeFileSync(jsonOut, `${JSON.stringify({ ok: failed === 0 && results.length > 0, passed: results.length - failed, failed, seconds, checks: results, ...report }, null, 2)}\n`);
}
console.log(`smoke:mcp: ${results.length - failed} passed, ${failed} failed in ${seconds} s`);
process.exit(failed || !results.length ? 1 : 0);
