#!/usr/bin/env node
// `npm run bench:mcp`: the MCP stdio benchmark (docs/BENCHMARKS.md "bench:mcp"). In one
// run, side by side, over stdio against real processes:
//   pm          bin/pm-mcp.cjs (PM_MCP_PROFILE, default core) over a seeded temp tracker;
//   official    the official @modelcontextprotocol/server v2 (bench/reference/official-server.mjs)
//               serving the same tool list, fetched from pm at start;
//   floor       a bare JSON-RPC stdio echo (bench/reference/echo-server.cjs) answering every
//               request with one fixed small result: the target's floor;
//   floor-bytes the same echo answering with fixed copies of pm's own results (same bytes on
//               the pipe as pm), to show what the payload alone costs.
// Measures pipelined tools/call (pm_get of one item) and tools/list throughput with 32 in
// flight (p50/p99 latency, server CPU per request from /proc), cold start (spawn to the first
// server/discover response, median of 15 spawns, interleaved) and peak RSS (VmHWM). Rounds are
// interleaved (order rotated) and the median round is reported. Every response is checked; a
// run with any error is INVALID and exits 1. Writes JSON to bench/results/.
// Options: --quick, --rounds=N, --calls=N, --lists=N, --spawns=N, and --baseline=<bin/pm-mcp.cjs (or .js) of
// another build> to run that build side by side as "pm-baseline" (before/after in one run);
// --baseline-env=NAME=VALUE[,NAME=VALUE] gives the baseline that environment too, and without
// --baseline makes this build the baseline (e.g. --baseline-env=PM_CACHES=off: caches off vs on).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineInfo, saveBenchResult } from './lib/results.mjs';
import { startSeededRun } from './lib/seed.mjs';
import { StdioPeer } from './lib/stdio-peer.mjs';
import { fmt, quantile, round, table } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const quick = process.argv.includes('--quick');
const PROFILE = process.env.PM_MCP_PROFILE || 'core';
const WINDOW = 32;
const ITEMS = 200;
const ROUNDS = Number(arg('rounds') ?? (quick ? 3 : 5));
const COUNTS = {
  call: Number(arg('calls') ?? (quick ? 2000 : 4000)),
  list: Number(arg('lists') ?? (quick ? 600 : 1500)),
};
const WARM_UP = { call: quick ? 1500 : 4000, list: quick ? 500 : 1000 };
const SPAWNS = Number(arg('spawns') ?? 15);
const TARGETS = { vsOfficial: 3, vsFloor: 0.5, coldVsFloor: 1.5 };
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const FLOOR_RESULT = { resultType: 'complete' };
const BASELINE_ENV = Object.fromEntries(
  (process.argv.find((a) => a.startsWith('--baseline-env='))?.slice('--baseline-env='.length).split(',') ?? [])
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const BASELINE = arg('baseline') ?? (Object.keys(BASELINE_ENV).length > 0 ? join(here, '..', 'bin', 'pm-mcp.cjs') : undefined);

const dir = mkdtempSync(join(tmpdir(), 'pm-bench-mcp-'));
const root = join(dir, '.agents', 'pm');
const cleanup = () => rmSync(dir, { recursive: true, force: true });
process.on('SIGINT', () => { cleanup(); process.exit(130); });

const echo = (name, file) => () => new StdioPeer(name, [join(here, 'reference', 'echo-server.cjs'), join(dir, file)], { cwd: dir });
const pmServer = (name, bin, env = {}) => () => new StdioPeer(name, [bin], { cwd: dir, env: { ...process.env, PM_MCP_PROFILE: PROFILE, PM_ACTOR: 'bench', ...env } });
const SERVERS = {
  pm: pmServer('pm', join(here, '..', 'bin', 'pm-mcp.cjs')),
  ...(BASELINE ? { 'pm-baseline': pmServer('pm-baseline', BASELINE, BASELINE_ENV) } : {}),
  official: () => new StdioPeer('official', [join(here, 'reference', 'official-server.mjs'), join(dir, 'reference.json')], { cwd: dir }),
  floor: echo('floor', 'floor.json'),
  'floor-bytes': echo('floor-bytes', 'floor-bytes.json'),
};
const NAMES = Object.keys(SERVERS);
const COLD_NAMES = ['pm', ...(BASELINE ? ['pm-baseline'] : []), 'official', 'floor'];

const frameOf = (method, params) => {
  const tail = `,"method":${JSON.stringify(method)},"params":${JSON.stringify({ ...params, _meta: MODERN_META })}}`;
  return (id) => `{"jsonrpc":"2.0","id":${id}${tail}`;
};

function fail(message) {
  throw new Error(message);
}

/** Asks pm for what the references will serve: every tools/list page, one pm_get result, discover. */
async function fetchFromPm(itemId) {
  const pm = SERVERS.pm();
  try {
    const discover = await pm.request('server/discover', { _meta: MODERN_META });
    if (!discover.message.result) fail(`pm server/discover failed: ${JSON.stringify(discover.message.error)} ${pm.stderr}`);
    const tools = [];
    let listResult;
    let cursor;
    do {
      const { message } = await pm.request('tools/list', { ...(cursor ? { cursor } : {}), _meta: MODERN_META });
      if (!message.result) fail(`pm tools/list failed: ${JSON.stringify(message.error)}`);
      listResult ??= message.result;
      tools.push(...message.result.tools);
      cursor = message.result.nextCursor;
    } while (cursor);
    const call = await pm.request('tools/call', { name: 'pm_get', arguments: { id: itemId }, _meta: MODERN_META });
    const callResult = call.message.result;
    if (!callResult || callResult.isError) fail(`pm pm_get failed: ${JSON.stringify(call.message)}`);
    return { discover: discover.message.result, tools, listResult, callResult, paged: listResult.tools.length !== tools.length };
  } finally {
    await pm.close();
  }
}

/** What counts as a real success, per server: the floor's fixed result is all it ever sends. */
function checksFor(toolCount) {
  const full = {
    call: (m) => m.result?.resultType === 'complete' && m.result.isError !== true && m.result.structuredContent?.item !== undefined,
    list: (m) => m.result?.resultType === 'complete' && Array.isArray(m.result.tools) && m.result.tools.length === toolCount,
    discover: (m) => m.result?.resultType === 'complete' && Array.isArray(m.result.supportedVersions),
  };
  const fixed = (m) => m.error === undefined && m.result?.resultType === 'complete';
  return { pm: full, 'pm-baseline': full, official: full, 'floor-bytes': full, floor: { call: fixed, list: fixed, discover: fixed } };
}

async function throughput(peers, frames, checks) {
  const warmErrors = Object.fromEntries(NAMES.map((n) => [n, { errors: 0, firstError: undefined }]));
  for (const kind of ['call', 'list']) {
    for (const name of NAMES) {
      const warm = await peers[name].pipeline(frames[kind], WARM_UP[kind], WINDOW, checks[name][kind]);
      warmErrors[name].errors += warm.errors;
      warmErrors[name].firstError ??= warm.firstError;
    }
  }
  const results = {};
  for (const kind of ['call', 'list']) {
    const acc = Object.fromEntries(NAMES.map((n) => [n, { rps: [], latencies: [], cpuMs: 0, errors: 0, firstError: undefined }]));
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order each round so no server always runs first or last.
      const order = NAMES.map((_, i) => NAMES[(i + round) % NAMES.length]);
      for (const name of order) {
        const cpuBefore = peers[name].cpuMs();
        const run = await peers[name].pipeline(frames[kind], COUNTS[kind], WINDOW, checks[name][kind]);
        acc[name].cpuMs += peers[name].cpuMs() - cpuBefore;
        acc[name].rps.push((COUNTS[kind] / run.wallMs) * 1000);
        acc[name].latencies.push(...run.latencies);
        acc[name].errors += run.errors;
        acc[name].firstError ??= run.firstError;
      }
    }
    results[kind] = Object.fromEntries(NAMES.map((n) => {
      const firstError = acc[n].firstError ?? warmErrors[n].firstError;
      return [n, {
        requestsPerRound: COUNTS[kind],
        rounds: acc[n].rps.map(round),
        rps: round(quantile(acc[n].rps, 0.5)),
        p50Ms: round(quantile(acc[n].latencies, 0.5)),
        p99Ms: round(quantile(acc[n].latencies, 0.99)),
        cpuUsPerRequest: round((acc[n].cpuMs * 1000) / (COUNTS[kind] * ROUNDS)),
        errors: acc[n].errors + warmErrors[n].errors,
        ...(firstError ? { firstError } : {}),
      }];
    }));
  }
  return results;
}

