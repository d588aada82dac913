#!/usr/bin/env node
// `npm run bench:writes`: writes under load (docs/BENCHMARKS.md "bench:writes"). Seeds a temp
// tracker, gives one item 1,000 history lines (comments written through the real Tracker), starts
// bin/pm-mcp-http.js on it (127.0.0.1, port 0) and drives tools/call pm_comment with autocannon
// (16 connections, pipelining 1, one client thread on the same machine):
//   spread  every request comments on one of 16 items, in turn;
//   hot     every request comments on the item that already has 1,000 history lines.
// Afterwards every acknowledged write must be in its item's history exactly once (no write lost
// or doubled; each comment text is unique) and `pm validate` must pass. Reports writes/s and latency percentiles, and writes
// JSON to bench/results/. Options: --duration=8 --warmup=2 --connections=16 --items=1000
// --durable (PM_DURABLE=1: fsync each item file before its rename). PM_BENCH_PROFILE=<dir> runs the
// server under --cpu-prof; PM_BENCH_STDERR=1 passes its stderr through.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildContainer } from '../dist/composition/container.js';
import { IDS } from '../dist/composition/service-ids.js';
import { settingsFromEnv } from '../dist/composition/settings.js';
import { machineInfo, saveBenchResult } from './lib/results.mjs';
import { seedBenchTracker } from './lib/seed.mjs';
import { fmt, round, table } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const DURATION = Number(arg('duration') ?? 8);
const WARM_UP = Number(arg('warmup') ?? 2);
const CONNECTIONS = Number(arg('connections') ?? 16);
const ITEMS = Number(arg('items') ?? 1000);
const DURABLE = process.argv.includes('--durable');
const HOT_HISTORY = 1000;
const SPREAD = 16;
const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const TARGETS = { spreadRps: 500, hotRps: 200, p99Ms: 100 };

