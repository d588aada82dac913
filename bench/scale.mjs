#!/usr/bin/env node
// `npm run bench:scale`: pm-mcp-http scaled out (docs/BENCHMARKS.md "bench:scale";
// docs/DEPLOY.md). In one run, side by side: three pm-mcp-http instances over one seeded temp
// tracker, sharing tasks, replay protection and change fan-out through one PostgreSQL on the
// same machine (PM_MCP_TASK_STORE), and three nginx round-robin balancers in front of 1, 2 and
// 3 of them — every request goes through nginx, so the 1-instance figure carries the same
// proxy hop as the others. For tools/list, tools/call pm_get {id} and task creation (tools/call
// pm_validate with the tasks extension declared: a CreateTaskResult, the work then running on
// the instance that took it), autocannon runs rounds interleaved across the three balancers
// (order rotated per round); req/s is all requests over all measured seconds, p50/p99 the
// median of the rounds. Every body is checked; a bad response makes the run INVALID (exit 1).
// CPU seconds per component (pm instances, nginx, PostgreSQL, the load generator) are read
// from /proc for each method, to show what limits scaling. Writes JSON to bench/results/.
// Options: --duration=S per balancer and method (default 9), --rounds=N (default 3),
// --warmup=S (default 2), --connections=N (default 32), --task-connections=N (default 8).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { machineInfo, saveBenchResult } from './lib/results.mjs';
import { freePort, startNginx, startPostgres } from './lib/scale-cluster.mjs';
import { startSeededRun } from './lib/seed.mjs';
import { fmt, round, table } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const DURATION = Number(arg('duration') ?? 9);
const WARM_UP = Number(arg('warmup') ?? 2);
const ROUNDS = Number(arg('rounds') ?? 3);
const CONNECTIONS = Number(arg('connections') ?? 32);
/** Task creation starts work on the instance: fewer clients, each creating its next task once the last was accepted. */
const TASK_CONNECTIONS = Number(arg('task-connections') ?? 8);
const ITEMS = 200;
const SIZES = [1, 2, 3];
const VERSION = '2026-07-28';
const KINDS = ['list', 'get', 'task'];
const LABEL = { list: 'tools/list', get: 'tools/call pm_get', task: 'task creation (pm_validate)' };

const dir = mkdtempSync(join(tmpdir(), 'pm-bench-scale-'));
const root = join(dir, '.agents', 'pm');
const children = [];
const stops = [];
const cleanup = async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

