#!/usr/bin/env node
// `npm run bench:tokens`: what a host pays in tokens for pm's tool surface and for a day of agent
// work, with and without progressive tool discovery (docs/BENCHMARKS.md "bench:tokens";
// docs/DISCOVERY.md). Real processes over stdio, one run, side by side:
//   without     bin/pm-mcp.cjs, 2026-07-28 requests that do not declare the extension;
//   with        the same server, requests declaring dev.unbrained.pm/progressive-tool-discovery;
//   official    the official @modelcontextprotocol/server v2 (bench/reference/official-server.mjs)
//               carrying the same tools, each running pm's own tool over its own copy of the
//               tracker and answering the way the SDK documents (JSON text beside structuredContent).
// Tokens are counted with gpt-tokenizer's o200k_base encoding (GPT-4o, GPT-4.1, GPT-5 and the
// o-series); cl100k_base is shown beside it to show that the ratios barely depend on the encoding.
// Part 1, per profile: the tools/list a host loads, with and without the extension, as the wire
// carries it and as a host turns it into model function declarations (name, description, input
// schema). Part 2: the 20 tasks of bench/lib/token-tasks.mjs over a seeded tracker (standard
// profile), each a fresh host session: the tool surface once, then every call (name and
// arguments) and result (content and structuredContent). The discovering host starts with the
// entry catalogue and calls pm_discover with the task's words whenever it needs a tool it has not
// seen; if the ranking misses, it asks by name, and both calls count. Every step must succeed, or
// the run is INVALID and exits 1. Writes JSON to bench/results/.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { buildContainer } from '../dist/composition/container.js';
import { IDS } from '../dist/composition/service-ids.js';
import { settingsFromEnv } from '../dist/composition/settings.js';
import { PM_DISCOVER_TOOL_NAME, PM_TOOL_DISCOVERY_EXTENSION_ID } from '../dist/domain/discovery/index.js';
import { initTracker } from '../dist/domain/tracker/init.js';
import { NodeFileSystem } from '../dist/adapters/node/node-file-system.js';
import { machineInfo, saveBenchResult } from './lib/results.mjs';
import { StdioPeer } from './lib/stdio-peer.mjs';
import { table } from './lib/stats.mjs';
import { seedTaskTracker, TOKEN_TASKS } from './lib/token-tasks.mjs';

const startedAt = performance.now();
const here = dirname(fileURLToPath(import.meta.url));
const PM_MCP = join(here, '..', 'bin', 'pm-mcp.cjs');
const OFFICIAL = join(here, 'reference', 'official-server.mjs');
const PROFILES = ['core', 'standard', 'full'];
const TASK_PROFILE = 'standard';
const ACTOR = 'agent';
const TARGETS = { entryVsCoreList: 0.15, taskSaving: 0.4 };
const TOKENIZER = { package: 'gpt-tokenizer', version: createRequire(import.meta.url)('gpt-tokenizer/package.json').version, encoding: 'o200k_base', crossCheck: 'cl100k_base' };
const PLAIN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'bench-host', version: '1.0.0' } };
const NEGOTIATED_META = { ...PLAIN_META, 'io.modelcontextprotocol/clientCapabilities': { extensions: { [PM_TOOL_DISCOVERY_EXTENSION_ID]: {} } } };

const dir = mkdtempSync(join(tmpdir(), 'pm-bench-tokens-'));
const cleanup = () => rmSync(dir, { recursive: true, force: true });
process.on('SIGINT', () => { cleanup(); process.exit(130); });

const tokens = (value) => o200k(typeof value === 'string' ? value : JSON.stringify(value));
const tokensCl = (value) => cl100k(typeof value === 'string' ? value : JSON.stringify(value));
/** How a host declares tools to a model: name, description, input schema (titles, annotations and output schemas stay with the host). */
const modelView = (tools) => tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));

function fail(message) {
  throw new Error(message);
}

async function request(peer, method, params, meta) {
  const { message } = await peer.request(method, { ...params, _meta: meta });
  if (message.error) fail(`${peer.name} ${method} ${params.name ?? ''}: ${JSON.stringify(message.error)} ${peer.stderr}`);
  return message.result;
}

