#!/usr/bin/env node
// `npm run bench:tracker`: the tracker benchmark (docs/BENCHMARKS.md "bench:tracker"). Seeds a temp
// tracker to 1k, 10k and 100k items and measures, at each scale:
// - one-shot CLI invocations of the bundled `pm` (get, list --limit 50, next, search, update),
//   each sample paired with a `node -e 0` run just before it, with the ratio to that floor and
//   the peak RSS of one invocation;
// - the first query of a fresh clone (no index) and the next query after 1,000 items changed
//   outside pm (renamed over, as git writes them);
// - the same one-shot commands and the query after external changes with the tracker's index
//   watcher running (warm), the cost of one refresh round trip to it and its peak RSS;
// - pm-mcp over stdio: tools/call pm_list, pm_next, pm_search latency (p50/p99) and peak RSS;
// - in-process (a long-lived host, as before): create/get/update through the real Tracker (node
//   adapters, real composition, the index followed by a directory watch), list (filtered,
//   limit 50), next and search warm, and the cold first query of a fresh process.
// Prints tables and target checks and writes the full results as JSON to bench/results/.
// Options: --scales=1000,10000  --quick (fewer samples).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { NodeFileSystem } from '../dist/adapters/node/node-file-system.js';
import { buildContainer } from '../dist/composition/container.js';
import { IDS } from '../dist/composition/service-ids.js';
import { settingsFromEnv } from '../dist/composition/settings.js';
import { initTracker } from '../dist/domain/tracker/init.js';
import { FILTERS, PEOPLE, TAGS, prng, skewed, vocabulary } from './lib/dataset.mjs';
import { machineInfo, saveBenchResult } from './lib/results.mjs';
import { afterExternalChange, firstQuery, measureCli, measureMcp, startWatcher, watcherRoundTrip } from './lib/one-shot.mjs';
import { seedItems } from './lib/seed.mjs';
import { fmt, round, summarize, table } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const scales = (arg('scales') ?? '1000,10000,100000').split(',').map(Number);
const quick = process.argv.includes('--quick');
const SAMPLES = quick
  ? { create: 20, get: 50, update: 40, list: 10, next: 10, search: 10 }
  : { create: 100, get: 300, update: 200, list: 40, next: 40, search: 40 };
const WARM_UP = quick ? { get: 30, update: 20, create: 5 } : { get: 150, update: 80, create: 20 };
const TARGETS = { get: 5, update: 5, list: 100, next: 100, search: 100 };
const CLI_SAMPLES = quick ? 3 : 5;
const MCP_CALLS = quick ? 60 : 200;
const CLI_OPS = ['get', 'list', 'next', 'search', 'update'];
/** The one-shot targets: ratio to `node -e 0` per scale, RSS, first query, after a pull, pm-mcp. */
const CLI_TARGETS = { ratio: { 10000: 3, 100000: 5 }, rssMb: 120, firstQueryMs: 20_000, afterChangeMs: 2000, mcpRssMb: 200, mcpP99Ms: 20 };
const OPS = ['create', 'get', 'update', 'list', 'next', 'search'];

const dir = mkdtempSync(join(tmpdir(), 'pm-bench-'));
const root = join(dir, '.agents', 'pm');
const cleanup = () => rmSync(dir, { recursive: true, force: true });
process.on('SIGINT', () => { cleanup(); process.exit(130); });

async function openTracker() {
  const container = await buildContainer(settingsFromEnv({ PM_ROOT: root, PM_ACTOR: 'bench' }, dir, 'bench'), 'node', { index: { follow: 'watch' } });
  return container.getAsync(IDS.Tracker);
}