function startInstance(name, env) {
  const child = spawn(process.execPath, [join(here, '..', 'bin', 'pm-mcp-http.js'), '--host', '127.0.0.1', '--port', '0', '--no-init'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve({ name, child, url: line.trim(), port: Number(new URL(line.trim()).port), stderr: () => stderr }));
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before printing its URL: ${stderr}`)));
  });
}

function requestOf(kind, itemId) {
  const meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': kind === 'task' ? { extensions: { 'io.modelcontextprotocol/tasks': {} } } : {} };
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION };
  if (kind === 'list') return { headers: { ...base, 'mcp-method': 'tools/list' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }) };
  if (kind === 'get') return { headers: { ...base, 'mcp-method': 'tools/call', 'mcp-name': 'pm_get', 'mcp-param-item-id': itemId }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'pm_get', arguments: { id: itemId }, _meta: meta } }) };
  return { headers: { ...base, 'mcp-method': 'tools/call', 'mcp-name': 'pm_validate' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'pm_validate', arguments: {}, _meta: meta } }) };
}

const verifiers = {
  list: (body) => body.startsWith('{') && body.includes('"tools":[') && !body.includes('"error":{"code"'),
  get: (body) => body.startsWith('{') && body.includes('"structuredContent"') && !body.includes('"error":{"code"'),
  task: (body) => body.startsWith('{') && body.includes('"resultType":"task"') && body.includes('"taskId":"tsk_'),
};

/** CPU seconds (user + system) of a process and all its descendants. */
function cpuSeconds(pid) {
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  const visit = (p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / tick;
      for (const child of readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) visit(Number(child));
    } catch {
      // gone meanwhile
    }
  };
  visit(pid);
  return total;
}

async function cannon(url, request, kind, duration) {
  const result = await autocannon({ url, method: 'POST', headers: request.headers, body: request.body, connections: kind === 'task' ? TASK_CONNECTIONS : CONNECTIONS, pipelining: 1, duration, verifyBody: verifiers[kind] });
  // The work of every task created in this round finishes before the next round starts (the
  // instances are shared between the balancers, and a backlog would load the next one).
  if (kind === 'task') await tasksSettled();
  return result;
}

let tasksSettled = async () => undefined;

const bad = (r) => r.non2xx + r.errors + r.timeouts + r.mismatches;
const median = (values) => {
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

try {
  const { started, loadAtStart, itemId } = await startSeededRun(root, ITEMS);
  const pg = await startPostgres();
  stops.push(async () => rmSync(pg.dir, { recursive: true, force: true }), () => pg.stop());
  const pgModule = (await import('pg')).default;
  const watcher = new pgModule.Client({ connectionString: pg.url });
  await watcher.connect();
  stops.push(() => watcher.end());
  tasksSettled = async () => {
    for (;;) {
      const { rows } = await watcher.query("SELECT count(*)::int AS n FROM pm_bench.tasks WHERE status = 'working'");
      if (rows[0].n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const ports = await Promise.all(SIZES.map(() => freePort()));
  const env = { PM_MCP_PROFILE: 'full', PM_ACTOR: 'bench', PM_ROOT: root, PM_MCP_TASK_STORE: pg.url, PM_MCP_PG_SCHEMA: 'pm_bench', PM_MCP_HTTP_ALLOWED_HOSTS: ports.map((p) => `127.0.0.1:${p}`).join(',') };
  const instances = [];
  for (let i = 0; i < SIZES.at(-1); i++) instances.push(await startInstance(`pm-${i + 1}`, env));
  const balancers = {};
  for (const [index, size] of SIZES.entries()) {
    const balancer = await startNginx(join(dir, `nginx-${size}`), ports[index], instances.slice(0, size).map((s) => s.port));
    stops.push(() => balancer.stop());
    balancers[size] = balancer;
  }
  // One request per balancer and method, checked in full.
  for (const size of SIZES) {
    for (const kind of KINDS) {
      const { headers, body } = requestOf(kind, itemId);
      const response = await fetch(balancers[size].url, { method: 'POST', headers, body });
      const text = await response.text();
      if (response.status !== 200 || !verifiers[kind](text)) throw new Error(`${size} instance(s) ${kind}: HTTP ${response.status} ${text.slice(0, 300)} ${instances[0].stderr()}`);
    }
  }

  const cpuOf = () => ({
    pm: instances.reduce((sum, s) => sum + cpuSeconds(s.child.pid), 0),
    nginx: SIZES.reduce((sum, size) => sum + cpuSeconds(balancers[size].pid), 0),
    postgres: cpuSeconds(pg.pid),
    client: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
  });
  const throughput = {};
  const cpu = {};
  const roundSeconds = DURATION / ROUNDS;
  for (const kind of KINDS) {
    const request = requestOf(kind, itemId);
    const warmUpBad = {};
    for (const size of SIZES) warmUpBad[size] = bad(await cannon(balancers[size].url, request, kind, WARM_UP));
    const rounds = Object.fromEntries(SIZES.map((s) => [s, []]));
    const cpuBefore = cpuOf();
    const wallBefore = performance.now();
    for (let r = 0; r < ROUNDS; r++) {
      const order = SIZES.map((_, i) => SIZES[(i + r) % SIZES.length]);
      process.stdout.write(`${LABEL[kind]} round ${r + 1}/${ROUNDS}:`);
      for (const size of order) {
        const result = await cannon(balancers[size].url, request, kind, roundSeconds);
        rounds[size].push({ requests: result.requests.total, seconds: result.duration || roundSeconds, p50Ms: result.latency.p50, p99Ms: result.latency.p99, bad: bad(result) });
        process.stdout.write(` ${size}x ${(result.requests.total / (result.duration || roundSeconds)).toFixed(0)}`);
      }
      console.log(' req/s');
    }
    const cpuAfter = cpuOf();
    const wall = (performance.now() - wallBefore) / 1000;
    const measured = SIZES.reduce((sum, size) => sum + rounds[size].reduce((n, x) => n + x.requests, 0), 0);
    cpu[kind] = Object.fromEntries(Object.keys(cpuAfter).map((k) => [k, { perSecond: round((cpuAfter[k] - cpuBefore[k]) / wall), msPerRequest: round(((cpuAfter[k] - cpuBefore[k]) * 1000) / Math.max(1, measured)) }]));
    throughput[kind] = Object.fromEntries(SIZES.map((size) => {
      const list = rounds[size];
      const requests = list.reduce((sum, x) => sum + x.requests, 0);
      const seconds = list.reduce((sum, x) => sum + x.seconds, 0);
      return [size, { rps: round(requests / seconds), p50Ms: median(list.map((x) => x.p50Ms)), p99Ms: median(list.map((x) => x.p99Ms)), p99MaxMs: Math.max(...list.map((x) => x.p99Ms)), requests, bad: list.reduce((sum, x) => sum + x.bad, 0) + warmUpBad[size], roundRps: list.map((x) => round(x.requests / x.seconds)) }];
    }));
  }

  const badCount = KINDS.reduce((sum, kind) => sum + SIZES.reduce((s, size) => s + throughput[kind][size].bad, 0), 0);
  const ratio = (kind, size) => round(throughput[kind][size].rps / throughput[kind][1].rps);
  const result = {
    date: new Date().toISOString(),
    machine: machineInfo(loadAtStart),
    method: {
      items: ITEMS,
      profile: 'full',
      connections: CONNECTIONS,
      taskConnections: TASK_CONNECTIONS,
      task: 'tools/call pm_validate declaring the tasks extension: the CreateTaskResult is answered once the record is in PostgreSQL; the validation of the 200 items then runs on the instance that took it, in the same event loop, so task creation measures the whole task cost; after every round the bench waits until no task is working',
      warmUpSeconds: WARM_UP,
      durationSeconds: DURATION,
      rounds: ROUNDS,
      setup: 'three bin/pm-mcp-http.js instances (PM_MCP_TASK_STORE=postgres://, one PostgreSQL 15 on the same machine, fsync on) over one tracker; nginx 1 worker, round-robin, upstream keepalive, one balancer per instance count, all running together',
      aggregation: 'rounds interleaved across the balancers (order rotated); req/s = requests / measured seconds; p50/p99 = median of rounds',
      cpu: 'CPU seconds per wall second of each component while a method was measured (all three balancer sizes together), from /proc',
    },
    throughput,
    ratios: Object.fromEntries(KINDS.map((kind) => [kind, Object.fromEntries(SIZES.map((size) => [size, ratio(kind, size)]))])),
    cpu,
    loadAverageAtEnd: loadavg().map((v) => round(v)),
    badResponses: badCount,
    valid: badCount === 0,
  };

  const rows = [];
  for (const kind of KINDS) {
    rows.push([`${LABEL[kind]} req/s`, ...SIZES.map((s) => throughput[kind][s].rps.toFixed(0)), ...SIZES.slice(1).map((s) => `${ratio(kind, s).toFixed(2)}x`)]);
    rows.push([`${LABEL[kind]} p50 ms`, ...SIZES.map((s) => fmt(throughput[kind][s].p50Ms)), '', '']);
    rows.push([`${LABEL[kind]} p99 ms`, ...SIZES.map((s) => fmt(throughput[kind][s].p99Ms)), '', '']);
  }
  console.log(`\nautocannon ${CONNECTIONS} connections (task creation ${TASK_CONNECTIONS}) through nginx, ${WARM_UP} s warm-up + ${DURATION} s (${ROUNDS} interleaved rounds) per balancer and method; ${cpus().length} CPUs, node ${process.version}, load average at start ${loadAtStart.join(' ')}\n`);
  console.log(table(['measure', ...SIZES.map((s) => `${s} instance${s > 1 ? 's' : ''}`), '2 vs 1', '3 vs 1'], rows));
  console.log('\nCPU while measuring, pm instances / nginx / PostgreSQL / load generator: seconds per second, and ms per request');
  for (const kind of KINDS) {
    const parts = ['pm', 'nginx', 'postgres', 'client'];
    console.log(`  ${LABEL[kind].padEnd(28)} ${parts.map((k) => cpu[kind][k].perSecond.toFixed(2)).join(' / ')}   ${parts.map((k) => cpu[kind][k].msPerRequest.toFixed(3)).join(' / ')} ms`);
  }
  console.log(`load average at the end ${loadavg().map((v) => v.toFixed(2)).join(' ')} (other processes on the machine compete for the same ${cpus().length} CPUs)`);
  console.log(result.valid ? '\nvalid: every response checked' : `\nINVALID: ${badCount} bad responses`);
  saveBenchResult('scale', result, started);
  await cleanup();
  process.exit(result.valid ? 0 : 1);
} catch (error) {
  console.error(error);
  await cleanup();
  process.exit(1);
}
