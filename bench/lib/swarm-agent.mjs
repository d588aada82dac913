#!/usr/bin/env node
// One agent of `npm run bench:swarm` (bench/swarm.mjs): a small process that takes work from pm
// until none is left — claim → comment → close. Its one argument is a JSON config:
//   { transport: 'http' | 'cli', url, token (a bearer token whose subject is the actor), pmBin, cwd, actor, leaseSeconds, loop: 'claim-next' | 'two-step', workMs? }
// `claim-next` asks pm_next {claim:true} (CLI: pm next --claim); `two-step` is the loop agents
// used before claim-next: pm_next, then pm_claim of what it named, which fails when another
// agent claimed it in between (a wasted claim). It waits for a line on stdin before starting
// (all agents start together), prints `claimed <id>` after every claim it won (the driver kills
// some agents on such a line: mid-claim), and `stats <json>` when done. The driver checks the
// invariants from the history files, never from what agents say. The tracker runs strict, so a
// close after our lease was taken over is refused (`lost`).
import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

const config = JSON.parse(process.argv[2]);
const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: config.actor, version: '1.0.0' } };
const stats = { actor: config.actor, claimMs: [], nextMs: [], claims: 0, wasted: 0, lost: 0, closed: 0, idle: 0, errors: [] };
let requestId = 0;

/** One tools/call over pm-mcp-http: the structured result, or `{ error }` for a tool or protocol error. */
async function call(name, args) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: ++requestId, method: 'tools/call', params: { name, arguments: args, _meta: META } });
  const text = await post(body, { 'mcp-name': name });
  const message = JSON.parse(text.startsWith('{') ? text : text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).at(-1));
  if (message.error) return { error: message.error.message };
  if (message.result?.isError) return { error: message.result.content?.[0]?.text ?? 'tool error' };
  return message.result.structuredContent;
}

// node:http over one kept-alive connection rather than fetch: 64 agents share two cores with
// the server, and fetch's per-call CPU (several times http.request's) would be the agents'
// load in claim-next's tail, not pm's.
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', authorization: `Bearer ${config.token}` };

function post(body, extra) {
  return new Promise((resolve, reject) => {
    const req = request(config.url, { method: 'POST', agent: keepAlive, headers: { ...headers, ...extra, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(text));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One `pm` call: its parsed --json output, or `{ error }` on a non-zero exit. */
function pm(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [config.pmBin, ...args, '--json'], { cwd: config.cwd, env: { ...process.env, PM_ACTOR: config.actor } }, (error, stdout, stderr) => {
      if (error) resolve({ error: stderr.trim() || error.message });
      else resolve(JSON.parse(stdout));
    });
  });
}

const lease = config.transport === 'cli' ? `${config.leaseSeconds}s` : config.leaseSeconds;
const ops = config.transport === 'cli'
  ? {
    claimNext: () => pm(['next', '--claim', '--lease', lease]),
    next: () => pm(['next']),
    claim: (id) => pm(['claim', id, '--lease', lease]),
    comment: (id, text) => pm(['comment', id, text]),
    close: (id) => pm(['close', id, '--evidence', `done by ${config.actor}`]),
  }
  : {
    claimNext: () => call('pm_next', { claim: true, leaseSeconds: lease, alternatives: 0 }),
    next: () => call('pm_next', { alternatives: 0 }),
    claim: (id) => call('pm_claim', { id, leaseSeconds: lease }),
    comment: (id, text) => call('pm_comment', { id, text }),
    close: (id) => call('pm_close', { id, evidence: `done by ${config.actor}` }),
  };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * True when nothing is left for anybody. next's counts cover the candidates only (open items and
 * expired claims): an item in progress under a live claim — perhaps of a killed agent, offered
 * again once its lease runs out — is not among them, so a list of unfinished items decides.
 */
async function drained(counts) {
  if (!counts || counts.open !== 0) return false;
  const unfinished = config.transport === 'cli' ? await pm(['list', '--status', 'open,in_progress', '--limit', '1']) : await call('pm_list', { status: ['open', 'in_progress'], limit: 1 });
  return !unfinished.error && unfinished.items.length === 0;
}

/** Takes one item: the claimed id, `null` when nothing is ready now, `undefined` when all is done. */
async function take() {
  if (config.loop === 'claim-next') {
    const started = performance.now();
    const result = await ops.claimNext();
    stats.claimMs.push(performance.now() - started);
    if (result.error) return void stats.errors.push(`claim-next: ${result.error}`) ?? null;
    if (result.item) return result.item.id;
    return (await drained(result.counts)) ? undefined : null;
  }
  const started = performance.now();
  const next = await ops.next();
  stats.nextMs.push(performance.now() - started);
  if (next.error) return void stats.errors.push(`next: ${next.error}`) ?? null;
  if (!next.item) return (await drained(next.counts)) ? undefined : null;
  const claimStarted = performance.now();
  const claimed = await ops.claim(next.item.id);
  stats.claimMs.push(performance.now() - claimStarted);
  if (claimed.error) {
    stats.wasted++; // somebody claimed it between our next and our claim
    return null;
  }
  return next.item.id;
}

async function work() {
  let idleMs = 50;
  // A paced agent joins at a random point of its work cycle, as agents of a running swarm are:
  // 64 agents asking in the same millisecond is the busy-loop runs' burst, measured there.
  if (config.workMs) await sleep(config.workMs * Math.random());
  for (;;) {
    const id = await take();
    if (id === undefined) return;
    if (id === null) {
      stats.idle++;
      await sleep(idleMs + Math.random() * idleMs); // blocked work or live claims of others: wait, then ask again
      idleMs = Math.min(1000, idleMs * 2);
      continue;
    }
    idleMs = 50;
    stats.claims++;
    process.stdout.write(`claimed ${id}\n`);
    const commented = await ops.comment(id, `working on it (${config.actor})`);
    if (commented.error) stats.errors.push(`comment ${id}: ${commented.error}`);
    if (config.workMs) await sleep(config.workMs * (0.5 + Math.random())); // the work itself (paced runs)
    const closed = await ops.close(id);
    if (closed.error && /claimed by/.test(closed.error)) stats.lost++; // our lease ran out and was taken over: refused (strict)
    else if (closed.error) stats.errors.push(`close ${id}: ${closed.error}`);
    else stats.closed++;
  }
}

createInterface({ input: process.stdin }).once('line', async () => {
  try {
    await work();
  } catch (error) {
    stats.errors.push(String(error?.stack ?? error));
  }
  const cpu = process.cpuUsage();
  stats.cpuMs = (cpu.user + cpu.system) / 1000;
  process.stdout.write(`stats ${JSON.stringify(stats)}\n`);
  process.exit(0);
});
// Warm up before saying ready: the first calls of a process load and compile its HTTP client
// and JSON paths, and 64 agents doing that at once on two cores would put their process
// start-up, not pm, into claim-next's tail. Three read-only calls, not measured.
if (config.transport === 'http') for (let i = 0; i < 3; i++) await call('pm_list', { limit: 1 });
process.stdout.write('ready\n');
