#!/usr/bin/env node
// npm run conformance: the official MCP conformance suite against a live pm-mcp-http, the
// outside proof that pm speaks the protocol as other implementations read it (docs/CONFORMANCE.md).
//
//   1. Tools: @modelcontextprotocol/conformance (pinned) and Node 22 from the npm package `node`
//      are installed into .tools/ (git-ignored; scripts/tools.mjs, shared with smoke:mcp) — never into the project: `node@22` as a
//      devDependency would put a Node 22 `node` on every npm script's PATH, and the project runs
//      on the system Node 20. The suite runs under that Node 22 binary; pm runs under this
//      process's own Node.
//   2. dist/ is rebuilt (swc, about a second) so the run always tests the current sources.
//   3. A temp tracker (pm init + a few items) is served by bin/pm-mcp-http.js on 127.0.0.1 with
//      --port 0; the URL is the first line it prints on stdout.
//   4. The suite runs once per requirement set (`--requirements 2026-07-28`, then 2025-11-25),
//      each at its own wire; every scenario's checks.json is read back and judged here.
//   5. A per-scenario table is printed, the report is written to .ci/conformance-results.json
//      (each suite's raw output beside it as .ci/conformance-<revision>.log), the server is
//      stopped by its pid, and the exit code is 1 iff a REQUIRED scenario failed (or the run
//      itself could not happen).
//
// Required = the generic-protocol scenarios (REQUIRED below; docs/CONFORMANCE.md "What is
// required"). Scenarios bound to the suite's own fixture tools, prompts and resources
// (test_simple_text, test://static-text, …) are reported as "not applicable (fixture tools)"
// and never tuned to: pm ships no test fixtures.
//
// Usage: node scripts/conformance.mjs [--keep]   (--keep: keep the temp tracker and raw results)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { build } from './build.mjs';
import { ensureTools as ensureAllTools, SUITE_PACKAGE, SUITE_VERSION, suiteCli, TOOLS_DIR } from './tools.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const started = Date.now();

const REPORT_PATH = join(root, '.ci', 'conformance-results.json');
const SUITE_TIMEOUT_MS = 5 * 60_000; // per leg; a full leg takes ~10 s here
const SERVER_START_TIMEOUT_MS = 30_000;