async function time(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function sample(count, fn) {
  const out = [];
  for (let i = 0; i < count; i++) out.push(await time(() => fn(i)));
  return out;
}

/** A fresh node process opening the tracker: what a one-shot `pm list` pays. */
function coldOpen() {
  const started = performance.now();
  const child = spawnSync(process.execPath, [join(here, 'lib', 'cold-open.mjs'), root], { encoding: 'utf8' });
  const wallMs = performance.now() - started;
  if (child.status !== 0) throw new Error(`cold-open child failed: ${child.stderr}`);
  return { ...JSON.parse(child.stdout.trim().split('\n').pop()), processWallMs: wallMs };
}

async function measureScale(scale, state) {
  const random = state.random;
  const ids = state.ids;
  const seedStart = performance.now();
  seedItems(root, scale - state.count, state);
  state.count = scale;
  const seedMs = performance.now() - seedStart;

  const fresh = firstQuery(root);
  const coldWithSnapshot = coldOpen();

  const tracker = await openTracker();
  const firstQueryMs = await time(() => tracker.list({ status: ['open'], limit: 50 }));
  for (let i = 0; i < 3; i++) {
    await tracker.list(FILTERS[i]);
    await tracker.next({});
    await tracker.search({ query: skewed(random, state.words) });
  }
  const randomId = () => ids[Math.floor(random() * ids.length)];
  // Warm the JIT on the write path too, so the smallest scale is not measured cold.
  for (let i = 0; i < WARM_UP.get; i++) await tracker.get(randomId());
  for (let i = 0; i < WARM_UP.update; i++) await tracker.update(randomId(), { title: `warm-up ${scale}-${i}` });
  for (let i = 0; i < WARM_UP.create; i++) {
    ids.push((await tracker.create({ title: `warm-up create ${scale}-${i}` })).item.id);
    state.count++;
  }
  const samples = {};
  samples.get = await sample(SAMPLES.get, () => tracker.get(randomId()));
  samples.list = await sample(SAMPLES.list, (i) => tracker.list(FILTERS[i % FILTERS.length]));
  samples.next = await sample(SAMPLES.next, (i) => tracker.next(i % 2 ? { assignee: PEOPLE[i % PEOPLE.length] } : {}));
  samples.search = await sample(SAMPLES.search, (i) => {
    const words = [skewed(random, state.words)];
    if (i % 2) words.push(skewed(random, state.words));
    return tracker.search({ query: words.join(' ') });
  });
  samples.update = await sample(SAMPLES.update, (i) => {
    const input = { title: `bench update ${scale}-${i} ${skewed(random, state.words)}` };
    if (i % 3 === 1) input.priority = i % 5;
    if (i % 3 === 2) input.addTags = [TAGS[i % TAGS.length]];
    return tracker.update(randomId(), input);
  });
  samples.create = await sample(SAMPLES.create, async (i) => {
    const parent = i % 4 === 0 && state.epics.length ? state.epics[Math.floor(random() * state.epics.length)] : undefined;
    const { item } = await tracker.create({
      title: `bench create ${scale}-${i} ${skewed(random, state.words)}`,
      body: `${skewed(random, state.words)} ${skewed(random, state.words)} created by the benchmark`,
      tags: [TAGS[i % TAGS.length]],
      priority: i % 5,
      ...(parent ? { parent } : {}),
    });
    ids.push(item.id);
    state.count++;
  });
  // The first list after a burst of writes follows the changes log: report it separately.
  const listAfterWritesMs = await time(() => tracker.list(FILTERS[0]));
  await tracker.dispose();
  const cli = measureCli(root, state, random, CLI_SAMPLES);
  const pulled = afterExternalChange(root, state, random, Math.min(1000, Math.floor(scale / 10)));
  // The same one-shot commands with the tracker's index watcher running (warm).
  const watcher = await startWatcher(root);
  let watched;
  try {
    watched = {
      cli: measureCli(root, state, random, CLI_SAMPLES, 'on'),
      roundTrip: await watcherRoundTrip(root, quick ? 50 : 200),
      afterExternalChange: afterExternalChange(root, state, random, Math.min(1000, Math.floor(scale / 10)), 'on'),
      watcherRssMb: round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${watcher.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024),
      status: watcher.status().status,
    };
  } finally {
    await watcher.stop();
  }
  const mcp = await measureMcp(root, state, random, MCP_CALLS);
  const stats = Object.fromEntries(OPS.map((op) => [op, summarize(samples[op])]));
  return {
    scale,
    items: state.count,
    seedMs: round(seedMs),
    ops: stats,
    inProcessFirstQueryMs: round(firstQueryMs),
    listAfterWritesMs: round(listAfterWritesMs),
    firstQuery: fresh,
    coldWithSnapshot: roundAll(coldWithSnapshot),
    cli,
    afterExternalChange: pulled,
    watched,
    mcp,
    peakRssMb: round(process.resourceUsage().maxRSS / 1024),
  };
}

function roundAll(record) {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, round(v)]));
}

/** The 1-minute load average: on a shared machine it explains most run-to-run noise. */
const load = () => round(loadavg()[0]);

