import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';

/** What a host embedding pm-mcp-http's entry point may add. */
export interface HttpMainOptions {
  /** Server extensions to register besides the built-in ones. */
  readonly extensions?: readonly PmMcpServerExtension[];
}

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
 * `pm-mcp-http --help` and `pm-mcp-http --version` alone are answered before anything else is
 * imported: the settings (zod), the server (express, jose, the tracker, the container) live in
 * mcp-http-serve.ts, loaded only to start. Any other command line is read there in full
 * (`--help` among other flags too); an unknown flag exits 2.
 *
 * Probes for a load balancer: `GET /healthz` (the process answers) and `GET /readyz` (503
 * while starting, draining, or while the shared database is unreachable).
 *
 * Shutdown on SIGTERM/SIGINT: readiness fails; the tasks this process runs are failed saying
 * the server was shut down (a client polling through another instance reads that at once);
 * refuse new POSTs (503), end listen streams gracefully (their closing result), let in-flight
 * requests finish (at most 10 s), close the sockets, release the tracker and the database,
 * exit 0. A second signal exits at once.
 */
export async function main(argv: readonly string[] = process.argv.slice(2), options: HttpMainOptions = {}): Promise<void> {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h' || argv[0] === '--version')) {
    const answer = argv[0] === '--version' ? `${(await import('./package-info.js')).packageInfo().version}\n` : (await import('./http-usage.js')).PM_MCP_HTTP_USAGE;
    process.stdout.write(answer, () => process.exit(0));
    return;
  }
  const { startMcpHttp } = await import('./mcp-http-serve.js');
  await startMcpHttp(argv, options);
}
