#!/usr/bin/env node
// `npm run bench:http`: the MCP HTTP benchmark (docs/BENCHMARKS.md "bench:http"). In one run,
// side by side, three real server processes on 127.0.0.1 (port 0):
//   pm        bin/pm-mcp-http.js (--no-init, PM_MCP_PROFILE, default core) over a seeded temp
//             tracker;
//   official  the official @modelcontextprotocol/server v2 over sessionless Streamable HTTP
//             (bench/reference/official-http-server.mjs) serving the same tool list, fetched
//             from pm at start, every handler returning a constant copy of pm's pm_get result;
//   floor     a bare node:http JSON-RPC responder (bench/reference/floor-http-server.mjs).
// For tools/list and tools/call pm_get {id}: a warm-up per server, then autocannon (programmatic
// API) with 16 connections for a fixed duration, split into rounds interleaved across the three
// servers (order rotated per round) so load drift on a shared machine hits them alike; req/s is
// all requests over all measured seconds, latency percentiles the median of the rounds (and the
// worst round's p99); server CPU µs/req is the server process's utime + stime over its rounds
// divided by its requests. The same modern request (2026-07-28 _meta and
// MCP headers) goes to all three. Every response body is checked (verifyBody: a JSON-RPC result,
// no error); non-2xx, errors, timeouts and mismatches make the run INVALID (exit 1). One manual
// request per server and method is also parsed and checked in full. Peak RSS is VmHWM from
// /proc/<pid>/status at the end. Writes JSON to bench/results/.
// Options: --duration=S (default 8), --rounds=N (default 4), --warmup=S (default 2),
// --connections=N (default 16), --baseline=<bin/pm-mcp-http.js of another build> to run that
// build side by side as "pm-baseline" over the same tracker (before/after in one run).
// Tracing: "pm-traced-R" is the same pm-mcp-http with OpenTelemetry on as an operator runs it
// (OTEL_EXPORTER_OTLP_ENDPOINT, traces and metrics, pm's default batch span processor) with the
// sampler OTEL_TRACES_SAMPLER=parentbased_traceidratio at OTEL_TRACES_SAMPLER_ARG=R, one server
// per ratio of --trace-ratios=R,R… (default 0.1,1: the production setting and every request),
// run in the same interleaved rounds, so pm-traced-R/pm is the overhead of tracing at that ratio.
// Their receiver (bench/reference/otlp-sink.mjs) reads and discards every export; it shares the
// machine's cores, so its CPU time per traced request is measured (/proc/<pid>/stat) and reported
// next to the ratios. --no-tracing leaves them out. --traced-baseline=<bin/pm-mcp-http.js of
// another build> also runs that build traced at the last ratio, as "pm-traced-baseline",
// exporting to the same receiver, in the same rounds: the before/after of tracing in one run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { machineInfo, saveBenchResult } from './lib/results.mjs';
import { startSeededRun } from './lib/seed.mjs';
import { fmt, round, table } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const PROFILE = process.env.PM_MCP_PROFILE || 'core';
const DURATION = Number(arg('duration') ?? 8);
const WARM_UP = Number(arg('warmup') ?? 2);
const ROUNDS = Number(arg('rounds') ?? 4);
const CONNECTIONS = Number(arg('connections') ?? 16);
const ITEMS = 200;
const VERSION = '2026-07-28';
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const TARGETS = { listVsOfficial: 10, callVsOfficial: 5, vsFloor: 1 / 3, p99Ms: 10 };
const BASELINE = arg('baseline');
const TRACING = !process.argv.includes('--no-tracing');
const TRACE_RATIOS = (arg('trace-ratios') ?? '0.1,1').split(',').map((r) => r.trim());
const TRACED_BASELINE = TRACING ? arg('traced-baseline') : undefined;
/** Each traced server's sampling ratio (OTEL_TRACES_SAMPLER_ARG), by name. */
const SAMPLED = Object.fromEntries([...TRACE_RATIOS.map((r) => [`pm-traced-${r}`, r]), ...(TRACED_BASELINE ? [['pm-traced-baseline', TRACE_RATIOS.at(-1)]] : [])]);
const TRACED = Object.keys(SAMPLED);
const TRACING_TARGET = { ratio: '0.1', vsPm: 0.95 };
const NAMES = ['pm', ...(TRACING ? TRACED : []), ...(BASELINE ? ['pm-baseline'] : []), 'official', 'floor'];
const KINDS = ['list', 'call'];