const dir = mkdtempSync(join(tmpdir(), 'pm-bench-writes-'));
const root = join(dir, '.agents', 'pm');
let server;
const cleanup = () => {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', () => { cleanup(); process.exit(130); });
const env = { ...process.env, PM_ROOT: root, PM_ACTOR: 'bench', PM_MCP_PROFILE: 'core', ...(DURABLE ? { PM_DURABLE: '1' } : {}) };

function start() {
  server = spawn(process.execPath, [...(process.env.PM_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PM_BENCH_PROFILE}`] : []), join(here, '..', 'bin', 'pm-mcp-http.js'), '--host', '127.0.0.1', '--port', '0', '--no-init'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  server.stderr.on('data', (d) => { stderr += d; if (process.env.PM_BENCH_STDERR) process.stderr.write(d); });
  return new Promise((resolve, reject) => {
    createInterface({ input: server.stdout }).once('line', (line) => resolve(line.trim()));
    server.once('exit', (code) => reject(new Error(`pm-mcp-http exited (${code}): ${stderr}`)));
  });
}

async function stop() {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

const historyLines = (id) => readFileSync(join(root, 'history', `${id}.jsonl`), 'utf8').split('\n').filter(Boolean).length;

/**
 * One autocannon run of pm_comment over `ids` in turn. Returns the run and the writes the server
 * acknowledged (item and comment text: every text is unique), told apart per connection (one
 * request in flight per connection).
 */
async function run(url, ids, seconds, label) {
  let n = 0;
  const acked = [];
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    requests: [{
      setupRequest: (request, context) => {
        const id = ids[n++ % ids.length];
        const text = `${label} comment ${n}`;
        context.sent = { id, text };
        return {
          ...request,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'pm_comment', 'mcp-param-item-id': id },
          body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'pm_comment', arguments: { id, text }, _meta: META } }),
        };
      },
      onResponse: (status, body, context) => {
        if (status === 200 && body.includes('"receiptId"') && !body.includes('"isError":true')) acked.push(context.sent);
      },
    }],
  });
  return { result, acked };
}

/** Every comment text in an item's history, with how often it was written. */
function commentTexts(id) {
  const counts = new Map();
  for (const line of readFileSync(join(root, 'history', `${id}.jsonl`), 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line);
    if (entry.op !== 'comment') continue;
    for (const op of entry.patch) if (op.value?.text) counts.set(op.value.text, (counts.get(op.value.text) ?? 0) + 1);
  }
  return counts;
}

/** Acknowledged writes missing from a history, and texts written more than once. */
function audit(runs) {
  const problems = [];
  const byItem = new Map();
  for (const { acked } of runs) for (const { id, text } of acked) byItem.set(id, [...(byItem.get(id) ?? []), text]);
  for (const [id, texts] of byItem) {
    const written = commentTexts(id);
    for (const text of texts) if (!written.has(text)) problems.push({ id, text, problem: 'acknowledged but not in the history' });
    for (const [text, count] of written) if (count > 1) problems.push({ id, text, problem: `written ${count} times` });
  }
  return problems;
}

function summary(result, acked) {
  const writes = acked.length;
  return {
    writes,
    writesPerSecond: round(writes / result.duration),
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const started = performance.now();
try {
  const loadAtStart = round(loadavg()[0]);
  await seedBenchTracker(root, ITEMS);
  const ids = readdirIds();
  const spread = ids.slice(0, SPREAD);
  const hot = ids[SPREAD];
  process.stdout.write(`seeded ${ITEMS} items; writing ${HOT_HISTORY - 1} comments on ${hot}… `);
  const container = await buildContainer(settingsFromEnv(env, dir, 'bench'));
  const tracker = await container.getAsync(IDS.ReadyTracker);
  for (let i = historyLines(hot); i < HOT_HISTORY; i++) await tracker.comment(hot, `history line ${i}`);
  await tracker.dispose();
  console.log(`done (${historyLines(hot)} history lines)`);
  const url = await start();
  const before = new Map([...spread, hot].map((id) => [id, historyLines(id)]));
  await run(url, ids.slice(SPREAD + 1, SPREAD + 1 + SPREAD), WARM_UP, 'warm-up');
  const spreadRun = await run(url, spread, DURATION, 'spread');
  const hotRun = await run(url, [hot], DURATION, 'hot');
  const rssMb = round(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024);
  await stop();
  const lost = audit([spreadRun, hotRun]);
  const validate = spawnSync(process.execPath, [join(here, '..', 'bin', 'pm.cjs'), 'validate'], { env, encoding: 'utf8' });
  const results = { spread: summary(spreadRun.result, spreadRun.acked), hot: summary(hotRun.result, hotRun.acked), hotHistoryLinesAtStart: before.get(hot), serverPeakRssMb: rssMb, lost, validateExit: validate.status };
  const loadAtEnd = round(loadavg()[0]);
  console.log(`\npm_comment over pm-mcp-http, autocannon ${CONNECTIONS} connections, ${DURATION} s each; ${cpus().length} CPUs, node ${process.version}, load average ${loadAtStart} at start, ${loadAtEnd} at end; ${DURABLE ? 'PM_DURABLE=1' : 'default durability'}\n`);
  const rows = ['spread', 'hot'].map((k) => [k === 'spread' ? `spread over ${SPREAD} items` : `one item (${before.get(hot)} history lines)`, fmt(results[k].writesPerSecond), fmt(results[k].p50Ms), fmt(results[k].p99Ms), fmt(results[k].maxMs), String(results[k].non2xx + results[k].errors + results[k].timeouts)]);
  console.log(table(['run', 'writes/s', 'p50 ms', 'p99 ms', 'max ms', 'failed'], rows));
  console.log(`\nserver peak RSS ${fmt(rssMb)} MB; histories ${lost.length ? `WRONG: ${JSON.stringify(lost.slice(0, 5))}` : 'hold every acknowledged write exactly once'}; pm validate exit ${validate.status}`);
  const verdict = (ok) => (ok ? 'ok' : 'MISSED');
  console.log(`\nTargets: spread ${fmt(results.spread.writesPerSecond)}/s >= ${TARGETS.spreadRps} ${verdict(results.spread.writesPerSecond >= TARGETS.spreadRps)}; hot ${fmt(results.hot.writesPerSecond)}/s >= ${TARGETS.hotRps} ${verdict(results.hot.writesPerSecond >= TARGETS.hotRps)}; p99 ${fmt(Math.max(results.spread.p99Ms, results.hot.p99Ms))} ms <= ${TARGETS.p99Ms} ${verdict(Math.max(results.spread.p99Ms, results.hot.p99Ms) <= TARGETS.p99Ms)}`);
  if (Math.max(loadAtStart, loadAtEnd) > cpus().length) console.log('\nNote: the load average exceeded the number of CPUs; other processes shared the machine and these figures are deflated.');
  saveBenchResult('writes', { date: new Date().toISOString(), machine: machineInfo({ start: loadAtStart, end: loadAtEnd }), connections: CONNECTIONS, durationS: DURATION, durable: DURABLE, targets: TARGETS, results }, started);
  if (lost.length || validate.status !== 0) process.exitCode = 1;
} finally {
  cleanup();
}

function readdirIds() {
  return readdirSync(join(root, 'items')).filter((n) => n.endsWith('.md')).map((n) => n.slice(0, -3)).sort();
}
