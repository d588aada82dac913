import { mcpHttpRejection, type McpHttpRejection } from './http-status.js';

/**
 * The browser-facing defences of pm-mcp-http (2026-07-28 `basic/transports/streamable-http`
 * "Security Warning"; seed 004 "Transport behavior": "defaults to loopback, enforces exact
 * browser origins"; 2026-07-28 `basic/transports/streamable-http` "Security Warning"). Pure policy over header strings; the HTTP adapter applies it
 * to every request before the body is read.
 *
 * - **Origin** (MUST be validated on every request): absent means a non-browser client and is
 *   allowed; present, it must equal one entry of an exact allowlist — the server's own origins
 *   (`http://<allowed host>`; a page there is same-origin) plus the configured ones. No
 *   wildcards; `null` is foreign. A foreign Origin gets 403.
 * - **Host** (DNS-rebinding protection: a rebound name still reaches the loopback socket, but
 *   its Host header names the attacker's domain): it must equal one of the server's own
 *   authorities — for a loopback bind `localhost:<port>`, `127.0.0.1:<port>`, `[::1]:<port>` and
 *   the bound address — or a configured allowed host. A wildcard bind (`0.0.0.0`, `::`) without
 *   configured hosts cannot know its names and does not check Host (authorization is required
 *   there). A foreign Host gets 421 Misdirected Request: the server is not authoritative for it.
 */

/** What the policy is computed from. */
export interface McpHttpSecurityOptions {
  /** The bound address or name (e.g. 127.0.0.1). */
  readonly host: string;
  /** The bound port (the real one, after listening on port 0). */
  readonly port: number;
  /** Extra browser origins allowed (exact, e.g. `https://app.example.com`). */
  readonly allowedOrigins?: readonly string[];
  /** Extra Host header values allowed (exact authority, e.g. `mcp.example.com` or `mcp.example.com:8443`). */
  readonly allowedHosts?: readonly string[];
}

/** The resolved, immutable policy. */
export interface McpHttpSecurityPolicy {
  /** Lowercase Host values accepted; undefined = Host is not checked (wildcard bind, none configured). */
  readonly hosts: ReadonlySet<string> | undefined;
  /** Origins accepted, exact. */
  readonly origins: ReadonlySet<string>;
  readonly loopback: boolean;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1', '[::1]'];

/** True when `host` names a loopback interface (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return LOOPBACK_NAMES.includes(h) || /^127(\.\d{1,3}){3}$/.test(h);
}

/** True for the wildcard addresses that bind every interface. */
export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]' || host === '';
}

/** `host:port` with IPv6 literals bracketed. */
export function mcpHttpAuthority(host: string, port: number): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${h.toLowerCase()}:${port}`;
}

/** Normalizes a configured origin: lowercase, no trailing slash. Throws a RangeError when it is not an origin. */
export function normalizeMcpHttpOrigin(origin: string): string {
  const trimmed = origin.trim().replace(/\/+$/, '').toLowerCase();
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/.test(trimmed)) throw new RangeError(`not an origin (scheme://host[:port]): ${JSON.stringify(origin)}`);
  return trimmed;
}

/** Computes the policy (throws a RangeError on a malformed configured origin or host). */
export function createMcpHttpSecurityPolicy(options: McpHttpSecurityOptions): McpHttpSecurityPolicy {
  const loopback = isLoopbackHost(options.host);
  const own: string[] = [];
  if (loopback) own.push(...['localhost', '127.0.0.1', '::1'].map((h) => mcpHttpAuthority(h, options.port)), mcpHttpAuthority(options.host, options.port));
  else if (!isWildcardHost(options.host)) own.push(mcpHttpAuthority(options.host, options.port));
  if (options.port === 80) own.push(...own.map((a) => a.slice(0, a.lastIndexOf(':'))));
  const configured = (options.allowedHosts ?? []).map((h) => {
    const value = h.trim().toLowerCase();
    if (!/^[^\s/?#@]+$/.test(value)) throw new RangeError(`not a host[:port]: ${JSON.stringify(h)}`);
    return value;
  });
  const hosts = own.length || configured.length ? new Set([...own, ...configured]) : undefined;
  const origins = new Set<string>([...own.map((a) => `http://${a}`), ...(options.allowedOrigins ?? []).map(normalizeMcpHttpOrigin)]);
  return Object.freeze({ hosts, origins, loopback });
}

/** The Origin check: undefined when allowed, else the 403 rejection. */
export function checkMcpHttpOrigin(policy: McpHttpSecurityPolicy, origin: string | undefined): McpHttpRejection | undefined {
  if (origin === undefined) return undefined;
  if (policy.origins.has(origin) || policy.origins.has(origin.trim())) return undefined;
  return mcpHttpRejection(403, `Forbidden: Origin ${JSON.stringify(origin)} is not allowed (configure PM_MCP_HTTP_ALLOWED_ORIGINS or --allow-origin)`);
}

/** The Host check (DNS-rebinding protection): undefined when allowed, else the 421 rejection. */
export function checkMcpHttpHost(policy: McpHttpSecurityPolicy, host: string | undefined): McpHttpRejection | undefined {
  if (!policy.hosts) return undefined;
  // Exact hit first (the usual case: no whitespace, already lowercase), then normalized.
  if (host !== undefined && (policy.hosts.has(host) || policy.hosts.has(host.trim().toLowerCase()))) return undefined;
  return mcpHttpRejection(421, `Misdirected request: Host ${JSON.stringify(host ?? '')} is not served here (configure PM_MCP_HTTP_ALLOWED_HOSTS or --allow-host)`);
}
