/**
 * pm-mcp-http's usage text, in a module of its own with no imports so `pm-mcp-http --help`
 * answers without loading the settings or the server (docs/HTTP.md "Configuration").
 */
export const PM_MCP_HTTP_USAGE = `Usage: pm-mcp-http [options]

Serves the tracker found from the current directory over MCP Streamable HTTP (2026-07-28,
sessionless POST; initialize-era clients too). Creates .agents/pm here when no tracker exists.

Options (environment variable in brackets):
  --host <addr>           bind address (default 127.0.0.1)          [PM_MCP_HTTP_HOST]
  --port <n>              port, 0 = any free port (default 8787)    [PM_MCP_HTTP_PORT]
  --path <path>           MCP endpoint path (default /mcp)          [PM_MCP_HTTP_PATH]
  --allow-origin <url>    allow a browser Origin (repeatable)       [PM_MCP_HTTP_ALLOWED_ORIGINS]
  --allow-host <host>     allow a Host header value (repeatable)    [PM_MCP_HTTP_ALLOWED_HOSTS]
  --max-body-bytes <n>    request body limit (default 1048576)      [PM_MCP_HTTP_MAX_BODY_BYTES]
  --max-header-bytes <n>  header block limit (default 16384)        [PM_MCP_HTTP_MAX_HEADER_BYTES]
  --no-init               fail instead of creating a tracker        [PM_MCP_HTTP_INIT=0]
  --skills-declaration <required|optional>
                          must skills requests declare the Skills
                          extension (default required)              [PM_MCP_SKILLS_DECLARATION]
  -h, --help              this text
  --version               print the pm version

Tracker and tools: PM_ROOT, PM_ACTOR, PM_MCP_PROFILE, PM_MCP_TOOLS (as for pm-mcp).
Several instances: PM_MCP_TASK_STORE=postgres://…, PM_MCP_PG_SCHEMA, PM_MCP_TASK_HEARTBEAT_MS;
probes GET /healthz and /readyz (docs/DEPLOY.md).
Authorization: PM_MCP_AUTH, PM_MCP_AUTH_ISSUER, PM_MCP_AUTH_JWKS_FILE | _JWKS_URL | _SECRET, …
(docs/AUTH.md). See docs/HTTP.md.
`;