async function listTools(peer, meta) {
  const tools = [];
  let cursor;
  do {
    const page = await request(peer, 'tools/list', cursor ? { cursor } : {}, meta);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

const pmPeer = (name, cwd, profile) => new StdioPeer(name, [PM_MCP], { cwd, env: { ...process.env, PM_MCP_PROFILE: profile, PM_ACTOR: ACTOR } });

/** A seeded project directory (the template every mode copies). */
async function seedProject(target) {
  const root = join(target, '.agents', 'pm');
  await initTracker(new NodeFileSystem(), root);
  const container = await buildContainer(settingsFromEnv({ PM_ROOT: root, PM_ACTOR: 'lead' }, target, 'bench'));
  const tracker = await container.getAsync(IDS.Tracker);
  await tracker.ready();
  const ids = await seedTaskTracker(tracker);
  await tracker.dispose();
  return ids;
}

// ---- Part 1: the tool surface per profile --------------------------------------------------
async function surfaces(project) {
  const rows = [];
  for (const profile of PROFILES) {
    const pm = pmPeer(`pm-${profile}`, project, profile);
    try {
      const full = await listTools(pm, PLAIN_META);
      const entry = await listTools(pm, NEGOTIATED_META);
      const referenceFile = join(dir, `reference-${profile}.json`);
      writeFileSync(referenceFile, JSON.stringify({ tools: full, callResult: { content: [{ type: 'text', text: 'ok' }] } }));
      const official = new StdioPeer(`official-${profile}`, [OFFICIAL, referenceFile], { cwd: project });
      let officialTools;
      try {
        officialTools = await listTools(official, PLAIN_META);
      } finally {
        await official.close();
      }
      rows.push({
        profile,
        tools: full.length,
        entryTools: entry.map((t) => t.name),
        wire: { without: tokens(full), with: tokens(entry), official: tokens(officialTools), withoutCl100k: tokensCl(full), withCl100k: tokensCl(entry) },
        model: { without: tokens(modelView(full)), with: tokens(modelView(entry)), official: tokens(modelView(officialTools)) },
      });
    } finally {
      await pm.close();
    }
  }
  return rows;
}

// ---- Part 2: the 20 tasks ---------------------------------------------------------------------
/** The canonical value of a result, whichever shape it came in. */
function valueOf(result, negotiated) {
  return negotiated ? result.structuredContent?.result : result.structuredContent;
}

/** What a result costs the host: its content and structured content (envelope fields left out). */
function resultBody(result) {
  const { resultType: _r, _meta: _m, ...body } = result;
  return body;
}

async function runTasks(mode, project, ids) {
  const negotiated = mode === 'with';
  let peer;
  if (mode === 'official') {
    const pm = pmPeer('pm-list', project, TASK_PROFILE);
    const tools = await listTools(pm, PLAIN_META);
    await pm.close();
    const file = join(dir, 'reference-tasks.json');
    writeFileSync(file, JSON.stringify({ tools, tracker: { root: join(project, '.agents', 'pm'), actor: ACTOR } }));
    peer = new StdioPeer('official', [OFFICIAL, file], { cwd: project });
  } else {
    peer = pmPeer(`pm-${mode}`, project, TASK_PROFILE);
  }
  const meta = negotiated ? NEGOTIATED_META : PLAIN_META;
  const memo = {};
  const tasks = [];
  const estimates = [];
  try {
    const surfaceTools = await listTools(peer, meta);
    const surface = { wire: tokens(surfaceTools), model: tokens(modelView(surfaceTools)) };
    for (const task of TOKEN_TASKS) {
      const known = new Set(surfaceTools.map((t) => t.name));
      const spent = { surface: surface.wire, surfaceModel: surface.model, discovery: 0, calls: 0, results: 0, discoveryCalls: 0, missed: 0, steps: [] };
      let last;
      const call = async (name, args) => {
        const result = await request(peer, 'tools/call', { name, arguments: args }, meta);
        if (result.isError) fail(`${mode}: ${task.name}: ${name} failed: ${JSON.stringify(result.content)}`);
        return { result, callTokens: tokens({ name, arguments: args }), resultTokens: tokens(resultBody(result)) };
      };
      const discover = async (args) => {
        const { result, callTokens, resultTokens } = await call(PM_DISCOVER_TOOL_NAME, args);
        const answer = valueOf(result, true);
        for (const tool of answer.tools) known.add(tool.name);
        spent.discovery += callTokens + resultTokens;
        spent.discoveryCalls++;
        estimates.push({ estimated: answer.receipt.estimatedTokens, real: tokens(answer) });
      };
      for (const step of task.steps) {
        if (negotiated && !known.has(step.tool)) {
          await discover({ need: step.need });
          if (!known.has(step.tool)) {
            spent.missed++;
            await discover({ names: [step.tool] });
          }
          if (!known.has(step.tool)) fail(`${task.name}: pm_discover never returned ${step.tool}`);
        }
        const args = step.args({ ids, last, memo });
        const { result, callTokens, resultTokens } = await call(step.tool, args);
        spent.calls += callTokens;
        spent.results += resultTokens;
        spent.steps.push({ tool: step.tool, call: callTokens, result: resultTokens });
        last = valueOf(result, negotiated);
      }
      spent.total = spent.surface + spent.discovery + spent.calls + spent.results;
      tasks.push({ name: task.name, ...spent });
    }
  } finally {
    await peer.close();
  }
  return { mode, tasks, estimates, total: tasks.reduce((sum, t) => sum + t.total, 0) };
}

// ---- Run and report -----------------------------------------------------------------------------
const loadBefore = loadavg();
try {
  const template = join(dir, 'template');
  const ids = await seedProject(template);
  const surfaceRows = await surfaces(template);

  const runs = {};
  for (const mode of ['without', 'with', 'official']) {
    const project = join(dir, mode);
    cpSync(template, project, { recursive: true });
    runs[mode] = await runTasks(mode, project, ids);
  }

  console.log(`bench:tokens — ${TOKENIZER.package} ${TOKENIZER.version}, ${TOKENIZER.encoding} (cl100k_base as a cross-check)\n`);
  console.log('Tool surface: tokens of tools/list as a host receives it (wire) and as it declares the tools to a model (name, description, input schema)');
  console.log(table(
    ['profile', 'tools', 'wire without', 'wire with', 'with/without', 'official', 'cl100k with/without', 'model without', 'model with', 'model with/without'],
    surfaceRows.map((r) => [r.profile, r.tools, r.wire.without, r.wire.with, pct(r.wire.with / r.wire.without), r.wire.official, pct(r.wire.withCl100k / r.wire.withoutCl100k), r.model.without, r.model.with, pct(r.model.with / r.model.without)]),
  ));
  const core = surfaceRows.find((r) => r.profile === 'core');
  const entryVsCore = core.wire.with / core.wire.without;

  console.log(`\n20 tasks (profile ${TASK_PROFILE}): surface once per task + discovery + calls + results`);
  const rows = TOKEN_TASKS.map((task, i) => {
    const [w, d, o] = [runs.without.tasks[i], runs.with.tasks[i], runs.official.tasks[i]];
    return [task.name, w.total, d.total, `${d.discoveryCalls}${d.missed ? ` (${d.missed} by name)` : ''}`, pct(1 - d.total / w.total), o.total];
  });
  rows.push(['total', runs.without.total, runs.with.total, runs.with.tasks.reduce((s, t) => s + t.discoveryCalls, 0), pct(1 - runs.with.total / runs.without.total), runs.official.total]);
  console.log(table(['task', 'without', 'with', 'pm_discover calls', 'saved', 'official'], rows));
  const parts = (run) => ['surface', 'discovery', 'calls', 'results'].map((k) => run.tasks.reduce((s, t) => s + t[k], 0));
  console.log(`\n${table(['where the tokens go', 'surface', 'discovery', 'calls', 'results'], ['without', 'with', 'official'].map((m) => [m, ...parts(runs[m])]))}`);
  const saving = 1 - runs.with.total / runs.without.total;
  // The same tasks for a host that declares only name, description and input schema to its model.
  const modelTotal = (run) => run.tasks.reduce((sum, t) => sum + t.surfaceModel + t.discovery + t.calls + t.results, 0);
  const modelSaving = 1 - modelTotal(runs.with) / modelTotal(runs.without);
  console.log(`\nthe same 20 tasks with the surface counted as model declarations (no titles, annotations or output schemas): without ${modelTotal(runs.without)}, with ${modelTotal(runs.with)} (${pct(modelSaving)} lower), official ${modelTotal(runs.official)}`);
  const worstEstimate = Math.min(...runs.with.estimates.map((e) => e.estimated / e.real));
  console.log(`\npm_discover receipts: estimated/real tokens ${round2(worstEstimate)} at the lowest over ${runs.with.estimates.length} answers (an estimate at or above 1 never undercounts)`);

  const targets = {
    entryVsCoreList: { value: round3(entryVsCore), target: `<= ${TARGETS.entryVsCoreList}`, met: entryVsCore <= TARGETS.entryVsCoreList },
    taskSaving: { value: round3(saving), target: `>= ${TARGETS.taskSaving}`, met: saving >= TARGETS.taskSaving },
  };
  console.log(`\ntargets: entry catalogue ${pct(entryVsCore)} of the core tools/list (target <= 15%): ${targets.entryVsCoreList.met ? 'met' : 'MISSED'}; 20-task total ${pct(saving)} lower (target >= 40%): ${targets.taskSaving.met ? 'met' : 'MISSED'}`);
  saveBenchResult('tokens', {
    date: new Date().toISOString(),
    machine: machineInfo({ start: loadBefore, end: loadavg() }),
    tokenizer: TOKENIZER,
    surfaces: surfaceRows,
    tasks: Object.fromEntries(Object.entries(runs).map(([mode, run]) => [mode, { total: run.total, modelViewTotal: modelTotal(run), tasks: run.tasks }])),
    estimates: runs.with.estimates,
    targets,
  }, startedAt);
  if (!targets.entryVsCoreList.met || !targets.taskSaving.met) process.exitCode = 1;
} catch (error) {
  console.error(`INVALID: ${error.message}`);
  process.exitCode = 1;
} finally {
  cleanup();
}

function pct(x) {
  return `${(x * 100).toFixed(1)}%`;
}
function round2(x) {
  return Math.round(x * 100) / 100;
}
function round3(x) {
  return Math.round(x * 1000) / 1000;
}
