#!/usr/bin/env node
// `npm run bench:interaction`: what MRTR state and durable tasks cost (docs/BENCHMARKS.md
// "bench:interaction"). Two parts, each side by side in one run:
//   seal/open  in process, the dist build's PmMcpRequestStateSealer over the node hasher and
//              id source with an in-memory key store and replay ledger: seal + open of a
//              consent-sized state, one-time (what pm_delete's consent does), against the
//              reference JSON.stringify + JSON.parse + base64url of the same payload (the floor
//              of any encoding); reported per operation and as a ratio.
//   tasks      over real Streamable HTTP, one pm-mcp-http on a seeded temp tracker:
//              pm_validate (--items=N, default 20: small, so the task's own cost shows) called
//              inline (tools/call, complete) against pm_validate as a durable
//              task (tools/call with the tasks extension, then tasks/get until completed, polling
//              back to back), run sequentially in interleaved rounds; reported as operations per
//              second and the task/inline ratio. A task costs at least one extra round trip and
//              two atomic record writes (create, complete).
// Every response is checked; any error makes the run INVALID (exit 1). Writes JSON to
// bench/results/. Options: --ops=N seal/open pairs per sample (default 5000), --samples=N
// (default 7), --rounds=N task rounds (default 6), --calls=N calls per round (default 40),
// --items=N tracker size (default 20).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { machineInfo, saveBenchResult } from './lib/results.mjs';
import { seedBenchTracker } from './lib/seed.mjs';
import { fmt, round, summarize, table } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const OPS = Number(arg('ops') ?? 5000);
const SAMPLES = Number(arg('samples') ?? 7);
const ROUNDS = Number(arg('rounds') ?? 6);
const CALLS = Number(arg('calls') ?? 40);
const ITEMS = Number(arg('items') ?? 20);
const VERSION = '2026-07-28';
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

const { PmMcpRequestStateSealer, MemoryMacKeyStore, MemoryReplayLedger } = await import(join(dist, 'sdk', 'index.js'));
const { NodeHasher } = await import(join(dist, 'adapters', 'node', 'node-hasher.js'));
const { CryptoIdSource } = await import(join(dist, 'adapters', 'node', 'crypto-id-source.js'));
const { SystemClock } = await import(join(dist, 'adapters', 'node', 'system-clock.js'));

// ---- seal/open ------------------------------------------------------------------------------

async function sealOpen() {
  const clock = new SystemClock();
  const sealer = new PmMcpRequestStateSealer({ hasher: new NodeHasher(), clock, ids: new CryptoIdSource(), keys: new MemoryMacKeyStore(clock), replays: new MemoryReplayLedger() });
  const state = { consent: 'delete:pm-a1b2c3' };
  const binding = { method: 'tools/call', params: { name: 'pm_delete', arguments: { id: 'pm-a1b2c3', expectedRevision: 3 } }, principal: 'oauth:alice' };
  const sealedLength = (await sealer.seal(state, binding, { once: true })).length;
  const pm = [];
  const floor = [];
  for (let sample = 0; sample < SAMPLES; sample++) {
    let t = performance.now();
    for (let i = 0; i < OPS; i++) {
      const sealed = await sealer.seal(state, binding, { once: true });
      const opened = await sealer.open(sealed, binding);
      if (opened.consent !== state.consent) throw new Error('INVALID: the opened state differs');
    }
    pm.push(((performance.now() - t) * 1000) / OPS);
    t = performance.now();
    for (let i = 0; i < OPS; i++) {
      const text = Buffer.from(JSON.stringify({ s: state, b: binding, n: i })).toString('base64url');
      const back = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
      if (back.s.consent !== state.consent) throw new Error('INVALID: the floor round trip differs');
    }
    floor.push(((performance.now() - t) * 1000) / OPS);
  }
  return { sealedLength, pmUs: summarize(pm), floorUs: summarize(floor) };
}

// ---- tasks over HTTP ------------------------------------------------------------------------

function startServer(cwd) {
  const child = spawn(process.execPath, [join(here, '..', 'bin', 'pm-mcp-http.js'), '--host', '127.0.0.1', '--port', '0', '--no-init'], {
    cwd,
    env: { PATH: process.env.PATH, HOME: cwd, PM_MCP_PROFILE: 'full', PM_ACTOR: 'bench' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`pm-mcp-http exited ${code}: ${stderr}`)));
  });
  return { child, url };
}

