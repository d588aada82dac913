#!/usr/bin/env node
// `npm run bench:swarm`: many agents, one backlog (docs/BENCHMARKS.md "bench:swarm"). For each
// agent count N, a fresh temp tracker holds M open items in dependency chains; one pm-mcp-http
// serves it on 127.0.0.1 and N agent processes (bench/lib/swarm-agent.mjs: fetch against the
// server) drain it, claim → comment → close, until nothing is left. A quarter of the agents are
// SIGKILLed right after a claim (mid-claim), so their items wait for the short lease to run out
// and are taken over. Each N runs with claim-next (pm_next {claim:true}) and with the two-step
// loop (pm_next, then pm_claim; its failed claims are wasted). A CLI variant runs agents that
// call the `pm` bin. Afterwards the history files alone are audited (swarm-backlog.mjs): double
// claims, premature claims (a blocker still open), closes without the winning claim, items left
// unclosed — all must be 0. Finally one-shot `pm next --claim` is timed against `node -e 0` at
// 100,000 items.
// Options: --quick (N = 1, 8, 32; fewer items; smaller CLI run; 10k items one-shot)
// --agents=1,8,32,64 --items=1000 --chain=5 --lease=5 --cli-agents=8 --cli-items=80
// --one-shot-items=100000 --loops=claim-next,two-step --paced-agents=64 --paced-work-ms=1000 (0: no paced run) --agent-nice=10 (0: agents at the server's priority). PM_BENCH_PROFILE=<dir> runs the server under --cpu-prof.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { runOnce } from './lib/one-shot.mjs';
import { machineInfo, saveBenchResult } from './lib/results.mjs';
import { seedBenchTracker } from './lib/seed.mjs';
import { auditSwarm, seedSwarmBacklog } from './lib/swarm-backlog.mjs';
import { fmt, quantile, round, table } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const PM = join(here, '..', 'bin', 'pm.cjs');
const AGENT = join(here, 'lib', 'swarm-agent.mjs');
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const quick = process.argv.includes('--quick');
const AGENTS = (arg('agents') ?? (quick ? '1,8,32' : '1,8,32,64')).split(',').map(Number).filter((n) => n > 0); // --agents=0: the paced run alone
const ITEMS = Number(arg('items') ?? (quick ? 300 : 1000));
const CHAIN = Number(arg('chain') ?? 5);
const LEASE_S = Number(arg('lease') ?? 5);
const CLI_AGENTS = Number(arg('cli-agents') ?? 8);
const CLI_ITEMS = Number(arg('cli-items') ?? (quick ? 40 : 80));
const ONE_SHOT_ITEMS = Number(arg('one-shot-items') ?? (quick ? 10_000 : 100_000));
const LOOPS = (arg('loops') ?? 'claim-next,two-step').split(',');
const PACED_AGENTS = Number(arg('paced-agents') ?? 64);
const PACED_WORK_MS = Number(arg('paced-work-ms') ?? 1000);
const KILL_SHARE = 0.25;
const AGENT_NICE = Number(arg('agent-nice') ?? 10);
const RUN_TIMEOUT_MS = 300_000;
const TARGETS = { throughput64vs8: 0.8, claimP99Ms64: 50, oneShotRatio: 5 };

const temps = [];
const children = new Set();
const cleanup = () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', () => { cleanup(); process.exit(130); });

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