/** The scenarios that must pass, per requirement set (docs/CONFORMANCE.md "What is required"). */
const REQUIRED = {
  '2026-07-28': [
    'server-stateless', // minus STATELESS_DIAGNOSTIC_CHECKS
    'caching',
    'tools-list',
    'resources-list',
    'prompts-list',
    'sep-2164-resource-not-found',
    'dns-rebinding-protection',
    'http-header-validation',
    'http-custom-header-server-validation',
    'input-required-result-unsupported-methods',
  ],
  // dns-rebinding-protection is generic too, so it gates the legacy leg as well; logging-set-level
  // tests the legacy adapter's bounded logging (docs/MCP.md "Deprecation ratchet").
  '2025-11-25': ['server-initialize', 'ping', 'logging-set-level', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'],
};

/**
 * The checks inside server-stateless that can only be exercised through the suite's own
 * diagnostic tools (its reference server's test_* tools). Against a server without them they
 * report "Not testable" (FAILURE) or SKIPPED, so they are excluded — by exact id, nothing else:
 *   - the -32021 pair calls tools/call test_missing_capability (a tool needing `sampling`);
 *   - the stream check calls test_streaming_elicitation and inspects its SSE frames;
 *   - the logging check calls test_logging_tool and looks for notifications/message;
 *   - the two list-changed checks mutate the lists through test_trigger_prompt_change /
 *     test_trigger_tool_change (SHOULD-level; SKIPPED when the capability is not declared).
 * NOT excluded: sep-2575-server-sends-subscription-ack, -tags-subscription-id and
 * -honors-notification-filter also fire test_trigger_tool_change, but only best-effort: their
 * verdict rests on the acknowledgement frame and on the absence of a leaked notification, both
 * of which pm's own subscriptions/listen produces.
 */
const STATELESS_DIAGNOSTIC_CHECKS = new Map([
  ['sep-2575-server-rejects-undeclared-capability', 'test_missing_capability'],
  ['sep-2575-missing-capability-http-400', 'test_missing_capability'],
  ['sep-2575-http-server-no-independent-requests-on-stream', 'test_streaming_elicitation'],
  ['sep-2575-server-no-log-without-loglevel', 'test_logging_tool'],
  ['sep-2575-server-sends-prompts-list-changed-on-subscription', 'test_trigger_prompt_change'],
  ['sep-2575-server-sends-tools-list-changed-on-subscription', 'test_trigger_tool_change'],
]);
const EXCLUDED_CHECKS = { 'server-stateless': STATELESS_DIAGNOSTIC_CHECKS };

/** Scenarios bound to the suite's fixtures: what each one calls that pm does not ship. */
const FIXTURE_BOUND = {
  'completion-complete': 'completes an argument of the fixture prompt test_prompt_with_arguments',
  'tools-call-simple-text': 'calls the fixture tool test_simple_text',
  'tools-call-image': 'calls the fixture tool test_image_content',
  'tools-call-audio': 'calls the fixture tool test_audio_content',
  'tools-call-embedded-resource': 'calls the fixture tool test_embedded_resource',
  'tools-call-mixed-content': 'calls the fixture tool test_multiple_content_types',
  'tools-call-with-logging': 'calls the fixture tool test_tool_with_logging (after a logging/setLevel that pm accepts)',
  'tools-call-error': 'calls the fixture tool test_error_handling',
  'tools-call-with-progress': 'calls the fixture tool test_tool_with_progress',
  'tools-call-sampling': 'calls the fixture tool test_sampling',
  'tools-call-elicitation': 'calls the fixture tool test_elicitation',
  'elicitation-sep1034-defaults': 'calls the fixture tool test_elicitation_sep1034_defaults',
  'elicitation-sep1330-enums': 'calls the fixture tool test_elicitation_sep1330_enums',
  'json-schema-2020-12': 'looks for the fixture tool json_schema_2020_12_tool',
  'resources-read-text': 'reads the fixture resource test://static-text',
  'resources-read-binary': 'reads the fixture resource test://static-binary',
  'resources-templates-read': 'reads the fixture template test://template/{id}/data',
  'resources-subscribe': 'subscribes to the fixture resource test://watched-resource (and pm declares no resources.subscribe on the legacy wire)',
  'resources-unsubscribe': 'unsubscribes from the fixture resource test://watched-resource (and pm declares no resources.subscribe on the legacy wire)',
  'prompts-get-simple': 'gets the fixture prompt test_simple_prompt',
  'prompts-get-with-args': 'gets the fixture prompt test_prompt_with_arguments',
  'prompts-get-embedded-resource': 'gets the fixture prompt test_prompt_with_embedded_resource',
  'prompts-get-with-image': 'gets the fixture prompt test_prompt_with_image',
  'server-sse-polling': 'calls the fixture tool test_reconnection (and needs a session; pm is sessionless)',
  'input-required-result-basic-elicitation': 'calls the fixture tool test_input_required_result_elicitation',
  'input-required-result-basic-sampling': 'calls the fixture tool test_input_required_result_sampling',
  'input-required-result-basic-list-roots': 'calls the fixture tool test_input_required_result_list_roots',
  'input-required-result-request-state': 'calls the fixture tool test_input_required_result_request_state',
  'input-required-result-multiple-input-requests': 'calls the fixture tool test_input_required_result_multiple_inputs',
  'input-required-result-multi-round': 'calls the fixture tool test_input_required_result_multi_round',
  'input-required-result-missing-input-response': 'calls the fixture tool test_input_required_result_elicitation',
  'input-required-result-non-tool-request': 'gets the fixture prompt test_input_required_result_prompt',
  'input-required-result-result-type': 'calls the fixture tool test_input_required_result_elicitation',
  'input-required-result-tampered-state': 'calls the fixture tool test_input_required_result_tampered_state',
  'input-required-result-capability-check': 'calls the fixture tool test_input_required_result_capabilities',
  'input-required-result-ignore-extra-params': 'calls the fixture tool test_input_required_result_elicitation',
  'input-required-result-validate-input': 'calls the fixture tool test_input_required_result_elicitation',
};

/** Other scenarios that do not apply to pm, with the reason ("<revision> <scenario>" for one leg only). */
const NOT_APPLICABLE = {
  'server-session-lifecycle': 'sessionless: pm issues no Mcp-Session-Id, so the suite has no lifecycle to test',
  '2025-11-25 server-sse-multiple-streams': 'sessionless: on the initialize-era wire the scenario needs an Mcp-Session-Id and stops at its session check (WARNING)',
};
const TASKS_FIXTURES = 'calls the tasks fixture tools (slow_compute, greet, failing_job, confirm_delete, …)';

/**
 * The generic checks of fixture-bound scenarios: checks that exercise pm itself, not the
 * suite's fixtures. Each must pass (SUCCESS), or the run fails; the scenario's fixture-bound
 * checks stay reported only (docs/CONFORMANCE.md "Fixture-bound scenarios: the generic checks").
 */
const GENERIC_CHECKS = {
  'tasks-capability-negotiation': ['tasks-extension-advertised', 'sep-2663-tasks-methods-non-declaring', 'wire-schema-valid'],
  'tasks-dispatch-and-envelope': ['sep-2663-tasks-result-removed-method-not-found', 'tasks-removed-tasks-list', 'sep-2663-tasks-get-invalid-task-id-32602', 'wire-schema-valid'],
  'tasks-request-headers': ['tasks-headers-reject-mismatched-method', 'wire-schema-valid'],
};

/**
 * The Skills extension's scenarios (the suite's pending SEP-2640 set; docs/SKILLS.md), run one by
 * one (`--scenario`) against two servers over the same tracker and the package's own skills:
 * - PM_MCP_SKILLS_DECLARATION=optional: every check must pass;
 * - required (pm's default, as the seeds decide): the suite's requests declare no extension, so
 *   pm refuses every skills request with -32021; exactly the checks below fail (they need a
 *   refused call's answer), each failure must come from that refusal (the scenario's log shows
 *   -32021), and every other check must pass.
 */
const SKILLS_SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];
const SKILLS_REQUIRED_MODE_REFUSED = {
  'sep-2640-skills-enumeration': ['sep-2640-capability-commits-to-methods', 'sep-2640-skills-list-implemented'],
  'sep-2640-skills-manifest': ['sep-2640-final-segment-equals-name', 'sep-2640-skillmd-metadata-name', 'sep-2640-skillmd-metadata-description'],
  'sep-2640-skills-directory': [
    'sep-2640-directory-read-method-registered',
    'sep-2640-directory-read-result-resources-shape',
    'sep-2640-directory-read-subdir-mimetype',
    'sep-2640-directory-read-invalid-params',
    'sep-2640-directory-read-pagination',
  ],
};

