import { fileURLToPath } from 'node:url';
import { listenMcpHttp, type McpHttpListener } from '../adapters/http/mcp-http-server.js';
import { NodeFileSystem } from '../adapters/node/node-file-system.js';
import { TrackerNotFoundError } from '../domain/errors/tracker-errors.js';
import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';
import { PM_MCP_DEFAULT_PROFILE } from '../domain/mcp-tracker/profiles.js';
import { initTracker } from '../domain/tracker/init.js';
import { locateTrackerRoot, trackerRootFor } from '../domain/tracker/root-locator.js';
import { PmError } from '../domain/errors/pm-error.js';
import { authSettingsFromEnv, resolveHttpAuthMode, type AuthSettings } from './auth-settings.js';
import { composeHttpServer, type HttpServerApp } from './compose-http.js';
import { CommandLineError, httpSettingsFromArgs, PM_MCP_HTTP_USAGE, type HttpSettings } from './http-settings.js';
import type { HttpMainOptions } from './mcp-http-main.js';
import { osUser } from './os-user.js';
import { packageInfo } from './package-info.js';
import { stderrLog } from './process-log.js';
import type { SharedDatabase } from './service-ids.js';
import { boundHeap } from './heap-growth.js';
import { settingsFromEnv, type Settings } from './settings.js';
import { PM_SERVER_RUN } from './mcp-module.js';
import { createOtelTelemetry } from './otel-composition.js';
import { describeOtel } from './otel-settings.js';
import type { Telemetry } from '../ports/telemetry.js';
import type { McpUsageCounter } from '../domain/telemetry/usage-counter.js';
import { formatMcpUsageLine } from '../domain/telemetry/usage-log.js';

const log = stderrLog('pm-mcp-http');

/**
 * pm-mcp-http's start (the steps of `main` in mcp-http-main.ts, which imports this module
 * unless it can answer `--help` or `--version` alone): settings from the flags and the
 * environment, the authorization rule, then {@link serveMcpHttp}.
 */
export async function startMcpHttp(argv: readonly string[], options: HttpMainOptions = {}): Promise<void> {
  boundHeap('server');
  const env = process.env;
  let http: HttpSettings;
  let auth: AuthSettings;
  let settings: Settings;
  try {
    const line = httpSettingsFromArgs(argv, env);
    if (line.kind === 'help' || line.kind === 'version') {
      process.stdout.write(line.kind === 'help' ? PM_MCP_HTTP_USAGE : `${packageInfo().version}\n`, () => process.exit(0));
      return;
    }
    http = line.settings;
    auth = authSettingsFromEnv(env);
    resolveHttpAuthMode(http.host, auth); // the loopback/remote rule fails before anything else
    settings = settingsFromEnv(env, launchDirectory(env), () => osUser(env), http.skillsDeclaration ? { skillsDeclaration: http.skillsDeclaration } : {});
  } catch (error) {
    return failHttpStart(error);
  }
  await serveMcpHttp(settings, http, auth, options.extensions);
}

/** Reports a startup problem and exits non-zero (PmError exit codes, 2 for a command-line mistake, 1 otherwise). */
function failHttpStart(error: unknown): never {
  log.line(error instanceof Error ? error.message : String(error));
  process.exit(error instanceof PmError ? error.exitCode : error instanceof CommandLineError ? 2 : 1);
}

/**
 * The directory the user started from: `npm start` runs its script in the package root and
 * passes the invoking directory as INIT_CWD; anything else (a shell, a process spawned by
 * another npm script such as `npm test`) uses the process's own cwd.
 */
function launchDirectory(env: NodeJS.ProcessEnv): string {
  return env.npm_lifecycle_event === 'start' && env.INIT_CWD ? env.INIT_CWD : process.cwd();
}

/**
 * Serves pm-mcp-http once its settings are parsed (the startup and shutdown steps of `main`
 * in mcp-http-main.ts, which imports this module only to serve; seed 004 "Transport
 * behavior"). The tracker is created only after the address is bound, so a busy port leaves
 * nothing behind; a failure after creating it says where it is.
 */