// Each agent is its own actor, as agents sharing a server are in production: a bearer token per
// agent whose subject pm records as the actor (docs/AUTH.md). Without a principal every agent
// would be PM_ACTOR, and the audit could not tell one agent's claim from another's.
const AUTH = { issuer: 'https://swarm.bench.invalid', audience: 'pm-bench-swarm', secret: randomBytes(32).toString('hex') };
const tokenFor = (actor) => new SignJWT({ scope: 'pm:read pm:write' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(AUTH.issuer).setAudience(AUTH.audience).setSubject(actor).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(AUTH.secret));

/** Starts pm-mcp-http on the tracker in `dir`, tokens required; resolves with its URL and the process. */
function startServer(dir, root) {
  const env = {
    ...process.env, PM_ROOT: root, PM_ACTOR: 'swarm', PM_MCP_PROFILE: 'core', PM_LOCK_TIMEOUT_MS: '60000',
    PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: AUTH.issuer, PM_MCP_AUTH_AUDIENCE: AUTH.audience, PM_MCP_AUTH_SECRET: AUTH.secret,
  };
  const server = track(spawn(process.execPath, [...(process.env.PM_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PM_BENCH_PROFILE}`] : []), join(here, '..', 'bin', 'pm-mcp-http.js'), '--host', '127.0.0.1', '--port', '0', '--no-init'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let stderr = '';
  server.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    createInterface({ input: server.stdout }).once('line', (line) => resolve({ url: line.trim(), server, stderr: () => stderr }));
    server.once('exit', (code) => reject(new Error(`pm-mcp-http exited (${code}): ${stderr}`)));
  });
}

async function stopServer(server) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/** Spawns one agent; resolves once it is ready. `onClaim(id)` hears every claim it reports. */
function spawnAgent(config, onClaim) {
  const child = track(spawn(process.execPath, [AGENT, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] }));
  // Agents run at a lower priority than the server: an agent's own CPU (its HTTP client, its
  // JSON) happens on the agent's machine in production, not beside the server it measures.
  try {
    setPriority(child.pid, AGENT_NICE);
  } catch {
    // Not permitted here: the agents then share the CPU with the server as equals.
  }
  const agent = { child, stats: undefined, claims: 0, killed: false };
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  agent.done = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'ready') resolve(agent);
      else if (line.startsWith('claimed ')) {
        agent.claims++;
        onClaim(agent, line.slice(8));
      } else if (line.startsWith('stats ')) agent.stats = JSON.parse(line.slice(6));
    });
    child.once('exit', (code) => reject(new Error(`agent ${config.actor} exited (${code}) before it was ready: ${stderr}`)));
  });
}

/**
 * One run: a fresh backlog of `items`, `n` agents over `transport` with `loop`, a quarter of
 * them killed mid-claim. Returns throughput, latencies, what the agents counted and the audit.
 */
async function swarmRun({ n, items, transport, loop, workMs = 0 }) {
  const dir = mkdtempSync(join(tmpdir(), 'pm-bench-swarm-'));
  temps.push(dir);
  const root = join(dir, '.agents', 'pm');
  const { ids, blockers } = await seedSwarmBacklog(root, items, CHAIN);
  const served = transport === 'http' ? await startServer(dir, root) : undefined;
  if (!served) runOnce([PM, 'list', '--limit', '1'], { ...process.env, PM_ROOT: root }); // the index, built before the clock starts
  const victims = Math.floor(n * KILL_SHARE);
  const perAgent = Math.max(1, Math.floor(items / n));
  let closesDone = 0;
  const agents = await Promise.all(Array.from({ length: n }, async (_, k) => spawnAgent(
    { transport, url: served?.url, token: served ? await tokenFor(`agent-${k}`) : undefined, pmBin: PM, cwd: dir, actor: `agent-${k}`, leaseSeconds: LEASE_S, loop, workMs },
    (agent) => {
      // A victim dies right after its chosen claim: mid-claim, its lease left to run out.
      if (agent.killAt !== undefined && agent.claims >= agent.killAt && !agent.killed) {
        agent.killed = true;
        agent.child.kill('SIGKILL');
      }
    },
  )));
  agents.forEach((agent, k) => {
    if (k % 4 === 3 && k / 4 < victims) agent.killAt = 1 + Math.floor(Math.random() * Math.max(1, perAgent / 2));
  });
  const cpuBefore = served ? processCpuMs(served.server.pid) : 0;
  const started = performance.now();
  for (const agent of agents) agent.child.stdin.write('go\n');
  const timeout = setTimeout(() => { for (const agent of agents) agent.child.kill('SIGKILL'); }, RUN_TIMEOUT_MS);
  await Promise.all(agents.map((agent) => agent.done));
  clearTimeout(timeout);
  const wallS = (performance.now() - started) / 1000;
  const serverCpuS = served ? (processCpuMs(served.server.pid) - cpuBefore) / 1000 : undefined;
  if (served) await stopServer(served.server);
  const audit = auditSwarm(root, ids, blockers);
  closesDone = audit.closes;
  const closeTimes = closeTimesOf(root, ids, audit);
  const stats = agents.filter((a) => a.stats).map((a) => a.stats);
  const claimMs = stats.flatMap((s) => s.claimMs);
  const nextMs = stats.flatMap((s) => s.nextMs);
  // Each agent's first claim-next meets a server whose write path has not run yet; the rest is
  // the steady state. Both are reported, apart.
  const laterClaimMs = stats.flatMap((s) => s.claimMs.slice(1));
  const firstClaimMs = stats.map((s) => s.claimMs[0]).filter((ms) => ms !== undefined);
  const errors = stats.flatMap((s) => s.errors);
  return {
    n, items, transport, loop, workMs, killed: agents.filter((a) => a.killed).length, wallS: round(wallS), serverCpuS: serverCpuS === undefined ? undefined : round(serverCpuS),
    closesPerS: round(closesDone / wallS), steadyClosesPerS: steadyRate(closeTimes),
    claimP50Ms: round(quantile(claimMs, 0.5)), claimP99Ms: round(quantile(claimMs, 0.99)), laterClaimP99Ms: laterClaimMs.length ? round(quantile(laterClaimMs, 0.99)) : undefined, firstClaimMaxMs: firstClaimMs.length ? round(Math.max(...firstClaimMs)) : undefined, nextP50Ms: nextMs.length ? round(quantile(nextMs, 0.5)) : undefined,
    agentCpuS: round(stats.reduce((a, s) => a + s.cpuMs, 0) / 1000), liveAgents: stats.length,
    wastedClaims: stats.reduce((a, s) => a + s.wasted, 0), lostLeases: stats.reduce((a, s) => a + s.lost, 0), idlePolls: stats.reduce((a, s) => a + s.idle, 0), agentErrors: errors.length, firstErrors: errors.slice(0, 3),
    claims: audit.claims, claimActors: audit.claimActors, claimingAgents: agents.filter((a) => a.claims > 0).length, takeovers: audit.takeovers, doubleClaims: audit.doubleClaims.length, prematureClaims: audit.prematureClaims.length,
    badCloses: audit.badCloses.length, lateCloses: audit.lateCloses, untoldTakeovers: audit.untoldTakeovers.length, unclosed: audit.unclosed.length,
    problems: [...audit.doubleClaims, ...audit.prematureClaims, ...audit.badCloses, ...audit.untoldTakeovers].slice(0, 5),
    serverErrors: served ? served.stderr().split('\n').filter((l) => /error/i.test(l)).slice(0, 3) : [],
  };
}

/** Close times (ms) of every closed item, sorted, from the histories. */
function closeTimesOf(root, ids) {
  const times = [];
  for (const id of ids) {
    for (const line of readFileSync(join(root, 'history', `${id}.jsonl`), 'utf8').split('\n')) {
      if (line.includes('"op":"close"')) times.push(Date.parse(JSON.parse(line).at));
    }
  }
  return times.sort((a, b) => a - b);
}

/** Closes per second between the 10th and the 90th percentile close: the drain rate without start-up and the lease-expiry tail. */
function steadyRate(times) {
  if (times.length < 10) return NaN;
  const from = times[Math.floor(times.length * 0.1)];
  const to = times[Math.floor(times.length * 0.9)];
  return to > from ? round(((Math.floor(times.length * 0.9) - Math.floor(times.length * 0.1)) * 1000) / (to - from)) : NaN;
}

/** User + system CPU of a process so far, in ms (Linux /proc). */
function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** One-shot `pm next --claim` at `count` items, each sample after a `node -e 0`. */
async function oneShot(count, samples) {
  const dir = mkdtempSync(join(tmpdir(), 'pm-bench-swarm-oneshot-'));
  temps.push(dir);
  const root = join(dir, '.agents', 'pm');
  await seedBenchTracker(root, count);
  const env = { ...process.env, PM_ROOT: root, PM_ACTOR: 'bench' };
  runOnce([PM, 'list', '--limit', '1'], env); // first query builds the index
  runOnce([PM, 'next', '--claim', '--lease', '30s', '--json'], { ...env, PM_ACTOR: 'warm-up' });
  const times = [];
  const floors = [];
  for (let i = 0; i < samples; i++) {
    floors.push(runOnce(['-e', '0'], env).ms);
    times.push(runOnce([PM, 'next', '--claim', '--lease', '30s', '--json'], { ...env, PM_ACTOR: `one-shot-${i}` }).ms);
  }
  const median = quantile(times, 0.5);
  const floor = quantile(floors, 0.5);
  return { items: count, samples, medianMs: round(median), floorMs: round(floor), ratio: round(median / floor) };
}

const startedAt = performance.now();
try {
  const loadAtStart = loadavg().map(round);
  const runs = [];
  const row = (r) => [`${r.transport} ${r.loop}${r.workMs ? ' paced' : ''}`, r.n, r.killed, fmt(r.wallS), r.serverCpuS === undefined ? '-' : fmt(r.serverCpuS), fmt(r.agentCpuS), fmt(r.closesPerS), fmt(r.steadyClosesPerS), fmt(r.claimP50Ms), fmt(r.claimP99Ms), r.wastedClaims, r.lostLeases, r.takeovers, r.doubleClaims, r.prematureClaims, r.badCloses, r.unclosed];
  const header = ['run', 'N', 'killed', 'wall s', 'server cpu s', 'agents cpu s', 'closes/s', 'steady/s', 'claim p50', 'claim p99', 'wasted', 'lost', 'takeovers', 'double', 'premature', 'bad close', 'unclosed'];
  for (const n of AGENTS) {
    for (const loop of LOOPS) {
      process.stdout.write(`http ${loop}, ${n} agents, ${ITEMS} items… `);
      const r = await swarmRun({ n, items: ITEMS, transport: 'http', loop });
      runs.push(r);
      console.log(`${fmt(r.wallS)} s, ${fmt(r.steadyClosesPerS)} closes/s, claim p99 ${fmt(r.claimP99Ms)} ms, load ${round(loadavg()[0])}`);
    }
  }
  if (PACED_AGENTS > 0 && PACED_WORK_MS > 0) {
    // Agents that work between claim and close (0.5-1.5x the work time): claim-next's latency when 64 agents share the server, not 64 busy loops.
    process.stdout.write(`http claim-next paced (${PACED_WORK_MS} ms of work per item), ${PACED_AGENTS} agents, ${ITEMS} items… `);
    const r = await swarmRun({ n: PACED_AGENTS, items: ITEMS, transport: 'http', loop: 'claim-next', workMs: PACED_WORK_MS });
    runs.push(r);
    console.log(`${fmt(r.wallS)} s, claim p99 ${fmt(r.claimP99Ms)} ms, load ${round(loadavg()[0])}`);
  }
  if (CLI_AGENTS > 0) {
    process.stdout.write(`cli claim-next, ${CLI_AGENTS} agents, ${CLI_ITEMS} items… `);
    const r = await swarmRun({ n: CLI_AGENTS, items: CLI_ITEMS, transport: 'cli', loop: 'claim-next' });
    runs.push(r);
    console.log(`${fmt(r.wallS)} s`);
  }
  let one;
  if (ONE_SHOT_ITEMS > 0) {
    process.stdout.write(`one-shot pm next --claim at ${ONE_SHOT_ITEMS} items… `);
    one = await oneShot(ONE_SHOT_ITEMS, quick ? 3 : 7);
    console.log(`${fmt(one.medianMs)} ms, ${fmt(one.ratio)}x node -e 0`);
  }
  const loadAtEnd = loadavg().map(round);
  console.log(`\nSwarm: ${CHAIN}-item chains, lease ${LEASE_S} s, a quarter of the agents SIGKILLed mid-claim; ${cpus().length} CPUs, node ${process.version}, load average ${loadAtStart[0]} at start, ${loadAtEnd[0]} at end\n`);
  console.log(table(header, runs.map(row)));
  for (const r of runs) if (r.agentErrors || r.problems.length || r.serverErrors.length) console.log(`\n${r.transport} ${r.loop} N=${r.n}: ${r.agentErrors} agent errors ${JSON.stringify(r.firstErrors)}; problems ${JSON.stringify(r.problems)}; server ${JSON.stringify(r.serverErrors)}`);
  const verdict = (ok) => (ok ? 'ok' : 'MISSED');
  const at = (n, loop = 'claim-next') => runs.find((r) => r.transport === 'http' && r.loop === loop && r.n === n && !r.workMs);
  const paced = runs.find((r) => r.workMs);
  const invariantsHeld = runs.every((r) => r.claimActors === r.claimingAgents && r.doubleClaims === 0 && r.prematureClaims === 0 && r.badCloses === 0 && r.untoldTakeovers === 0 && r.unclosed === 0);
  const lines = [`invariants (each agent its own actor; 0 double, 0 premature, 0 bad closes, 0 unclosed in every run) ${verdict(invariantsHeld)}`];
  if (at(8) && at(64)) lines.push(`throughput at 64 / at 8 = ${fmt(at(64).steadyClosesPerS / at(8).steadyClosesPerS)} >= ${TARGETS.throughput64vs8} ${verdict(at(64).steadyClosesPerS >= TARGETS.throughput64vs8 * at(8).steadyClosesPerS)}`);
  if (at(64)) lines.push(`claim-next p99 at 64 agents in busy loops ${fmt(at(64).claimP99Ms)} ms <= ${TARGETS.claimP99Ms64} ${verdict(at(64).claimP99Ms <= TARGETS.claimP99Ms64)}`);
  if (paced) lines.push(`claim-next p99 at ${paced.n} working agents ${fmt(paced.claimP99Ms)} ms <= ${TARGETS.claimP99Ms64} ${verdict(paced.claimP99Ms <= TARGETS.claimP99Ms64)}`);
  if (paced?.laterClaimP99Ms !== undefined) lines.push(`(after each agent's first claim: p99 ${fmt(paced.laterClaimP99Ms)} ms; each agent's first claim up to ${fmt(paced.firstClaimMaxMs)} ms)`);
  if (one) lines.push(`one-shot pm next --claim at ${one.items} items ${fmt(one.ratio)}x node -e 0 <= ${TARGETS.oneShotRatio} ${verdict(one.ratio <= TARGETS.oneShotRatio)}`);
  console.log(`\nTargets: ${lines.join('; ')}`);
  if (Math.max(loadAtStart[0], loadAtEnd[0]) > cpus().length) console.log('\nNote: the load average exceeded the number of CPUs; other processes shared the machine and these figures are deflated.');
  saveBenchResult('swarm', { date: new Date().toISOString(), machine: machineInfo({ start: loadAtStart, end: loadAtEnd }), quick, chain: CHAIN, leaseSeconds: LEASE_S, killShare: KILL_SHARE, targets: TARGETS, runs, oneShot: one }, startedAt);
  if (!invariantsHeld) process.exitCode = 1;
} finally {
  cleanup();
}