/**
 * Spawn to the first `server/discover` response (the target), then to the `tools/list`
 * response asked for as soon as discovery answered (what a host does next): the second
 * figure includes whatever a server defers past discovery (pm builds its tool catalogue on
 * first use).
 */
async function coldStarts(checks) {
  const samples = Object.fromEntries(COLD_NAMES.map((n) => [n, []]));
  const listSamples = Object.fromEntries(COLD_NAMES.map((n) => [n, []]));
  let errors = 0;
  for (let i = 0; i < SPAWNS; i++) {
    const order = COLD_NAMES.map((_, k) => COLD_NAMES[(k + i) % COLD_NAMES.length]);
    for (const name of order) {
      const peer = SERVERS[name]();
      const answer = () => {
        const id = peer.nextId++;
        const reply = new Promise((resolve) => peer.pending.set(id, (line, at) => resolve({ message: JSON.parse(line), at })));
        return { id, reply };
      };
      const discover = answer();
      peer.child.stdin.write(`${frameOf('server/discover', {})(discover.id)}\n`);
      const first = await discover.reply;
      const list = answer();
      peer.child.stdin.write(`${frameOf('tools/list', {})(list.id)}\n`);
      const listed = await list.reply;
      if (!checks[name].discover(first.message)) errors++;
      if (!checks[name].list(listed.message)) errors++;
      samples[name].push(first.at - peer.spawnedAt);
      listSamples[name].push(listed.at - peer.spawnedAt);
      await peer.close();
    }
  }
  const summary = (values) => ({
    medianMs: round(quantile(values, 0.5)),
    minMs: round(Math.min(...values)),
    maxMs: round(Math.max(...values)),
    samples: values.map(round),
  });
  const byServer = Object.fromEntries(COLD_NAMES.map((n) => [n, { ...summary(samples[n]), toolsList: summary(listSamples[n]) }]));
  return { errors, byServer };
}

