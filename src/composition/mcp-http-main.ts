import { userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Container } from 'inversify';
import { createExpressMcpApp } from '../adapters/http/express-mcp-app.js';
import { listenMcpHttp, type McpHttpListener } from '../adapters/http/mcp-http-server.js';
import { NodeFileSystem } from '../adapters/node/node-file-system.js';
import { TrackerNotFoundError } from '../domain/errors/tracker-errors.js';
import { PmError } from '../domain/errors/pm-error.js';
import { pmMcpRequiredScopes } from '../domain/mcp/auth/scopes.js';
import type { PmMcpDispatcher } from '../domain/mcp/dispatcher.js';
import { createMcpHttpAuthorize } from '../domain/mcp/http/authorize.js';
import { PmMcpHttpEndpoint } from '../domain/mcp/http/endpoint.js';
import { createMcpHttpSecurityPolicy } from '../domain/mcp/http/http-security.js';
import type { PmMcpServerDescriptor } from '../domain/mcp/server-descriptor.js';
import { PM_MCP_DEFAULT_PROFILE } from '../domain/mcp-tracker/profiles.js';
import type { PmMcpSubscriptionRegistry } from '../domain/mcp/subscriptions/subscription-registry.js';
import { initTracker } from '../domain/tracker/init.js';
import { locateTrackerRoot, trackerRootFor } from '../domain/tracker/root-locator.js';
import type { Tracker } from '../domain/tracker/tracker.js';
import { authSettingsFromEnv, resolveHttpAuthMode, type ResolvedHttpAuth } from './auth-settings.js';
import { buildContainer } from './container.js';
import { httpAuthModule } from './http-auth-module.js';
import { httpSettingsFromArgs, PM_MCP_HTTP_USAGE, type HttpSettings } from './http-settings.js';
import { IDS } from './service-ids.js';
import { settingsFromEnv, type Settings } from './settings.js';

