#!/usr/bin/env node
// npm run release:evidence: runs the release gates and writes one JSON record of exactly what
// they proved (docs/RELEASE.md; seed 004 "Rollout, rollback, and proof": release evidence
// records exact source, package, tag and consumer revisions separately):
//   1. the source: commit, the tag pointing at it (if any), and whether the work tree was dirty;
//   2. smoke:mcp (scripts/smoke-mcp.mjs --json): the packed tarball (name, sha512 integrity,
//      size), every check, and the agreement of every consumer on discovery and initialize;
//   3. the official conformance suite (scripts/conformance.mjs; its .ci/conformance-results.json);
//   4. the official clients' real sessions against pm-mcp (test/integration/mcp-stdio-clients.test.ts);
//   5. each consumer's name and version: the official clients, the conformance suite, Bun, Node.
// The record goes to .release/evidence-<time>.json (git-ignored; one file per run, never
// replaced). Exit code 0 iff every gate passed; the record is written whenever smoke:mcp got as
// far as packing the tarball (without it there is nothing to attest).
//
// Usage: node scripts/release-evidence.mjs [--published <name@version>]
//   --published  passed to smoke:mcp: the registry's artifact joins the gate and the record
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEvidence, EVIDENCE_DIR, writeEvidence } from './release/evidence.mjs';
import { ensureTools, SUITE_PACKAGE } from './tools.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLIENT_TESTS = 'test/integration/mcp-stdio-clients.test.ts';
const log = (line) => process.stdout.write(`${line}\n`);

/** A command's trimmed stdout, or undefined when it fails. */
function output(command, args) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** Runs a command with inherited output; resolves with its exit code. */
function step(title, command, args) {
  log(`\n== ${title}: ${[command, ...args].map((a) => relative(root, a) || a).join(' ')}`);
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    const forward = () => child.kill('SIGTERM');
    process.once('SIGINT', forward);
    process.once('SIGTERM', forward);
    child.on('close', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolvePromise(code ?? 1);
    });
  });
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

function versionOf(name) {
  return readJson(join(root, 'node_modules', ...name.split('/'), 'package.json'))?.version;
}

function source() {
  const commit = output('git', ['rev-parse', 'HEAD']);
  const tag = output('git', ['tag', '--points-at', 'HEAD'])?.split('\n').filter(Boolean)[0];
  const dirty = (output('git', ['status', '--porcelain']) ?? '') !== '';
  return { commit, ...(tag ? { tag } : {}), dirty };
}

async function main() {
  const createdAt = new Date();
  const pkg = readJson(join(root, 'package.json'));
  const src = source();
  const tools = ensureTools(log);
  const temp = mkdtempSync(join(tmpdir(), 'pm-release-evidence-'));
  try {
    const smokeJson = join(temp, 'smoke.json');
    const clientsJson = join(temp, 'clients.json');
    const published = process.argv.includes('--published') ? ['--published', process.argv[process.argv.indexOf('--published') + 1] ?? ''] : [];
    const smokeCode = await step('smoke:mcp', process.execPath, [join(root, 'scripts', 'smoke-mcp.mjs'), '--json', smokeJson, ...published]);
    const conformanceResults = join(root, '.ci', 'conformance-results.json');
    rmSync(conformanceResults, { force: true });
    const conformanceCode = await step('conformance', process.execPath, [join(root, 'scripts', 'conformance.mjs')]);
    const clientsCode = await step('official clients', process.execPath, ['--experimental-vm-modules', join(root, 'node_modules', 'jest', 'bin', 'jest.js'), CLIENT_TESTS, '--json', `--outputFile=${clientsJson}`]);

    const smoke = readJson(smokeJson) ?? { ok: false, seconds: 0, checks: [{ name: `smoke:mcp exited ${smokeCode} without results`, ok: false }], agreement: null };
    const conformance = readJson(conformanceResults) ?? { ok: false, suite: `${SUITE_PACKAGE} (no results; exit ${conformanceCode})`, legs: [], requiredFailures: [] };
    const jest = readJson(clientsJson);
    const clients = { ok: clientsCode === 0 && Boolean(jest?.success), tests: CLIENT_TESTS, passed: jest?.numPassedTests ?? 0, failed: jest?.numFailedTests ?? 0 };
    const consumers = [
      { name: '@modelcontextprotocol/client', version: versionOf('@modelcontextprotocol/client'), role: 'official client (TypeScript SDK v2), in the client sessions' },
      { name: '@modelcontextprotocol/sdk', version: versionOf('@modelcontextprotocol/sdk'), role: 'official client (TypeScript SDK v1), in the client sessions' },
      { name: SUITE_PACKAGE, version: tools.suite.version, role: 'conformance suite' },
      { name: 'bun', version: smoke.runtimes?.bun ?? tools.bun.version, role: 'runtime and bunx, in smoke:mcp' },
      { name: 'node', version: process.version, role: 'runtime of pm, npm and npx in every gate' },
      { name: 'node', version: tools.node.version, role: 'runtime of the conformance suite' },
      { name: 'npm', version: output('npm', ['--version']), role: 'npm pack, npm install and npx in smoke:mcp' },
    ].map((c) => ({ ...c, version: c.version ?? 'unknown' }));

    const record = buildEvidence({
      createdAt,
      source: src,
      package: { name: pkg.name, version: pkg.version },
      tarball: smoke.tarball ?? {},
      consumers,
      smoke,
      conformance,
      clients,
    });
    const store = {
      mkdir: (dir) => mkdirSync(dir, { recursive: true }),
      exists: (path) => existsSync(path),
      write: (path, text) => writeFileSync(path, text),
    };
    const path = writeEvidence(record, join(root, EVIDENCE_DIR), store);
    log(`\nrelease evidence: ${record.ok ? 'every gate passed' : 'NOT PROVEN'} (smoke ${record.smoke.ok && record.smoke.agreement?.ok ? 'ok' : 'failed'}, conformance ${record.conformance.ok ? 'ok' : 'failed'}, clients ${record.clients.ok ? 'ok' : 'failed'}) for ${record.package.name}@${record.package.version} ${record.source.commit.slice(0, 12)}${record.source.dirty ? ' (dirty work tree)' : ''}`);
    log(`written to ${relative(root, path)}`);
    return record.ok ? 0 : 1;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`release:evidence: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
