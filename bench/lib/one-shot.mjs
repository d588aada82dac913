// One-shot invocations of the bundled CLI, each timed side by side with `node -e 0` in the same
// run (the floor: what any node process costs here), and pm-mcp's tools/call latency over stdio.
// Used by bench/tracker.mjs (docs/BENCHMARKS.md "bench:tracker").
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { PEOPLE, FILTERS, skewed } from './dataset.mjs';
import { StdioPeer } from './stdio-peer.mjs';
import { quantile, round } from './stats.mjs';
import { askWatcher } from '../../dist/adapters/node/socket-index-freshness.js';
import { watcherSocketPath } from '../../dist/adapters/node/index-watcher-protocol.js';
import { watcherIdentity } from '../../dist/composition/index-watcher.js';

const here = dirname(fileURLToPath(import.meta.url));
const PM = join(here, '..', '..', 'bin', 'pm.cjs');
const PM_MCP = join(here, '..', '..', 'bin', 'pm-mcp.cjs');
/** GNU time reports the peak RSS of the command it runs (the floor runs under it too). */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Runs `node ...argv` once; returns wall ms and peak RSS in MB (undefined without GNU time). */
export function runOnce(argv, env) {
  const command = TIME ? [TIME, ['-f', '%M', process.execPath, ...argv]] : [process.execPath, argv];
  const started = performance.now();
  const child = spawnSync(command[0], command[1], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`${argv.join(' ')} failed (${child.status}): ${child.stderr.slice(-2000)}`);
  const rssKb = TIME ? Number(child.stderr.trim().split('\n').pop()) : NaN;
  return { ms, rssMb: Number.isFinite(rssKb) ? rssKb / 1024 : undefined, stdout: child.stdout };
}

/** The CLI commands timed per scale, each a function of the sample index. */
function commands(state, random) {
  const id = () => state.ids[Math.floor(random() * state.ids.length)];
  const listArgs = (i) => {
    const f = FILTERS[i % FILTERS.length];
    return ['list', '--limit', '50', ...(f.status ? ['--status', f.status.join(',')] : []), ...(f.type ? ['--type', f.type.join(',')] : []), ...(f.tag ? ['--tag', f.tag.join(',')] : []), ...(f.assignee ? ['--assignee', f.assignee] : []), ...(f.sort ? ['--sort', f.sort] : [])];
  };
  return {
    get: () => ['get', id()],
    list: (i) => listArgs(i),
    next: (i) => ['next', ...(i % 2 ? ['--assignee', PEOPLE[i % PEOPLE.length]] : [])],
    search: (i) => ['search', [skewed(random, state.words), ...(i % 2 ? [skewed(random, state.words)] : [])].join(' ')],
    update: (i) => ['update', id(), '--title', `cli update ${i} ${skewed(random, state.words)}`],
  };
}

/**
 * Times each CLI command `samples` times; before each sample `node -e 0` runs once, so both see
 * the same machine state. Reports per command the median, the floor's median over the same
 * pairs, their ratio, and the peak RSS of the largest sample.
 */
export function measureCli(root, state, random, samples, watcher = 'off') {
  const env = { ...process.env, PM_ROOT: root, PM_ACTOR: 'bench', PM_INDEX_WATCHER: watcher };
  const out = {};
  for (const [name, argv] of Object.entries(commands(state, random))) {
    runOnce([PM, ...argv(0)], env);
    const times = [];
    const floors = [];
    let rss = 0;
    for (let i = 0; i < samples; i++) {
      floors.push(runOnce(['-e', '0'], env).ms);
      const run = runOnce([PM, ...argv(i + 1)], env);
      times.push(run.ms);
      rss = Math.max(rss, run.rssMb ?? 0);
    }
    const median = quantile(times, 0.5);
    const floor = quantile(floors, 0.5);
    out[name] = { medianMs: round(median), floorMs: round(floor), ratio: round(median / floor), peakRssMb: round(rss) };
  }
  return out;
}

/** The first query of a fresh clone: no index at all. */
export function firstQuery(root) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(root, '.runtime', `index.sqlite${suffix}`), { force: true });
  const env = { ...process.env, PM_ROOT: root, PM_ACTOR: 'bench', PM_INDEX_WATCHER: 'off' };
  const floor = runOnce(['-e', '0'], env).ms;
  const run = runOnce([PM, 'list', '--limit', '50'], env);
  return { ms: round(run.ms), floorMs: round(floor), peakRssMb: round(run.rssMb ?? NaN) };
}