function ratio(a, b) {
  return b > 0 ? round(a / b) : NaN;
}

function report(result) {
  const { call, list } = result.throughput;
  const cold = result.coldStart.byServer;
  const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '-');
  const ratios = (pick) => [x(ratio(pick('pm'), pick('official'))), x(ratio(pick('pm'), pick('floor'))), x(ratio(pick('pm'), pick('floor-bytes')))];
  const row = (label, pick, format) => [label, ...NAMES.map((n) => (pick(n) === undefined ? '-' : format(pick(n)))), ...ratios(pick)];
  const int = (v) => v.toFixed(0);
  const rows = [
    row('tools/call req/s (pm_get, 32 in flight)', (n) => call[n].rps, int),
    row('tools/call p50 ms', (n) => call[n].p50Ms, fmt),
    row('tools/call p99 ms', (n) => call[n].p99Ms, fmt),
    row('tools/call server CPU µs/request', (n) => call[n].cpuUsPerRequest, int),
    row('tools/list req/s (32 in flight)', (n) => list[n].rps, int),
    row('tools/list p50 ms', (n) => list[n].p50Ms, fmt),
    row('tools/list p99 ms', (n) => list[n].p99Ms, fmt),
    row('tools/list server CPU µs/request', (n) => list[n].cpuUsPerRequest, int),
    row(`cold start ms (median of ${SPAWNS})`, (n) => cold[n]?.medianMs, fmt),
    row('  … to the first tools/list ms', (n) => cold[n]?.toolsList.medianMs, fmt),
    row('peak RSS MB (VmHWM)', (n) => result.peakRssMb[n], (v) => v.toFixed(1)),
  ];
  console.log(`\nprofile ${PROFILE} (${result.toolCount} tools, tools/list result ${result.bytes.list} B, pm_get result ${result.bytes.call} B, floor result ${result.bytes.floor} B)`);
  console.log(`${ROUNDS} interleaved rounds x ${COUNTS.call} calls / ${COUNTS.list} lists, median round; ${cpus().length} CPUs, node ${process.version}, load average at start ${result.machine.loadAverage.join(' ')}\n`);
  console.log(table(['measure', ...NAMES, 'pm/official', 'pm/floor', 'pm/floor-bytes'], rows));
  console.log('\nTargets:');
  const line = (label, value, target, ok) => console.log(`  ${label.padEnd(36)} ${x(value).padStart(7)}  target ${target.padEnd(7)} ${ok ? 'ok' : 'MISSED'}`);
  const r = result.ratios;
  line('tools/call throughput pm/official', r.callVsOfficial, `>= ${TARGETS.vsOfficial}x`, r.callVsOfficial >= TARGETS.vsOfficial);
  line('tools/list throughput pm/official', r.listVsOfficial, `>= ${TARGETS.vsOfficial}x`, r.listVsOfficial >= TARGETS.vsOfficial);
  line('tools/call throughput pm/floor', r.callVsFloor, `>= ${TARGETS.vsFloor}x`, r.callVsFloor >= TARGETS.vsFloor);
  line('tools/list throughput pm/floor', r.listVsFloor, `>= ${TARGETS.vsFloor}x`, r.listVsFloor >= TARGETS.vsFloor);
  line('cold start pm/floor', r.coldVsFloor, `<= ${TARGETS.coldVsFloor}x`, r.coldVsFloor <= TARGETS.coldVsFloor);
}