const dir = mkdtempSync(join(tmpdir(), 'pm-bench-http-'));
const root = join(dir, '.agents', 'pm');
const children = [];
const cleanup = () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', () => { cleanup(); process.exit(130); });

function fail(message) {
  throw new Error(message);
}

/** Spawns a server, resolves with { child, url } once it printed its URL on stdout. */
function startServer(name, args, options = {}) {
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve({ name, child, url: line.trim(), stderr: () => stderr }));
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before printing its URL: ${stderr}`)));
  });
}

async function stopServer(server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}

/** utime + stime of a process, in seconds (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function peakRssMb(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** The request of one kind: body and headers (docs/HTTP.md, "Header rules"). */
function requestOf(kind, itemId, cursor) {
  const base = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
  };
  if (kind === 'list') {
    return {
      headers: { ...base, 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { ...(cursor ? { cursor } : {}), _meta: MODERN_META } }),
    };
  }
  return {
    headers: { ...base, 'mcp-method': 'tools/call', 'mcp-name': 'pm_get', 'mcp-param-item-id': itemId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'pm_get', arguments: { id: itemId }, _meta: MODERN_META } }),
  };
}

async function post(url, { headers, body }) {
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    fail(`${url}: HTTP ${response.status}, not JSON: ${text.slice(0, 300)}`);
  }
  return { status: response.status, contentType: response.headers.get('content-type'), message };
}

/** Full checks of one parsed response, per server (the floor's fixed result is all it sends). */
function checksFor(toolCount) {
  const full = {
    list: (m) => m.error === undefined && Array.isArray(m.result?.tools) && m.result.tools.length === toolCount,
    call: (m) => m.error === undefined && m.result !== undefined && m.result.isError !== true && m.result.structuredContent?.item !== undefined,
  };
  const fixed = (m) => m.error === undefined && m.result?.resultType === 'complete';
  return { pm: full, ...Object.fromEntries(TRACED.map((n) => [n, full])), 'pm-baseline': full, official: full, floor: { list: fixed, call: fixed } };
}

/** The cheap per-response check autocannon runs on every body (the client must not be the bottleneck). */
const verifyBody = (body) => body.startsWith('{') && body.includes('"result":') && !body.includes('"error":{"code"');

async function cannon(url, request, duration) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: request.headers,
    body: request.body,
    connections: CONNECTIONS,
    pipelining: 1,
    duration,
    verifyBody,
  });
  return result;
}

function summary(result, seconds) {
  return {
    rps: round(result.requests.total / (result.duration || seconds)),
    rpsMean: round(result.requests.average),
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    requests: result.requests.total,
    throughputMBps: round(result.throughput.average / 2 ** 20),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  };
}

const bad = (s) => s.non2xx + s.errors + s.timeouts + s.mismatches;
const median = (values) => {
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * One server's figures over its interleaved rounds: req/s = all requests / all measured seconds;
 * p50/p90/p99 = the median of the rounds' values, p99Max = the worst round; counts summed.
 */
function combine(rounds) {
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
  const sum = (key) => rounds.reduce((total, r) => total + r[key], 0);
  return {
    rps: round(requests / seconds),
    cpuUsPerRequest: round((1e6 * sum('cpu')) / Math.max(1, requests)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p90Ms: median(rounds.map((r) => r.p90Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    p99MaxMs: Math.max(...rounds.map((r) => r.p99Ms)),
    maxMs: Math.max(...rounds.map((r) => r.maxMs)),
    requests,
    seconds,
    roundRps: rounds.map((r) => r.rps),
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    mismatches: sum('mismatches'),
  };
}
const ratio = (a, b) => (b > 0 ? round(a / b) : NaN);

function report(result) {
  const { throughput: tp, peakRssMb: rss, ratios: r } = result;
  const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '-');
  const int = (v) => v.toFixed(0);
  const row = (label, pick, format) => [label, ...NAMES.map((n) => format(pick(n))), x(ratio(pick('pm'), pick('official'))), x(ratio(pick('pm'), pick('floor')))];
  const rows = [];
  for (const kind of KINDS) {
    const label = kind === 'list' ? 'tools/list' : 'tools/call pm_get';
    rows.push(row(`${label} req/s`, (n) => tp[kind][n].rps, int));
    rows.push(row(`${label} server CPU µs/req`, (n) => tp[kind][n].cpuUsPerRequest, int));
    rows.push(row(`${label} p50 ms`, (n) => tp[kind][n].p50Ms, fmt));
    rows.push(row(`${label} p99 ms`, (n) => tp[kind][n].p99Ms, fmt));
    rows.push(row(`${label} p99 worst round ms`, (n) => tp[kind][n].p99MaxMs, fmt));
    rows.push(row(`${label} bad responses`, (n) => bad(tp[kind][n]), int));
  }
  rows.push(row('peak RSS MB (VmHWM)', (n) => rss[n], (v) => v.toFixed(1)));
  console.log(`\nprofile ${PROFILE} (${result.toolCount} tools; tools/list body ${result.bytes.list} B, pm_get body ${result.bytes.call} B)`);
  console.log(`autocannon ${CONNECTIONS} connections, ${WARM_UP} s warm-up + ${DURATION} s (${ROUNDS} interleaved rounds) per server and method; ${cpus().length} CPUs, node ${process.version}, load average at start ${result.machine.loadAverage.join(' ')}\n`);
  console.log(table(['measure', ...NAMES, 'pm/official', 'pm/floor'], rows));
  console.log('\nTargets:');
  const line = (label, value, target, ok, unit = 'x') => console.log(`  ${label.padEnd(36)} ${(unit === 'x' ? x(value) : `${fmt(value)} ms`).padStart(9)}  target ${target.padEnd(9)} ${ok ? 'ok' : 'MISSED'}`);
  line('tools/list req/s pm/official', r.listVsOfficial, `>= ${TARGETS.listVsOfficial}x`, r.listVsOfficial >= TARGETS.listVsOfficial);
  line('tools/call req/s pm/official', r.callVsOfficial, `>= ${TARGETS.callVsOfficial}x`, r.callVsOfficial >= TARGETS.callVsOfficial);
  line('tools/list req/s pm/floor', r.listVsFloor, '>= 0.33x', r.listVsFloor >= TARGETS.vsFloor);
  line('tools/call req/s pm/floor', r.callVsFloor, '>= 0.33x', r.callVsFloor >= TARGETS.vsFloor);
  line('tools/list p99 (pm)', tp.list.pm.p99Ms, `< ${TARGETS.p99Ms} ms`, tp.list.pm.p99Ms < TARGETS.p99Ms, 'ms');
  line('tools/call p99 (pm)', tp.call.pm.p99Ms, `< ${TARGETS.p99Ms} ms`, tp.call.pm.p99Ms < TARGETS.p99Ms, 'ms');
  if (TRACING) {
    console.log('\nTracing on vs off, parentbased_traceidratio (traced/pm; server CPU per request is less sensitive to the machine\'s load than req/s):');
    for (const name of TRACED) {
      const t = r.traced[name];
      const target = SAMPLED[name] === TRACING_TARGET.ratio && name !== 'pm-traced-baseline' ? ` target >= ${TRACING_TARGET.vsPm}x ${t.listVsPm >= TRACING_TARGET.vsPm && t.callVsPm >= TRACING_TARGET.vsPm ? 'ok' : 'MISSED'}` : '';
      console.log(`  ${name} (ratio ${SAMPLED[name]}): req/s tools/list ${x(t.listVsPm)}, tools/call ${x(t.callVsPm)}; CPU/request tools/list ${x(t.listCpuVsPm)}, tools/call ${x(t.callCpuVsPm)}${target}`);
    }
    const sink = result.otlpSinkCpuUsPerTracedRequest;
    console.log(`  the OTLP receiver on the same cores took ${sink.list} µs (tools/list) and ${sink.call} µs (tools/call) of CPU per traced request (all traced servers)`);
    if (TRACED_BASELINE) console.log(`  pm-traced-baseline: ${TRACED_BASELINE}`);
  }
  if (BASELINE) {
    console.log(`\nAgainst the baseline (${BASELINE}): tools/list ${x(r.listVsBaseline)}, tools/call ${x(r.callVsBaseline)}; baseline/official: tools/list ${x(r.baselineListVsOfficial)}, tools/call ${x(r.baselineCallVsOfficial)}`);
  }
}

const servers = {};
try {
  const { started, loadAtStart, itemId } = await startSeededRun(root, ITEMS);

  servers.pm = await startServer('pm', [join(here, '..', 'bin', 'pm-mcp-http.js'), '--host', '127.0.0.1', '--port', '0', '--no-init'], {
    env: { ...process.env, PM_MCP_PROFILE: PROFILE, PM_ACTOR: 'bench', PM_ROOT: root },
  });

  // What the references serve: pm's own tools/list (every page) and one pm_get result.
  const tools = [];
  let listMessage;
  let cursor;
  do {
    const { message } = await post(servers.pm.url, requestOf('list', itemId, cursor));
    if (!message.result) fail(`pm tools/list failed: ${JSON.stringify(message.error)} ${servers.pm.stderr()}`);
    listMessage ??= message;
    tools.push(...message.result.tools);
    cursor = message.result.nextCursor;
  } while (cursor);
  if (listMessage.result.tools.length !== tools.length) fail('pm paginated tools/list; the benchmark compares single-page lists');
  const { message: callMessage } = await post(servers.pm.url, requestOf('call', itemId));
  if (!callMessage.result || callMessage.result.isError) fail(`pm pm_get failed: ${JSON.stringify(callMessage)}`);
  writeFileSync(join(dir, 'reference.json'), JSON.stringify({ tools, callResult: { content: callMessage.result.content, structuredContent: callMessage.result.structuredContent } }));

  if (TRACING) {
    servers['otlp-sink'] = await startServer('otlp-sink', [join(here, 'reference', 'otlp-sink.mjs')]);
    for (const name of TRACED) {
      const bin = name === 'pm-traced-baseline' ? TRACED_BASELINE : join(here, '..', 'bin', 'pm-mcp-http.js');
      const sampler = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: SAMPLED[name] };
      servers[name] = await startServer(name, [bin, '--host', '127.0.0.1', '--port', '0', '--no-init'], {
        env: { ...process.env, PM_MCP_PROFILE: PROFILE, PM_ACTOR: 'bench', PM_ROOT: root, OTEL_EXPORTER_OTLP_ENDPOINT: new URL(servers['otlp-sink'].url).origin, OTEL_SERVICE_NAME: 'pm-bench', ...sampler },
      });
    }
  }
  if (BASELINE) {
    servers['pm-baseline'] = await startServer('pm-baseline', [BASELINE, '--host', '127.0.0.1', '--port', '0', '--no-init'], {
      env: { ...process.env, PM_MCP_PROFILE: PROFILE, PM_ACTOR: 'bench', PM_ROOT: root },
    });
  }
  servers.official = await startServer('official', [join(here, 'reference', 'official-http-server.mjs'), join(dir, 'reference.json')]);
  servers.floor = await startServer('floor', [join(here, 'reference', 'floor-http-server.mjs')]);

  // One manual request per server and method, parsed and checked in full.
  const checks = checksFor(tools.length);
  const manual = {};
  const bytes = {};
  for (const name of NAMES) {
    manual[name] = {};
    for (const kind of KINDS) {
      const { status, contentType, message } = await post(servers[name].url, requestOf(kind, itemId));
      const ok = status === 200 && checks[name][kind](message);
      manual[name][kind] = { status, contentType, ok };
      if (!ok) fail(`${name} ${kind}: HTTP ${status} ${JSON.stringify(message).slice(0, 400)} ${servers[name].stderr()}`);
      if (name === 'official') bytes[`official-${kind}`] = JSON.stringify(message.result).length;
      if (name === 'pm') bytes[kind] = JSON.stringify(message.result).length;
    }
  }

  // Per method: every server warmed up, then ROUNDS interleaved rounds of DURATION / ROUNDS
  // seconds each, the server order rotated per round, so load drift on the shared machine hits
  // the three servers alike.
  const throughput = { list: {}, call: {} };
  const sinkCpu = { list: { seconds: 0, requests: 0 }, call: { seconds: 0, requests: 0 } };
  const roundSeconds = DURATION / ROUNDS;
  for (const kind of KINDS) {
    const request = requestOf(kind, itemId);
    const warmUpBad = {};
    for (const name of NAMES) warmUpBad[name] = bad(summary(await cannon(servers[name].url, request, WARM_UP), WARM_UP));
    const rounds = Object.fromEntries(NAMES.map((n) => [n, []]));
    // Only the traced servers export to the receiver: its CPU over all rounds of this method
    // (exports are batched, so some land while another server is measured) per traced request.
    const sinkBefore = TRACING ? cpuSeconds(servers['otlp-sink'].child.pid) : 0;
    for (let r = 0; r < ROUNDS; r++) {
      const order = NAMES.map((_, i) => NAMES[(i + r) % NAMES.length]);
      process.stdout.write(`${kind} round ${r + 1}/${ROUNDS}:`);
      for (const name of order) {
        const cpuBefore = cpuSeconds(servers[name].child.pid);
        const s = summary(await cannon(servers[name].url, request, roundSeconds), roundSeconds);
        const cpu = cpuSeconds(servers[name].child.pid) - cpuBefore;
        if (TRACED.includes(name)) sinkCpu[kind].requests += s.requests;
        rounds[name].push({ ...s, seconds: roundSeconds, cpu });
        process.stdout.write(` ${name} ${s.rps.toFixed(0)}`);
      }
      console.log(' req/s');
    }
    if (TRACING) sinkCpu[kind].seconds = cpuSeconds(servers['otlp-sink'].child.pid) - sinkBefore;
    for (const name of NAMES) throughput[kind][name] = { ...combine(rounds[name]), warmUpBad: warmUpBad[name] };
  }
  const peak = Object.fromEntries(NAMES.map((n) => [n, round(peakRssMb(servers[n].child.pid))]));

  const badCount = Object.fromEntries(NAMES.map((n) => [n, KINDS.reduce((sum, k) => sum + bad(throughput[k][n]) + throughput[k][n].warmUpBad, 0)]));
  const result = {
    date: new Date().toISOString(),
    machine: machineInfo(loadAtStart),
    method: {
      profile: PROFILE,
      items: ITEMS,
      connections: CONNECTIONS,
      warmUpSeconds: WARM_UP,
      durationSeconds: DURATION,
      rounds: ROUNDS,
      aggregation: 'rounds interleaved across servers (order rotated); req/s = requests / measured seconds; p50/p90/p99 = median of rounds, p99MaxMs = worst round',
      client: 'autocannon 9 programmatic API, one client thread on the same machine, pipelining 1, verifyBody on every response',
      requests: 'modern 2026-07-28 POSTs with params._meta (protocolVersion, clientCapabilities) and MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-Item-Id, Accept: application/json, text/event-stream',
      pm: 'bin/pm-mcp-http.js --host 127.0.0.1 --port 0 --no-init over a seeded temp tracker',
      ...(BASELINE ? { baseline: BASELINE } : {}),
      ...(TRACED_BASELINE ? { tracedBaseline: `${TRACED_BASELINE}, traced at ratio ${TRACE_RATIOS.at(-1)}, exporting to the same receiver` } : {}),
      ...(TRACING ? { tracing: `pm-traced-R: the same server with OTEL_EXPORTER_OTLP_ENDPOINT at a local OTLP/HTTP receiver that discards every export (bench/reference/otlp-sink.mjs; its CPU per traced request reported); traces and metrics on, pm's default batch span processor, OTEL_TRACES_SAMPLER=parentbased_traceidratio with OTEL_TRACES_SAMPLER_ARG=R for R in ${TRACE_RATIOS.join(', ')} (the requests carry no trace context, so R of them are sampled)` } : {}),
      official: '@modelcontextprotocol/server 2.4.0 createMcpHandler (legacy: reject) on node:http via a minimal fetch bridge; fresh McpServer per request with the same tools (fromJsonSchema converted once); handlers return a constant copy of pm\'s pm_get result',
      floor: 'node:http, read body, JSON.parse, fixed small result',
      rss: 'VmHWM from /proc/<pid>/status after all runs',
    },
    toolCount: tools.length,
    bytes,
    manual,
    throughput,
    ...(TRACING ? { otlpSinkCpuUsPerTracedRequest: Object.fromEntries(KINDS.map((k) => [k, round((1e6 * sinkCpu[k].seconds) / Math.max(1, sinkCpu[k].requests))])) } : {}),
    peakRssMb: peak,
    badResponses: badCount,
    valid: Object.values(badCount).every((v) => v === 0),
    ratios: {
      listVsOfficial: ratio(throughput.list.pm.rps, throughput.list.official.rps),
      callVsOfficial: ratio(throughput.call.pm.rps, throughput.call.official.rps),
      listVsFloor: ratio(throughput.list.pm.rps, throughput.list.floor.rps),
      callVsFloor: ratio(throughput.call.pm.rps, throughput.call.floor.rps),
      ...(TRACING
        ? {
            traced: Object.fromEntries(
              TRACED.map((n) => [
                n,
                {
                  samplerRatio: Number(SAMPLED[n]),
                  listVsPm: ratio(throughput.list[n].rps, throughput.list.pm.rps),
                  callVsPm: ratio(throughput.call[n].rps, throughput.call.pm.rps),
                  listCpuVsPm: ratio(throughput.list[n].cpuUsPerRequest, throughput.list.pm.cpuUsPerRequest),
                  callCpuVsPm: ratio(throughput.call[n].cpuUsPerRequest, throughput.call.pm.cpuUsPerRequest),
                },
              ]),
            ),
          }
        : {}),
      ...(BASELINE
        ? {
            listVsBaseline: ratio(throughput.list.pm.rps, throughput.list['pm-baseline'].rps),
            callVsBaseline: ratio(throughput.call.pm.rps, throughput.call['pm-baseline'].rps),
            baselineListVsOfficial: ratio(throughput.list['pm-baseline'].rps, throughput.list.official.rps),
            baselineCallVsOfficial: ratio(throughput.call['pm-baseline'].rps, throughput.call.official.rps),
          }
        : {}),
    },
    targets: { ...TARGETS, ...(TRACING ? { tracedVsPm: TRACING_TARGET } : {}) },
  };
  report(result);
  saveBenchResult('http', result, started);
  if (!result.valid) {
    console.error(`\nINVALID RUN: bad responses ${JSON.stringify(badCount)}`);
    process.exitCode = 1;
  }
} finally {
  await Promise.all(Object.values(servers).map(stopServer));
  cleanup();
}