/**
 * `count` items changed outside pm as `git pull` changes them (a new file renamed over the old
 * one, another title), then one `pm list`: what the next query costs after a pull.
 */
export function afterExternalChange(root, state, random, count, watcher = 'off') {
  const items = join(root, 'items');
  for (let i = 0; i < count; i++) {
    const file = join(items, `${state.ids[Math.floor(random() * state.ids.length)]}.md`);
    const text = readFileSync(file, 'utf8');
    writeFileSync(`${file}.pull`, text.replace(/^title: .*$/m, `title: pulled ${i} ${skewed(random, state.words)}`));
    renameSync(`${file}.pull`, file);
  }
  const env = { ...process.env, PM_ROOT: root, PM_ACTOR: 'bench', PM_INDEX_WATCHER: watcher };
  const floor = runOnce(['-e', '0'], env).ms;
  const run = runOnce([PM, 'list', '--limit', '50'], env);
  return { changed: count, ms: round(run.ms), floorMs: round(floor), peakRssMb: round(run.rssMb ?? NaN) };
}

/**
 * Starts the tracker's index watcher (`pm index watch`, as a query would start it) and waits
 * until it answers and has done its first full check; `stop()` ends it through `pm index stop`.
 */
export async function startWatcher(root) {
  const env = { ...process.env, PM_ROOT: root, PM_ACTOR: 'bench' };
  const child = spawn(process.execPath, [PM, 'index', 'watch'], { env, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const status = () => JSON.parse(runOnce([PM, 'index', 'status', '--json'], env).stdout);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const s = status();
    if (s.status?.pid === child.pid && s.status.sweeps > 0) break;
    if (Date.now() > deadline) throw new Error('the index watcher did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    pid: child.pid,
    status,
    async stop() {
      runOnce([PM, 'index', 'stop'], env);
      await exited;
    },
  };
}

/** The cost of one refresh round trip to a warm watcher with nothing changed: connect, request, settle, reply. */
export async function watcherRoundTrip(root, count) {
  const socket = watcherSocketPath(join(root, '.runtime'));
  const identity = watcherIdentity(root);
  const times = [];
  for (let i = 0; i < count + 10; i++) {
    const started = performance.now();
    const answer = await askWatcher(socket, identity, 'refresh', 5000);
    if (answer.kind !== 'reply' || !answer.reply.ok) throw new Error(`the watcher did not vouch: ${JSON.stringify(answer)}`);
    if (i >= 10) times.push(performance.now() - started);
  }
  return { n: count, p50: round(quantile(times, 0.5)), p99: round(quantile(times, 0.99)) };
}

/** pm-mcp over stdio: sequential tools/call of pm_list, pm_next and pm_search; p50/p99 and peak RSS. */
export async function measureMcp(root, state, random, calls) {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const peer = new StdioPeer('pm-mcp', [PM_MCP], { cwd: dirname(dirname(root)), env: { ...process.env, PM_ROOT: root, PM_ACTOR: 'bench' } });
  const tools = {
    pm_list: (i) => ({ ...FILTERS[i % FILTERS.length] }),
    // pm_next takes no assignee (the caller is the actor): half the calls filter by type instead.
    pm_next: (i) => (i % 2 ? { type: ['Task'] } : {}),
    pm_search: (i) => ({ query: [skewed(random, state.words), ...(i % 2 ? [skewed(random, state.words)] : [])].join(' ') }),
  };
  try {
    const call = async (name, args) => {
      const { message, ms } = await peer.request('tools/call', { name, arguments: args, _meta: meta });
      if (!message.result || message.result.isError) throw new Error(`pm-mcp ${name} failed: ${JSON.stringify(message).slice(0, 500)} ${peer.stderr}`);
      return ms;
    };
    const firstCallMs = await call('pm_list', tools.pm_list(0));
    const out = { firstCallMs: round(firstCallMs) };
    for (const [name, args] of Object.entries(tools)) {
      for (let i = 0; i < 20; i++) await call(name, args(i));
      const latencies = [];
      for (let i = 0; i < calls; i++) latencies.push(await call(name, args(i)));
      out[name] = { n: calls, p50: round(quantile(latencies, 0.5)), p99: round(quantile(latencies, 0.99)), max: round(Math.max(...latencies)) };
    }
    const status = readFileSync(`/proc/${peer.pid}/status`, 'utf8');
    out.peakRssMb = round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024);
    return out;
  } finally {
    await peer.close();
  }
}
