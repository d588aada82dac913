/**
 * pm-mcp's command line. The stdio server is configured by its environment alone (a host
 * starts it with `command`, `args` and `env`), so the only arguments are the two every
 * command answers: `--help` and `--version`. Anything else is a mistake a person made while
 * trying it by hand, and is said so at once (exit 2) rather than left waiting on stdin for a
 * host that will never write (seed 004 "Transport behavior": stdout carries protocol messages
 * only, so these answers are printed only when no protocol is spoken).
 */

/** What the arguments ask for. */
export type StdioCommandLine =
  | { readonly kind: 'serve' }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'usage-error'; readonly message: string };

export const PM_MCP_USAGE = `Usage: pm-mcp [options]

Serves the tracker found from the current directory (or PM_ROOT) over MCP on stdin/stdout:
newline-delimited JSON-RPC, MCP 2026-07-28 per request and initialize-era clients too.
An MCP host starts it; run it by hand only to check that it starts (Ctrl+D ends it).

Options:
  -h, --help      this text
  --version       print the pm version

Configuration is by environment:
  PM_ROOT         the project directory holding .agents/pm (default: found from the cwd)
  PM_ACTOR        who mutations are recorded as when a client names nobody
  PM_MCP_PROFILE  core (default) | standard | full | custom
  PM_MCP_TOOLS    with custom: comma-separated tool names
  PM_DURABLE, PM_LOCK_TIMEOUT_MS, PM_MCP_TASK_TTL_MS, PM_MCP_SKILLS_DECLARATION
See docs/MCP.md.
`;

/** Reads pm-mcp's arguments (no I/O). */
export function stdioCommandLine(argv: readonly string[]): StdioCommandLine {
  const [first] = argv;
  if (first === undefined) return { kind: 'serve' };
  if (argv.length === 1 && (first === '--help' || first === '-h')) return { kind: 'help' };
  if (argv.length === 1 && first === '--version') return { kind: 'version' };
  const unknown = argv.find((arg) => !['--help', '-h', '--version'].includes(arg)) ?? argv[1]!;
  return { kind: 'usage-error', message: `unknown argument ${unknown}; pm-mcp takes no arguments but --help and --version (configuration is by environment: see pm-mcp --help)` };
}
