import { fileURLToPath } from 'node:url';
import { listenMcpHttp, type McpHttpListener } from '../adapters/http/mcp-http-server.js';
import { NodeFileSystem } from '../adapters/node/node-file-system.js';
import { PmError } from '../domain/errors/pm-error.js';
import { TrackerNotFoundError } from '../domain/errors/tracker-errors.js';
import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';
import { PM_MCP_DEFAULT_PROFILE } from '../domain/mcp-tracker/profiles.js';
import { initTracker } from '../domain/tracker/init.js';
import { locateTrackerRoot, trackerRootFor } from '../domain/tracker/root-locator.js';
import { authSettingsFromEnv, resolveHttpAuthMode, type AuthSettings } from './auth-settings.js';
import { composeHttpServer, type HttpServerApp } from './compose-http.js';
import { httpSettingsFromArgs, PM_MCP_HTTP_USAGE, type HttpSettings } from './http-settings.js';
import { osUser } from './os-user.js';
import { stderrLog } from './process-log.js';
import { settingsFromEnv, type Settings } from './settings.js';
import { PM_SERVER_RUN } from './mcp-module.js';
import { createOtelTelemetry } from './otel-composition.js';
import type { Telemetry } from '../ports/telemetry.js';
import type { McpUsageCounter } from '../domain/telemetry/usage-counter.js';
import { formatMcpUsageLine } from '../domain/telemetry/usage-log.js';

/** What a host embedding pm-mcp-http's entry point may add. */
export interface HttpMainOptions {
  /** Server extensions to register besides the built-in ones. */
  readonly extensions?: readonly PmMcpServerExtension[];
}

const log = stderrLog('pm-mcp-http');

/**
 * pm-mcp-http: the MCP server over sessionless Streamable HTTP (seed 004 "Transport behavior":
 * pm-mcp-http binds the same dispatcher to HTTP POST; docs/HTTP.md). `npm start` runs it.
 *
 * Startup, each step before the next: settings (flags, PM_MCP_HTTP_*, PM_MCP_AUTH*, the
 * tracker's PM_*) and the authorization rule (off on loopback, required elsewhere); bind the
 * address (requests get 503 until the server is ready); the tracker found from the launch
 * directory — created there, and said so on stderr, when none exists (unless --no-init or
 * PM_ROOT names another place); the whole graph (authorization keys loaded, the resource URI
 * of the bound address); config.yaml through the dispatcher's prepare hook; then serve, and
 * print the endpoint URL (alone on stdout, for scripts) and a ready-to-paste client
 * configuration for HTTP and stdio (on stderr, with the diagnostics). A problem at any step is
 * reported on stderr with a non-zero exit, and nothing is served.
 *
 * Shutdown on SIGTERM/SIGINT: refuse new POSTs (503), end listen streams gracefully (their
 * closing result), let in-flight requests finish (at most 10 s), close the sockets, release
 * the tracker, exit 0. A second signal exits at once.
 */
export async function main(argv: readonly string[] = process.argv.slice(2), options: HttpMainOptions = {}): Promise<void> {
  const env = process.env;
  let http: HttpSettings;
  let auth: AuthSettings;
  let settings: Settings;
  try {
    const line = httpSettingsFromArgs(argv, env);
    if (line.kind === 'help') {
      process.stdout.write(PM_MCP_HTTP_USAGE);
      process.exit(0);
    }
    http = line.settings;
    auth = authSettingsFromEnv(env);
    resolveHttpAuthMode(http.host, auth); // the loopback/remote rule fails before anything else
    settings = settingsFromEnv(env, launchDirectory(env), () => osUser(env), http.skillsDeclaration ? { skillsDeclaration: http.skillsDeclaration } : {});
  } catch (error) {
    return fail(error);
  }
  let listener: McpHttpListener;
  try {
    listener = await listenMcpHttp({ host: http.host, port: http.port, maxHeaderBytes: http.maxHeaderBytes });
  } catch (error) {
    return fail(error);
  }
  let app: HttpServerApp;
  let createdTracker: string | undefined;
  let telemetry: Telemetry | undefined;
  try {
    createdTracker = await ensureTracker(settings, http.initTracker);
    telemetry = await createOtelTelemetry(settings.otel, 'pm-mcp-http');
    app = await composeHttpServer(settings, { settings: http, auth, listener }, { log, ...(options.extensions ? { extensions: options.extensions } : {}), ...(telemetry ? { telemetry } : {}) });
    await app.dispatcher.prepare(); // a bad config.yaml stops the server before it serves
    await app.transport.start(app.dispatcher);
  } catch (error) {
    await listener.close({ graceMs: 0 }).catch(() => undefined);
    return fail(error);
  }
  const url = listener.url(http.path);
  if (createdTracker) log.line(`no tracker found from ${settings.cwd}; created one at ${createdTracker} (commit .agents/pm with your code)`);
  for (const warning of app.auth.warnings) log.line(`warning: ${warning}`);
  log.line(`serving tracker ${app.tracker.paths.root} (profile ${settings.mcpProfile ?? PM_MCP_DEFAULT_PROFILE}, ${app.server.tools?.size ?? 0} tools)`);
  log.line(`listening on ${url} (POST only; MCP 2026-07-28 per request, initialize-era 2025-11-25/2025-06-18 clients sessionless)`);
  log.line(`authorization: ${app.auth.reason}`);
  log.line(`legacy adapter: ${settings.legacyAdapter} (PM_MCP_LEGACY); OpenTelemetry: ${telemetry ? [settings.otel.traces ? 'traces' : '', settings.otel.metrics ? 'metrics' : ''].filter(Boolean).join(' and ') + ' over OTLP/HTTP' : 'off (set OTEL_EXPORTER_OTLP_ENDPOINT to export)'}`);
  const usage = logUsageEvery(app.usage, USAGE_LOG_INTERVAL_MS);
  log.line(`browser origins allowed: ${[...app.transport.security.origins].join(', ') || '(none)'}`);
  process.stderr.write(clientConfiguration(url, app.tracker.paths.root, app.auth.mode === 'jwt'));
  process.stdout.write(`${url}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.line(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    const inFlight = app.transport.inFlight;
    log.line(`${signal}: shutting down (finishing ${inFlight} in-flight request${inFlight === 1 ? '' : 's'})`);
    await app.transport.close();
    usage.stop();
    await telemetry?.shutdown().catch((error: unknown) => log.error('OpenTelemetry shutdown', error));
    await app.tracker.dispose();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
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

/** Reports a startup problem and exits non-zero (PmError exit codes, 1 otherwise). */
function fail(error: unknown): never {
  log.line(error instanceof Error ? error.message : String(error));
  process.exit(error instanceof PmError ? error.exitCode : 1);
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