/** Generic scenarios that are run and shown but not part of the required list. */
const REPORTED = {
  'server-sse-multiple-streams': 'generic (concurrent POSTs), not in the required list',
  'dns-rebinding-protection': 'generic, not in the required list on this leg',
};

// ---------------------------------------------------------------------------------------------

const children = new Set();
const cleanups = [];
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill('SIGKILL');
    for (const cleanup of cleanups) cleanup();
    process.exit(130);
  });
}

const log = (line) => process.stdout.write(`${line}\n`);

/** The pinned suite and Node 22 from .tools/ (scripts/tools.mjs installs what is missing). */
function ensureTools() {
  return ensureAllTools(log).node;
}

/** Runs a command to completion; throws with its output when it fails. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}\n${result.stdout ?? ''}${result.stderr ?? ''}`);
  }
  return result.stdout ?? '';
}

/** pm's own processes get a clean PM_* environment: a developer's settings must not leak in. */
function pmEnv(trackerDir) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('PM_')) delete env[key];
  // The full profile: every tool pm can advertise goes through tools-list and the wire-schema check.
  return { ...env, PM_ROOT: trackerDir, PM_ACTOR: 'conformance', PM_MCP_PROFILE: 'full' };
}

/** A temp project with a tracker and a few items (so lists, reads and searches have data). */
function makeTracker() {
  const dir = mkdtempSync(join(tmpdir(), 'pm-conformance-'));
  const pm = (...args) => run(process.execPath, [join(root, 'bin', 'pm.cjs'), ...args], { cwd: dir, env: pmEnv(dir) });
  pm('init');
  pm('create', 'Ship the HTTP transport', '--type', 'Feature', '-p', '1', '--body', 'Sessionless Streamable HTTP.', '--tag', 'mcp');
  pm('create', 'Run the conformance suite in CI', '--body', 'Both requirement sets.', '--tag', 'ci');
  pm('create', 'Write docs/CONFORMANCE.md', '--type', 'Chore', '-p', '3');
  return dir;
}