function report(results, loadAtStart, loadAtEnd) {
  const label = (n) => (n >= 1000 ? `${n / 1000}k` : String(n));
  const first = results[0];
  const last = results[results.length - 1];
  const growth = (a, b) => (a > 0 ? `${(b / a).toFixed(1)}x` : '-');
  const header = ['operation', ...results.flatMap((r) => [`${label(r.scale)} med`, `${label(r.scale)} p99`]), `med ${label(first.scale)}→${label(last.scale)}`];
  const rows = OPS.map((op) => [op, ...results.flatMap((r) => [fmt(r.ops[op].median), fmt(r.ops[op].p99)]), growth(first.ops[op].median, last.ops[op].median)]);
  const once = (name, pick) => [name, ...results.flatMap((r) => [fmt(pick(r)), '']), growth(pick(first), pick(last))];
  rows.push(once('cold: fresh process, index present', (r) => r.coldWithSnapshot.openMs + r.coldWithSnapshot.firstQueryMs));
  rows.push(once('cold: whole process (wall)', (r) => r.coldWithSnapshot.processWallMs));
  rows.push(once('first query, in-process', (r) => r.inProcessFirstQueryMs));
  rows.push(once(`list after ${SAMPLES.update + SAMPLES.create} writes`, (r) => r.listAfterWritesMs));
  rows.push(once('peak RSS MB (bench process)', (r) => r.peakRssMb));
  rows.push(once('peak RSS MB (cold child, index present)', (r) => r.coldWithSnapshot.rssMb));
  console.log(`\nIn process (a long-lived host). Times in ms (median / p99); ${cpus().length} CPUs, node ${process.version}, load average ${loadAtStart} at start, ${loadAtEnd} at end\n`);
  console.log(table(header, rows));
  reportOneShot(results);
  if (Math.max(loadAtStart, loadAtEnd) > cpus().length) {
    console.log(`\nNote: the load average exceeded the number of CPUs; other processes shared the machine and these times are inflated.`);
  }
  if (last.scale >= 100_000) {
    console.log(`\nTargets at ${label(last.scale)}:`);
    for (const [op, target] of Object.entries(TARGETS)) {
      const median = last.ops[op].median;
      console.log(`  ${op.padEnd(7)} median ${fmt(median).padStart(7)} ms  target < ${target} ms  ${median < target ? 'ok' : 'MISSED'}`);
    }
  }
}