async function serveMcpHttp(settings: Settings, http: HttpSettings, auth: AuthSettings, extensions?: readonly PmMcpServerExtension[]): Promise<void> {
  let listener: McpHttpListener;
  try {
    listener = await listenMcpHttp({ host: http.host, port: http.port, maxHeaderBytes: http.maxHeaderBytes });
  } catch (error) {
    return failHttpStart(error);
  }
  let app: HttpServerApp;
  let createdTracker: string | undefined;
  let telemetry: Telemetry | undefined;
  try {
    createdTracker = await ensureTracker(settings, http.initTracker);
    telemetry = await createOtelTelemetry(settings.otel, 'pm-mcp-http');
    app = await composeHttpServer(settings, { settings: http, auth, listener }, { log, ...(extensions ? { extensions } : {}), ...(telemetry ? { telemetry } : {}) });
    if (app.shared) await openShared(app.shared);
    await app.dispatcher.prepare(); // a bad config.yaml stops the server before it serves
    await app.transport.start(app.dispatcher);
  } catch (error) {
    await listener.close({ graceMs: 0 }).catch(() => undefined);
    if (createdTracker) log.line(`no tracker found from ${settings.cwd}; created one at ${createdTracker} (it stays: the next start serves it, or delete it)`);
    return failHttpStart(error);
  }
  const url = listener.url(http.path);
  if (createdTracker) log.line(`no tracker found from ${settings.cwd}; created one at ${createdTracker} (commit .agents/pm with your code)`);
  for (const warning of app.auth.warnings) log.line(`warning: ${warning}`);
  log.line(`serving tracker ${app.tracker.paths.root} (profile ${settings.mcpProfile ?? PM_MCP_DEFAULT_PROFILE}, ${app.server.tools?.size ?? 0} tools)`);
  log.line(`listening on ${url} (POST only; MCP 2026-07-28 per request, initialize-era 2025-11-25/2025-06-18 clients sessionless)`);
  if (http.path !== '/') log.line(`live board in the browser (read-only): ${listener.url('/')}`);
  log.line(`authorization: ${app.auth.reason}`);
  log.line(`legacy adapter: ${settings.legacyAdapter} (PM_MCP_LEGACY); OpenTelemetry: ${describeOtel(settings.otel)}`);
  const usage = logUsageEvery(app.usage, USAGE_LOG_INTERVAL_MS);
  log.line(`tasks, MRTR replay protection and change fan-out: ${app.shared ? `shared through ${app.shared.label}` : 'this tracker\'s runtime area (PM_MCP_TASK_STORE=file)'}`);
  log.line(`browser origins allowed: ${[...app.transport.security.origins].join(', ') || '(none)'}`);
  process.stderr.write(clientConfiguration(url, app.tracker.paths.root, app.auth.mode === 'jwt'));
  process.stdout.write(`${url}\n`);

  let stopping = false;
  const shared = app.shared;
  listener.probe({
    notReady: async () => {
      if (stopping) return ['draining'];
      if (shared && !(await shared.ping(1_000))) return [`database unreachable: ${shared.label}`];
      return [];
    },
  });
  const stop = async (signal: string) => {
    if (stopping) {
      log.line(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true; // readiness fails from now on
    const inFlight = app.transport.inFlight;
    log.line(`${signal}: shutting down (finishing ${inFlight} in-flight request${inFlight === 1 ? '' : 's'})`);
    const failed = await app.tasks.drain().catch(() => 0);
    if (failed) log.line(`failed ${failed} running task${failed === 1 ? '' : 's'} (worker_stopped): their clients read that on the next poll`);
    await app.transport.close();
    usage.stop();
    await telemetry?.shutdown().catch((error: unknown) => log.error('OpenTelemetry shutdown', error));
    await app.tracker.dispose();
    await shared?.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  if (process.env.npm_lifecycle_event === 'start') watchLauncher(() => void stop('npm exited'));
}

/** How often the usage totals are written to the log (besides first sight and shutdown). */
const USAGE_LOG_INTERVAL_MS = 10 * 60_000;

/** Writes the usage totals every `intervalMs` (the timer never keeps the process alive) and once more on `stop`. */
function logUsageEvery(usage: McpUsageCounter, intervalMs: number): { stop(): void } {
  const write = () => {
    for (const row of usage.snapshot()) log.line(formatMcpUsageLine(PM_SERVER_RUN, row));
  };
  const timer = setInterval(write, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      write();
    },
  };
}

/** Opens the shared database before serving (schema migrated, change listener on); a clear error when it is unreachable. */
async function openShared(shared: SharedDatabase): Promise<void> {
  try {
    await shared.open();
  } catch (error) {
    throw new Error(`cannot open the shared task store (${shared.label}): ${(error as Error).message}`, { cause: error });
  }
}

/** How often a server started by `npm start` checks that npm is still there. */
const LAUNCHER_CHECK_MS = 500;

/**
 * Under `npm start`, npm is the process a user (or a supervisor) stops, and npm exits on
 * SIGTERM without passing it on: the server would be re-parented and keep the port. So the
 * server treats the loss of its parent (`process.ppid` changing) as SIGTERM and shuts down
 * gracefully. The timer does not keep the process alive.
 */
function watchLauncher(onGone: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, LAUNCHER_CHECK_MS);
  timer.unref();
}


/**
 * Finds the tracker (walking up from the launch directory, or PM_ROOT). When there is none and
 * PM_ROOT is unset, creates one in the launch directory (unless `init` is off) and returns its
 * root; with PM_ROOT naming no tracker, or `--no-init`, the not-found error stands.
 */
async function ensureTracker(settings: Settings, init: boolean): Promise<string | undefined> {
  const fs = new NodeFileSystem({ durable: settings.durable });
  try {
    await locateTrackerRoot(fs, settings.cwd, settings.root);
    return undefined;
  } catch (error) {
    if (!(error instanceof TrackerNotFoundError) || settings.root !== undefined || !init) throw error;
  }
  const result = await initTracker(fs, trackerRootFor(settings.cwd));
  return result.root;
}

/** The ready-to-paste MCP client configuration for this server (HTTP) and for pm-mcp (stdio). */
export function clientConfiguration(url: string, trackerRoot: string, bearer: boolean): string {
  const project = trackerRoot.replace(/\/\.agents\/pm\/?$/, '');
  const stdioBin = fileURLToPath(new URL('../../bin/pm-mcp.cjs', import.meta.url));
  const config = {
    mcpServers: {
      pm: { type: 'http', url, ...(bearer ? { headers: { Authorization: 'Bearer <access token>' } } : {}) },
      'pm-stdio': { command: process.execPath, args: [stdioBin], env: { PM_ROOT: project } },
    },
  };
  return [
    '',
    'MCP client configuration (paste into .mcp.json or your client\'s "mcpServers"; keep the entry you use):',
    JSON.stringify(config, null, 2),
    'Stop with Ctrl+C or SIGTERM: in-flight requests finish and listen streams end gracefully.',
    '',
  ].join('\n');
}