/** Starts pm-mcp-http on 127.0.0.1, port 0; resolves with its URL once it printed it. */
function startServer(trackerDir, extraEnv = {}) {
  const child = spawn(process.execPath, [join(root, 'bin', 'pm-mcp-http.js'), '--host', '127.0.0.1', '--port', '0', '--no-init'], {
    cwd: trackerDir,
    env: { ...pmEnv(trackerDir), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  const url = new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`pm-mcp-http printed no URL within ${SERVER_START_TIMEOUT_MS} ms\n${stderr}`)), SERVER_START_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const line = stdout.split('\n').find((l) => /^http:\/\/127\.0\.0\.1:\d+\//.test(l.trim()));
      if (line) {
        clearTimeout(timer);
        resolveUrl(line.trim());
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`pm-mcp-http exited (${code ?? signal}) before serving\n${stderr}`));
    });
  });
  return { child, url, stderr: () => stderr };
}

/** SIGTERM by pid (graceful: in-flight requests finish), SIGKILL if it is still there after 15 s. */
async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal)));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
  }, 15_000);
  const outcome = await exited;
  clearTimeout(timer);
  return outcome;
}

/** Runs one requirement set (or, given `scenario`, one scenario); resolves with the suite's exit code and its combined output. */
function runSuite(node, url, revision, outputDir, scenario) {
  return new Promise((done) => {
    const selection = scenario ? ['--scenario', scenario] : ['--requirements', revision];
    const child = spawn(node.path, [suiteCli(), 'server', '--url', url, ...selection, '--output-dir', outputDir], {
      cwd: outputDir,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n[conformance.mjs] suite timed out after ${SUITE_TIMEOUT_MS} ms; killed\n`;
      child.kill('SIGKILL');
    }, SUITE_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      done({ exitCode: code ?? signal, output });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      done({ exitCode: 'error', output: `${output}\n${error.message}` });
    });
  });
}

/** The requirement set as the suite ships it (server leg only). */
function requirementSet(revision) {
  const file = join(TOOLS_DIR, 'node_modules', ...SUITE_PACKAGE.split('/'), 'requirements', `${revision}.yaml`);
  const doc = parseYaml(readFileSync(file, 'utf8'));
  const scored = doc.server ?? [];
  const notScored = (doc.not_scored ?? []).filter((entry) => entry.leg === 'server');
  return [...scored.map((name) => ({ name, scoring: 'scored' })), ...notScored.map((entry) => ({ name: entry.scenario, scoring: `not scored (${entry.reason})` }))];
}

/** checks.json of every scenario the suite wrote: results/server-<scenario>-<timestamp>/. */
function readResults(outputDir) {
  const results = new Map();
  if (!existsSync(outputDir)) return results;
  for (const entry of readdirSync(outputDir, { withFileTypes: true })) {
    const match = entry.isDirectory() && /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry.name);
    if (!match) continue;
    const file = join(outputDir, entry.name, 'checks.json');
    if (!existsSync(file)) continue;
    try {
      results.set(match[1], JSON.parse(readFileSync(file, 'utf8')));
    } catch (error) {
      results.set(match[1], { unreadable: error.message });
    }
  }
  return results;
}

function classify(name, revision) {
  if (REQUIRED[revision].includes(name)) return { kind: 'required' };
  if (FIXTURE_BOUND[name]) return { kind: 'fixture', reason: FIXTURE_BOUND[name] };
  if (name.startsWith('tasks-')) return { kind: 'fixture', reason: TASKS_FIXTURES };
  const notApplicable = NOT_APPLICABLE[`${revision} ${name}`] ?? NOT_APPLICABLE[name];
  if (notApplicable) return { kind: 'not-applicable', reason: notApplicable };
  if (REPORTED[name]) return { kind: 'reported', reason: REPORTED[name] };
  return { kind: 'reported', reason: 'not classified by scripts/conformance.mjs' };
}

/** Judges one scenario: FAILURE checks fail it (WARNING is the suite's SHOULD level and does not). */
function judge(name, revision, checks, scoring) {
  const category = classify(name, revision);
  const excludedIds = EXCLUDED_CHECKS[name] ?? new Map();
  const row = { scenario: name, suiteScoring: scoring, category: category.kind, ...(category.reason ? { reason: category.reason } : {}) };
  if (!checks) return { ...row, outcome: 'no result', verdict: category.kind === 'required' ? 'FAIL' : 'n.a.', counts: null, failures: [] };
  if (!Array.isArray(checks)) return { ...row, outcome: `unreadable checks.json: ${checks.unreadable}`, verdict: category.kind === 'required' ? 'FAIL' : 'n.a.', counts: null, failures: [] };
  const counted = checks.filter((c) => !excludedIds.has(c.id));
  const excluded = checks.filter((c) => excludedIds.has(c.id)).map((c) => ({ id: c.id, status: c.status, tool: excludedIds.get(c.id) }));
  const count = (list, status) => list.filter((c) => c.status === status).length;
  const counts = { success: count(counted, 'SUCCESS'), failure: count(counted, 'FAILURE'), warning: count(counted, 'WARNING'), skipped: count(counted, 'SKIPPED'), info: count(counted, 'INFO') };
  const failures = counted.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => ({ id: c.id, status: c.status, message: c.errorMessage ?? '' }));
  const outcome = counts.failure > 0 ? 'fail' : counts.success > 0 ? 'pass' : 'no passing check';
  let verdict;
  if (category.kind === 'required') verdict = outcome === 'pass' ? 'PASS' : 'FAIL';
  else if (category.kind === 'fixture') verdict = genericVerdict(name, checks, failures);
  else if (category.kind === 'not-applicable') verdict = 'n.a.';
  else verdict = outcome === 'pass' ? 'pass (not gating)' : `${outcome} (not gating)`;
  return { ...row, outcome, verdict, counts, failures, ...(excluded.length ? { excludedChecks: excluded } : {}) };
}

/** A fixture-bound scenario's verdict: its generic checks (GENERIC_CHECKS) must pass; the rest is reported. */
function genericVerdict(name, checks, failures) {
  const generic = GENERIC_CHECKS[name];
  if (!generic) return 'n.a. (fixture tools)';
  const failed = generic.filter((id) => !checks.some((c) => c.id === id && c.status === 'SUCCESS'));
  for (const id of failed) failures.unshift({ id, status: 'GENERIC', message: `generic check did not pass: ${checks.find((c) => c.id === id)?.errorMessage ?? 'no result'}` });
  return failed.length ? 'FAIL (generic checks)' : `n.a. (fixture tools); ${generic.length}/${generic.length} generic checks pass`;
}

function formatCounts(counts) {
  if (!counts) return '-';
  const parts = [`${counts.success}✓`];
  if (counts.failure) parts.push(`${counts.failure}✗`);
  if (counts.warning) parts.push(`${counts.warning}⚠`);
  if (counts.skipped) parts.push(`${counts.skipped} skipped`);
  return parts.join(' ');
}

function printLeg(leg) {
  log('');
  const wire = leg.requirements === '2026-07-28' ? 'stateless per-request _meta wire' : leg.requirements === '2025-11-25' ? 'initialize-era wire, sessionless' : 'one scenario at a time, 2026-07-28 wire';
  log(`-- ${leg.requirements} (suite exit ${leg.suiteExitCode}; ${wire})`);
  const width = Math.max(...leg.scenarios.map((s) => s.scenario.length), 8);
  log(`   ${'scenario'.padEnd(width)}  ${'checks'.padEnd(18)}  verdict`);
  for (const s of leg.scenarios) {
    const note = s.category === 'required' ? 'required' : s.reason;
    log(`   ${s.scenario.padEnd(width)}  ${formatCounts(s.counts).padEnd(18)}  ${s.verdict.padEnd(20)}  ${note}`);
    if (s.excludedChecks) log(`   ${''.padEnd(width)}  ${''.padEnd(18)}  excluded (diagnostic tools): ${s.excludedChecks.map((c) => `${c.id}=${c.status}`).join(', ')}`);
    if (s.category === 'required') for (const f of s.failures) log(`   ${''.padEnd(width)}  ${''.padEnd(18)}  ${f.status} ${f.id}: ${f.message.slice(0, 300)}`);
    if (s.refusedAsDocumented) log(`   ${''.padEnd(width)}  ${''.padEnd(18)}  refused with -32021 as documented: ${s.refusedAsDocumented.join(', ')}`);
  }
}

/**
 * The skills leg (see SKILLS_SCENARIOS): each scenario against the optional-mode server (every
 * check must pass) and the required-mode one (exactly the refused checks fail, from -32021).
 */
async function runSkillsLeg(node, servers, workDir) {
  const scenarios = [];
  const failures = [];
  for (const [mode, url] of Object.entries(servers)) {
    for (const scenario of SKILLS_SCENARIOS) {
      const outputDir = join(workDir, `skills-${mode}-${scenario}`);
      mkdirSync(outputDir, { recursive: true });
      const { exitCode, output } = await runSuite(node, url, '2026-07-28', outputDir, scenario);
      writeFileSync(join(root, '.ci', `conformance-skills-${mode}-${scenario}.log`), output);
      const checks = readResults(outputDir).get(scenario);
      const list = Array.isArray(checks) ? checks : [];
      const failed = list.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      const expectedRefused = mode === 'required' ? SKILLS_REQUIRED_MODE_REFUSED[scenario] : [];
      const unexpected = failed.filter((c) => !expectedRefused.includes(c.id));
      const missingRefusals = expectedRefused.filter((id) => !failed.some((c) => c.id === id));
      const refusalSeen = mode !== 'required' || output.includes('-32021');
      const passed = list.length > 0 && list.some((c) => c.status === 'SUCCESS') && unexpected.length === 0 && missingRefusals.length === 0 && refusalSeen;
      const counts = { success: list.filter((c) => c.status === 'SUCCESS').length, failure: list.filter((c) => c.status === 'FAILURE').length, warning: list.filter((c) => c.status === 'WARNING').length, skipped: list.filter((c) => c.status === 'SKIPPED').length, info: 0 };
      const row = {
        scenario: `${scenario} (${mode} declaration)`,
        category: 'required',
        suiteExitCode: exitCode,
        counts,
        verdict: passed ? 'PASS' : 'FAIL',
        failures: [...unexpected.map((c) => ({ id: c.id, status: c.status, message: c.errorMessage ?? '' })), ...missingRefusals.map((id) => ({ id, status: 'EXPECTED-REFUSAL-MISSING', message: 'this check should fail with -32021 in required mode' })), ...(refusalSeen ? [] : [{ id: scenario, status: 'NO-32021', message: 'no -32021 in the scenario output' }])],
        ...(expectedRefused.length ? { refusedAsDocumented: expectedRefused } : {}),
      };
      scenarios.push(row);
      if (!passed) failures.push(`skills ${row.scenario}`);
    }
  }
  return { leg: { requirements: 'skills (SEP-2640, pending scenarios)', suiteExitCode: '-', scenarios }, failures };
}

async function main() {
  const report = { suite: `${SUITE_PACKAGE}@${SUITE_VERSION}`, startedAt: new Date(started).toISOString(), ok: false, legs: [], requiredFailures: [] };
  let server;
  let optionalServer;
  let trackerDir;
  let workDir;
  try {
    const node = ensureTools();
    report.suiteNode = node.version;
    report.serverNode = process.version;
    log(`== conformance: ${SUITE_PACKAGE}@${SUITE_VERSION} on Node ${node.version}; pm-mcp-http on Node ${process.version}`);
    await build();
    trackerDir = makeTracker();
    workDir = mkdtempSync(join(tmpdir(), 'pm-conformance-results-'));
    if (!keep) cleanups.push(() => rmSync(workDir, { recursive: true, force: true }), () => rmSync(trackerDir, { recursive: true, force: true }));
    server = startServer(trackerDir);
    const url = await server.url;
    report.url = url;
    log(`== pm-mcp-http (pid ${server.child.pid}) serving ${url}`);
    for (const revision of Object.keys(REQUIRED)) {
      const outputDir = join(workDir, revision);
      mkdirSync(outputDir, { recursive: true });
      const t0 = Date.now();
      const { exitCode, output } = await runSuite(node, url, revision, outputDir);
      writeFileSync(join(root, '.ci', `conformance-${revision}.log`), output);
      const results = readResults(outputDir);
      const expected = requirementSet(revision);
      const names = [...expected.map((e) => e.name), ...[...results.keys()].filter((n) => !expected.some((e) => e.name === n))];
      const scenarios = names.map((name) => judge(name, revision, results.get(name), expected.find((e) => e.name === name)?.scoring ?? 'not in the requirement set'));
      for (const name of REQUIRED[revision]) {
        if (!names.includes(name)) scenarios.push(judge(name, revision, undefined, 'not in the requirement set'));
      }
      const leg = { requirements: revision, suiteExitCode: exitCode, durationMs: Date.now() - t0, scenarios };
      report.legs.push(leg);
      printLeg(leg);
      for (const s of scenarios) if ((s.category === 'required' && s.verdict !== 'PASS') || s.verdict === 'FAIL (generic checks)') report.requiredFailures.push(`${revision} ${s.scenario}`);
    }
    if (server.child.exitCode !== null) report.requiredFailures.push(`pm-mcp-http exited during the run:\n${server.stderr()}`);
    optionalServer = startServer(trackerDir, { PM_MCP_SKILLS_DECLARATION: 'optional' });
    const skills = await runSkillsLeg(node, { optional: await optionalServer.url, required: url }, workDir);
    report.legs.push(skills.leg);
    printLeg(skills.leg);
    report.requiredFailures.push(...skills.failures);
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
    log(`!! conformance run failed: ${report.error}`);
  } finally {
    if (server) {
      const outcome = await stopServer(server.child);
      report.serverExit = outcome;
    }
    if (optionalServer) await stopServer(optionalServer.child);
    for (const cleanup of cleanups) cleanup();
    if (keep && trackerDir) log(`   kept: tracker ${trackerDir}, raw results ${workDir}`);
  }
  report.durationMs = Date.now() - started;
  report.ok = !report.error && report.requiredFailures.length === 0 && report.legs.length === Object.keys(REQUIRED).length + 1;
  mkdirSync(dirname(REPORT_PATH), { recursive: true });
  writeFileSync(REPORT_PATH, `${JSON.stringify(report, null, 2)}\n`);
  const required = report.legs.flatMap((leg) => leg.scenarios.filter((s) => s.category === 'required'));
  const fixtures = report.legs.flatMap((leg) => leg.scenarios.filter((s) => s.category === 'fixture')).length;
  log('');
  log(`conformance: ${required.filter((s) => s.verdict === 'PASS').length}/${required.length} required scenarios passed across ${report.legs.length} requirement sets; ${fixtures} fixture-bound reported n.a.; ${(report.durationMs / 1000).toFixed(1)} s (report: ${REPORT_PATH.slice(root.length + 1)})`);
  if (!report.ok) {
    for (const failure of report.requiredFailures) log(`!! required: ${failure}`);
    process.exitCode = 1;
  }
}

await main();