function reportOneShot(results) {
  const label = (n) => (n >= 1000 ? `${n / 1000}k` : String(n));
  const header = ['one-shot CLI', ...results.flatMap((r) => [`${label(r.scale)} ms`, 'x floor', 'RSS MB'])];
  const rows = CLI_OPS.map((op) => [op, ...results.flatMap((r) => [fmt(r.cli[op].medianMs), `${r.cli[op].ratio.toFixed(1)}x`, fmt(r.cli[op].peakRssMb)])]);
  rows.push(['node -e 0 (floor)', ...results.flatMap((r) => [fmt(r.cli.list.floorMs), '', ''])]);
  rows.push(['first query, no index', ...results.flatMap((r) => [fmt(r.firstQuery.ms), `${(r.firstQuery.ms / r.firstQuery.floorMs).toFixed(1)}x`, fmt(r.firstQuery.peakRssMb)])]);
  rows.push(['list after N external changes', ...results.flatMap((r) => [`${fmt(r.afterExternalChange.ms)} (N=${r.afterExternalChange.changed})`, '', fmt(r.afterExternalChange.peakRssMb)])]);
  console.log(`\nOne invocation of bin/pm.cjs (median of ${CLI_SAMPLES}, each after a node -e 0 in the same run); PM_INDEX_WATCHER=off: every query checks every item file\n`);
  console.log(table(header, rows));
  const watchedRows = CLI_OPS.map((op) => [op, ...results.flatMap((r) => [fmt(r.watched.cli[op].medianMs), `${r.watched.cli[op].ratio.toFixed(1)}x`, fmt(r.watched.cli[op].peakRssMb)])]);
  watchedRows.push(['node -e 0 (floor)', ...results.flatMap((r) => [fmt(r.watched.cli.list.floorMs), '', ''])]);
  watchedRows.push(['list after N external changes', ...results.flatMap((r) => [`${fmt(r.watched.afterExternalChange.ms)} (N=${r.watched.afterExternalChange.changed})`, '', fmt(r.watched.afterExternalChange.peakRssMb)])]);
  watchedRows.push(['refresh round trip p50 / p99', ...results.flatMap((r) => [`${fmt(r.watched.roundTrip.p50)} / ${fmt(r.watched.roundTrip.p99)}`, '', ''])]);
  watchedRows.push(['watcher peak RSS MB', ...results.flatMap((r) => [fmt(r.watched.watcherRssMb), '', ''])]);
  console.log(`\nThe same with the tracker's index watcher running (warm; PM_INDEX_WATCHER=on)\n`);
  console.log(table(header, watchedRows));
  const mcpHeader = ['pm-mcp tools/call', ...results.flatMap((r) => [`${label(r.scale)} p50`, 'p99'])];
  const mcpRows = ['pm_list', 'pm_next', 'pm_search'].map((tool) => [tool, ...results.flatMap((r) => [fmt(r.mcp[tool].p50), fmt(r.mcp[tool].p99)])]);
  mcpRows.push(['first call (full check)', ...results.flatMap((r) => [fmt(r.mcp.firstCallMs), ''])]);
  mcpRows.push(['peak RSS MB', ...results.flatMap((r) => [fmt(r.mcp.peakRssMb), ''])]);
  console.log(`\npm-mcp over stdio, ${MCP_CALLS} sequential calls per tool (ms)\n`);
  console.log(table(mcpHeader, mcpRows));
  console.log('\nOne-shot targets:');
  const verdict = (ok) => (ok ? 'ok' : 'MISSED');
  for (const r of results) {
    const limit = CLI_TARGETS.ratio[r.scale];
    if (limit) for (const op of CLI_OPS) console.log(`  ${label(r.scale).padEnd(5)} ${op.padEnd(7)} ${r.cli[op].ratio.toFixed(1)}x floor (watcher: ${r.watched.cli[op].ratio.toFixed(1)}x)  target <= ${limit}x  ${verdict(r.cli[op].ratio <= limit)} (watcher: ${verdict(r.watched.cli[op].ratio <= limit)})`);
    if (r.scale >= 100_000) {
      // Any one invocation: the commands, the first query with no index and the query after external changes.
      const rss = Math.max(...CLI_OPS.map((op) => r.cli[op].peakRssMb), r.firstQuery.peakRssMb, r.afterExternalChange.peakRssMb);
      console.log(`  ${label(r.scale).padEnd(5)} peak RSS of one invocation (incl. first query, after changes) ${fmt(rss)} MB  target <= ${CLI_TARGETS.rssMb}  ${verdict(rss <= CLI_TARGETS.rssMb)}`);
      const watchedRss = Math.max(...CLI_OPS.map((op) => r.watched.cli[op].peakRssMb), r.watched.afterExternalChange.peakRssMb);
      console.log(`  ${label(r.scale).padEnd(5)} peak RSS of one invocation with the watcher ${fmt(watchedRss)} MB  target <= ${CLI_TARGETS.rssMb}  ${verdict(watchedRss <= CLI_TARGETS.rssMb)}`);
      console.log(`  ${label(r.scale).padEnd(5)} first query, no index ${fmt(r.firstQuery.ms)} ms  target <= ${CLI_TARGETS.firstQueryMs}  ${verdict(r.firstQuery.ms <= CLI_TARGETS.firstQueryMs)}`);
      console.log(`  ${label(r.scale).padEnd(5)} list after ${r.afterExternalChange.changed} external changes ${fmt(r.afterExternalChange.ms)} ms  target <= ${CLI_TARGETS.afterChangeMs}  ${verdict(r.afterExternalChange.ms <= CLI_TARGETS.afterChangeMs)}`);
      console.log(`  ${label(r.scale).padEnd(5)} pm-mcp peak RSS ${fmt(r.mcp.peakRssMb)} MB  target <= ${CLI_TARGETS.mcpRssMb}  ${verdict(r.mcp.peakRssMb <= CLI_TARGETS.mcpRssMb)}`);
      for (const tool of ['pm_list', 'pm_next', 'pm_search']) console.log(`  ${label(r.scale).padEnd(5)} ${tool} p99 ${fmt(r.mcp[tool].p99)} ms  target <= ${CLI_TARGETS.mcpP99Ms}  ${verdict(r.mcp[tool].p99 <= CLI_TARGETS.mcpP99Ms)}`);
    }
  }
}

const benchStarted = performance.now();
try {
  const fs = new NodeFileSystem();
  await initTracker(fs, root);
  const random = prng(20260728);
  const state = { random, words: vocabulary(random), ids: [], epics: [], taken: new Set(), count: 0 };
  const loadAtStart = load();
  const results = [];
  for (const scale of scales) {
    process.stdout.write(`scale ${scale}: seeding and measuring… `);
    const started = performance.now();
    results.push(await measureScale(scale, state));
    console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const loadAtEnd = load();
  report(results, loadAtStart, loadAtEnd);
  const machine = machineInfo({ start: loadAtStart, end: loadAtEnd });
  saveBenchResult('tracker', { date: new Date().toISOString(), machine, samples: SAMPLES, cliSamples: CLI_SAMPLES, mcpCalls: MCP_CALLS, targets: TARGETS, cliTargets: CLI_TARGETS, results }, benchStarted);
} finally {
  cleanup();
}