let nextId = 1;
async function post(url, method, params, capabilities = {}) {
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': capabilities } } };
  const name = method === 'tools/call' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
    body: JSON.stringify(body),
  });
  const reply = await response.json();
  if (!response.ok || reply.error) throw new Error(`INVALID: ${method} answered ${response.status} ${JSON.stringify(reply.error ?? reply)}`);
  return reply.result;
}

async function inlineCall(url) {
  const result = await post(url, 'tools/call', { name: 'pm_validate', arguments: { limit: 5 } });
  if (result.resultType !== 'complete' || result.structuredContent?.items !== ITEMS) throw new Error(`INVALID: inline pm_validate gave ${JSON.stringify(result).slice(0, 200)}`);
}

async function taskCall(url) {
  const created = await post(url, 'tools/call', { name: 'pm_validate', arguments: { limit: 5 } }, TASKS);
  if (created.resultType !== 'task') throw new Error(`INVALID: expected a task, got ${created.resultType}`);
  let polls = 0;
  for (;;) {
    polls++;
    const task = await post(url, 'tasks/get', { taskId: created.taskId }, TASKS);
    if (task.status === 'completed') {
      if (task.result?.structuredContent?.items !== ITEMS) throw new Error('INVALID: the task result differs from the inline one');
      return polls;
    }
    if (task.status !== 'working') throw new Error(`INVALID: task ended ${task.status}: ${JSON.stringify(task.error)}`);
  }
}

async function tasks() {
  const dir = mkdtempSync(join(tmpdir(), 'pm-bench-interaction-'));
  await seedBenchTracker(join(dir, '.agents', 'pm'), ITEMS);
  const server = startServer(dir);
  try {
    const url = await server.url;
    for (let i = 0; i < 5; i++) {
      await inlineCall(url);
      await taskCall(url);
    }
    const perSecond = { inline: [], task: [] };
    let polls = 0;
    for (let roundNo = 0; roundNo < ROUNDS; roundNo++) {
      const order = roundNo % 2 === 0 ? ['inline', 'task'] : ['task', 'inline'];
      for (const kind of order) {
        const t = performance.now();
        for (let i = 0; i < CALLS; i++) {
          if (kind === 'inline') await inlineCall(url);
          else polls += await taskCall(url);
        }
        perSecond[kind].push((CALLS * 1000) / (performance.now() - t));
      }
    }
    return { inlinePerS: summarize(perSecond.inline), taskPerS: summarize(perSecond.task), pollsPerTask: round(polls / (ROUNDS * CALLS)) };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => (server.child.exitCode !== null ? resolve() : server.child.once('exit', resolve)));
    rmSync(dir, { recursive: true, force: true });
  }
}

const startedAt = performance.now();
const load = loadavg()[0];
const seal = await sealOpen();
const task = await tasks();
const sealRatio = round(seal.pmUs.median / seal.floorUs.median);
const taskRatio = round(task.taskPerS.median / task.inlinePerS.median);
console.log(`bench:interaction on ${cpus().length} cores, load ${load.toFixed(2)}\n`);
console.log(table(['seal + open (one-time state)', 'median µs', 'p99 µs'], [
  ['pm sealer (HMAC-SHA256, bound, replay-checked)', fmt(seal.pmUs.median), fmt(seal.pmUs.p99)],
  ['floor: JSON + base64url round trip', fmt(seal.floorUs.median), fmt(seal.floorUs.p99)],
]));
console.log(`sealed state: ${seal.sealedLength} characters; pm/floor ${sealRatio}x\n`);
console.log(table([`pm_validate over HTTP (${ITEMS} items)`, 'median ops/s', 'mean ops/s'], [
  ['inline tools/call', fmt(task.inlinePerS.median), fmt(task.inlinePerS.mean)],
  ['as a task: create + tasks/get until done', fmt(task.taskPerS.median), fmt(task.taskPerS.mean)],
]));
console.log(`task/inline throughput ${taskRatio}x; ${task.pollsPerTask} tasks/get per task`);
saveBenchResult('interaction', { date: new Date().toISOString(), machine: machineInfo(load), options: { ops: OPS, samples: SAMPLES, rounds: ROUNDS, calls: CALLS, items: ITEMS }, seal: { ...seal, ratio: sealRatio }, tasks: { ...task, ratio: taskRatio } }, startedAt);