/**
 * pm-mcp-http: the MCP server over sessionless Streamable HTTP (seed 004 "Transport behavior":
 * pm-mcp-http binds the same dispatcher to HTTP POST; docs/HTTP.md). `npm start` runs it.
 *
 * Startup: settings (flags, PM_MCP_HTTP_*, PM_MCP_AUTH*, the tracker's PM_*), the authorization
 * rule (off on loopback, required elsewhere), the tracker found from the launch directory —
 * created there, and said so on stderr, when none exists (unless --no-init or PM_ROOT names
 * another place) — then bind, and print the endpoint URL (alone on stdout, for scripts) and a
 * ready-to-paste client configuration for HTTP and stdio (on stderr, with the diagnostics).
 * Problems are reported on stderr with a non-zero exit before anything is served.
 *
 * Shutdown on SIGTERM/SIGINT: stop accepting connections, refuse new POSTs on open ones (503),
 * end listen streams gracefully (their closing result), let in-flight requests finish (at most
 * 10 s), close the sockets, release the tracker, exit 0. A second signal exits at once.
 */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const env = process.env;
  let http: HttpSettings;
  let settings: Settings;
  let tracker: Tracker;
  let server: PmMcpServerDescriptor;
  let dispatcher: PmMcpDispatcher;
  let subscriptions: PmMcpSubscriptionRegistry;
  let listener: McpHttpListener;
  let container: Container;
  let createdTracker: string | undefined;
  const authSettings = (() => {
    try {
      const line = httpSettingsFromArgs(argv, env);
      if (line.kind === 'help') {
        process.stdout.write(PM_MCP_HTTP_USAGE);
        process.exit(0);
      }
      http = line.settings;
      const auth = authSettingsFromEnv(env);
      resolveHttpAuthMode(http.host, auth); // the loopback/remote rule fails before anything else
      return auth;
    } catch (error) {
      return fail(error);
    }
  })();
  try {
    settings = settingsFromEnv(env, launchDirectory(env), safeUser);
    createdTracker = await ensureTracker(settings, http!.initTracker);
    container = await buildContainer(settings, 'node');
    tracker = await container.getAsync(IDS.Tracker);
    await tracker.ready(); // a bad config.yaml stops the server before it listens
    server = await container.getAsync(IDS.McpServer);
    subscriptions = await container.getAsync(IDS.McpSubscriptions);
    dispatcher = await container.getAsync(IDS.McpDispatcher);
    listener = await listenMcpHttp({ host: http!.host, port: http!.port, maxHeaderBytes: http!.maxHeaderBytes });
  } catch (error) {
    return fail(error);
  }
  const log = (line: string) => process.stderr.write(`pm-mcp-http: ${line}\n`);
  const onError = (error: unknown) => log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const url = listener.url(http!.path);
  let endpoint: PmMcpHttpEndpoint;
  let metadata: { document: unknown; paths: readonly string[] } | undefined;
  let authLine: string;
  try {
    // Authorization needs the bound endpoint (its resource URI): wired now (http-auth-module.ts).
    container!.bind(IDS.HttpAuthSettings).toConstantValue(authSettings);
    container!.bind(IDS.McpHttpEndpoint).toConstantValue({ host: http!.host, resourceUri: url });
    await container!.load(httpAuthModule);
    const auth: ResolvedHttpAuth = await container!.getAsync(IDS.HttpAuth);
    authLine = auth.reason;
    for (const warning of auth.warnings) log(`warning: ${warning}`);
    let authorize;
    if (auth.mode === 'jwt') {
      // Tokens required: every POST is authorized on its own and its principal reaches the
      // handlers. With authorization off no principal is set, exactly as on stdio.
      const authorizer = await container!.getAsync(IDS.Authorizer);
      authorize = createMcpHttpAuthorize(authorizer, (message) => pmMcpRequiredScopes(message, server.tools, auth.scopes), { onInternalError: onError });
      metadata = { document: auth.metadata, paths: auth.metadataPaths };
    }
    endpoint = new PmMcpHttpEndpoint({ server, dispatcher, ...(authorize ? { authorize } : {}) });
    const security = createMcpHttpSecurityPolicy({ host: http!.host, port: listener.port, allowedOrigins: http!.allowedOrigins, allowedHosts: http!.allowedHosts });
    listener.serve(
      createExpressMcpApp({ endpoint, path: http!.path, security, maxBodyBytes: http!.maxBodyBytes, ...(metadata ? { protectedResourceMetadata: metadata } : {}), onError }),
    );
    if (createdTracker) log(`no tracker found from ${settings.cwd}; created one at ${createdTracker} (commit .agents/pm with your code)`);
    log(`serving tracker ${tracker.paths.root} (profile ${settings.mcpProfile ?? PM_MCP_DEFAULT_PROFILE}, ${server.tools?.size ?? 0} tools)`);
    log(`listening on ${url} (POST only; MCP 2026-07-28 per request, initialize-era 2025-11-25/2025-06-18 clients sessionless)`);
    log(`authorization: ${authLine}`);
    log(`browser origins allowed: ${[...security.origins].join(', ') || '(none)'}`);
    process.stderr.write(clientConfiguration(url, tracker.paths.root, auth.mode === 'jwt'));
    process.stdout.write(`${url}\n`);
  } catch (error) {
    await listener.close({ graceMs: 0 }).catch(() => undefined);
    return fail(error);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: shutting down (finishing ${endpoint.inFlight} in-flight request${endpoint.inFlight === 1 ? '' : 's'})`);
    endpoint.close();
    await listener.close({
      drain: async () => {
        subscriptions.shutdown(); // listen streams answer their closing result and end
        await endpoint.idle();
      },
      graceMs: 10_000,
    });
    await tracker.dispose();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** Reports a startup problem and exits non-zero (PmError exit codes, 1 otherwise). */
function fail(error: unknown): never {
  process.stderr.write(`pm-mcp-http: ${error instanceof Error ? error.message : String(error)}\n`);
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

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