try {
  const { started, loadAtStart, itemId } = await startSeededRun(root, ITEMS);

  const { tools, listResult, callResult, discover, paged } = await fetchFromPm(itemId);
  if (paged) fail('pm paginated tools/list; the benchmark compares single-page lists');
  writeFileSync(join(dir, 'reference.json'), JSON.stringify({ tools, callResult: { content: callResult.content, structuredContent: callResult.structuredContent } }));
  writeFileSync(join(dir, 'floor.json'), JSON.stringify({ 'server/discover': FLOOR_RESULT, 'tools/list': FLOOR_RESULT, 'tools/call': FLOOR_RESULT }));
  writeFileSync(join(dir, 'floor-bytes.json'), JSON.stringify({ 'server/discover': discover, 'tools/list': listResult, 'tools/call': callResult }));
  const checks = checksFor(tools.length);
  const frames = { call: frameOf('tools/call', { name: 'pm_get', arguments: { id: itemId } }), list: frameOf('tools/list', {}) };

  process.stdout.write(`throughput: ${NAMES.join(', ')} side by side… `);
  const peers = Object.fromEntries(NAMES.map((n) => [n, SERVERS[n]()]));
  let tp;
  const peakRssMb = {};
  try {
    tp = await throughput(peers, frames, checks);
    for (const n of NAMES) peakRssMb[n] = round(peers[n].peakRssMb());
  } finally {
    await Promise.all(NAMES.map((n) => peers[n].close()));
  }
  console.log('done');
  process.stdout.write(`cold start: ${SPAWNS} spawns each of ${COLD_NAMES.join(', ')}, interleaved… `);
  const coldStart = await coldStarts(checks);
  console.log('done');

  const errors = Object.fromEntries(NAMES.map((n) => [n, tp.call[n].errors + tp.list[n].errors]));
  const totalErrors = Object.values(errors).reduce((a, b) => a + b, 0) + coldStart.errors;
  const result = {
    date: new Date().toISOString(),
    machine: machineInfo(loadAtStart),
    method: {
      profile: PROFILE,
      items: ITEMS,
      window: WINDOW,
      rounds: ROUNDS,
      counts: COUNTS,
      warmUp: WARM_UP,
      spawns: SPAWNS,
      call: 'tools/call pm_get {id} of one seeded item; modern requests with per-request _meta (protocolVersion 2026-07-28, clientCapabilities {})',
      official: '@modelcontextprotocol/server 2.4.0 via serveStdio; the same tools (name, title, description, annotations, input and output JSON Schemas via fromJsonSchema); each handler returns a constant copy of pm\'s pm_get result',
      floor: 'newline-delimited echo: JSON.parse per line, one write per reply, a fixed small result',
      floorBytes: 'the same echo replying with fixed copies of pm\'s own results per method (same bytes as pm)',
      ...(BASELINE ? { baseline: BASELINE, baselineEnv: BASELINE_ENV } : {}),
    },
    toolCount: tools.length,
    bytes: { list: JSON.stringify(listResult).length, call: JSON.stringify(callResult).length, floor: JSON.stringify(FLOOR_RESULT).length },
    throughput: tp,
    coldStart,
    peakRssMb,
    errors: { ...errors, coldStart: coldStart.errors },
    valid: totalErrors === 0,
    ratios: {
      callVsOfficial: ratio(tp.call.pm.rps, tp.call.official.rps),
      listVsOfficial: ratio(tp.list.pm.rps, tp.list.official.rps),
      callVsFloor: ratio(tp.call.pm.rps, tp.call.floor.rps),
      listVsFloor: ratio(tp.list.pm.rps, tp.list.floor.rps),
      callVsFloorBytes: ratio(tp.call.pm.rps, tp.call['floor-bytes'].rps),
      listVsFloorBytes: ratio(tp.list.pm.rps, tp.list['floor-bytes'].rps),
      coldVsFloor: ratio(coldStart.byServer.pm.medianMs, coldStart.byServer.floor.medianMs),
      coldVsOfficial: ratio(coldStart.byServer.pm.medianMs, coldStart.byServer.official.medianMs),
      ...(BASELINE ? {
        callVsBaseline: ratio(tp.call.pm.rps, tp.call['pm-baseline'].rps),
        listVsBaseline: ratio(tp.list.pm.rps, tp.list['pm-baseline'].rps),
        coldVsBaseline: ratio(coldStart.byServer.pm.medianMs, coldStart.byServer['pm-baseline'].medianMs),
      } : {}),
    },
    targets: TARGETS,
  };
  report(result);
  saveBenchResult('mcp', result, started);
  if (!result.valid) {
    console.error(`\nINVALID RUN: errors ${JSON.stringify(result.errors)}`);
    for (const n of NAMES) for (const k of ['call', 'list']) if (tp[k][n].firstError) console.error(`  ${n} ${k}: ${JSON.stringify(tp[k][n].firstError).slice(0, 400)}`);
    process.exitCode = 1;
  }
} finally {
  cleanup();
}
