import { z } from 'zod';
import type { JoseKeySource } from '../adapters/http/jose-key-source.js';
import { buildMcpProtectedResourceMetadata, type McpProtectedResourceMetadata } from '../domain/mcp/auth/protected-resource-metadata.js';
import { canonicalMcpResourceUri, mcpProtectedResourceMetadataPaths, mcpProtectedResourceMetadataUrl } from '../domain/mcp/auth/resource-uri.js';
import { pmMcpScopeHierarchy, type McpScopeHierarchy, type PmMcpScopeNames } from '../domain/mcp/auth/scopes.js';
import { isMcpScopeToken } from '../domain/mcp/auth/www-authenticate.js';
import { SettingsError } from './settings.js';

/**
 * Bearer-token authorization settings of pm-mcp-http (2026-07-28 `basic/authorization`; docs/AUTH.md),
 * parsed once by zod from the environment, and the startup rule: authorization is off on
 * loopback by default and required when binding elsewhere unless explicitly disabled.
 */

const list = (text: string | undefined) => (text === undefined ? undefined : text.split(/[\s,]+/).filter(Boolean));
const flag = (text: string | undefined) => text === '1' || text === 'true';
/** A strict on/off switch: 1/true on, 0/false or unset off, anything else left for zod to refuse. */
const strictFlag = (text: string | undefined): unknown => (text === undefined ? undefined : ['1', 'true'].includes(text) ? true : ['0', 'false'].includes(text) ? false : text);

function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

export const authSettingsSchema = z
  .object({
    /** PM_MCP_AUTH: off | jwt. Unset: jwt when an issuer or key is configured, else decided by the bind host. */
    mode: z.enum(['off', 'jwt']).optional(),
    /** PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE=1: with PM_MCP_AUTH=off, serve a non-loopback bind without tokens. */
    allowUnauthenticatedRemote: z.boolean().default(false),
    /** PM_MCP_AUTH_ISSUER: the exact `iss` accepted (an http(s) issuer identifier). */
    issuer: z.string().min(1).optional(),
    /** PM_MCP_AUTH_AUDIENCE: the exact audience required (default: the resource URI). */
    audience: z.string().min(1).optional(),
    /** PM_MCP_AUTH_RESOURCE: the public resource URI (behind a proxy); default: the listening endpoint. */
    resource: z.string().min(1).optional(),
    /** PM_MCP_AUTH_JWKS_FILE: a JWKS file with the issuer's public keys. */
    jwksFile: z.string().min(1).optional(),
    /** PM_MCP_AUTH_JWKS_URL: the issuer's JWKS endpoint (https, or http on loopback). */
    jwksUrl: z.string().min(1).optional(),
    /** PM_MCP_AUTH_SECRET: a shared HS256 secret of at least 32 bytes (local development). */
    secret: z.string().min(1).optional(),
    /** PM_MCP_AUTH_SERVERS: authorization servers listed in the metadata (default: the issuer). */
    servers: z.array(z.string()).min(1).optional(),
    /** PM_MCP_AUTH_READ_SCOPE / PM_MCP_AUTH_WRITE_SCOPE. */
    readScope: z.string().default('pm:read'),
    writeScope: z.string().default('pm:write'),
    /** PM_MCP_AUTH_REQUIRE_AT_JWT=1: refuse tokens whose header lacks typ at+jwt (RFC 9068 §4). */
    requireAccessTokenType: z.boolean({ error: 'PM_MCP_AUTH_REQUIRE_AT_JWT must be 1, true, 0 or false' }).default(false),
    /** PM_MCP_AUTH_CLOCK_TOLERANCE_SEC: leeway for exp/nbf. */
    clockToleranceSec: z.number().int().min(0).max(300).default(30),
    /** PM_MCP_AUTH_ALGORITHMS: accepted JWS algorithms (default: asymmetric for JWKS, HS256 for a secret). */
    algorithms: z.array(z.string().min(1)).min(1).optional(),
    /** PM_MCP_AUTH_RESOURCE_NAME / PM_MCP_AUTH_RESOURCE_DOCUMENTATION: metadata extras. */
    resourceName: z.string().min(1).default('pm'),
    resourceDocumentation: z.string().min(1).optional(),
  })
  .superRefine((s, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    for (const [path, scope] of [['readScope', s.readScope], ['writeScope', s.writeScope]] as const) {
      if (!isMcpScopeToken(scope)) issue(path, `${JSON.stringify(scope)} is not a valid scope token`);
      if (scope === 'offline_access') issue(path, 'offline_access cannot be a pm scope');
    }
    if (s.readScope === s.writeScope) issue('writeScope', 'the read and write scopes must differ');
    const jwtOnly = (['issuer', 'jwksFile', 'jwksUrl', 'secret'] as const).filter((key) => s[key] !== undefined);
    if (s.mode === 'off' && jwtOnly.length) issue('mode', `PM_MCP_AUTH=off but ${jwtOnly.join(', ')} ${jwtOnly.length > 1 ? 'are' : 'is'} set; set PM_MCP_AUTH=jwt or remove them`);
    if (s.mode === 'off' || (s.mode === undefined && !jwtOnly.length)) return;
    if (s.issuer === undefined) return issue('issuer', 'PM_MCP_AUTH=jwt needs PM_MCP_AUTH_ISSUER (the exact token issuer)');
    if (!httpUrl(s.issuer)) issue('issuer', `PM_MCP_AUTH_ISSUER must be an http(s) URL (got ${JSON.stringify(s.issuer)})`);
    const sources = (['jwksFile', 'jwksUrl', 'secret'] as const).filter((key) => s[key] !== undefined);
    if (sources.length !== 1) issue('keys', `PM_MCP_AUTH=jwt needs exactly one of PM_MCP_AUTH_JWKS_FILE, PM_MCP_AUTH_JWKS_URL, PM_MCP_AUTH_SECRET (got ${sources.length})`);
    if (s.jwksUrl !== undefined) {
      const url = httpUrl(s.jwksUrl);
      if (!url || (url.protocol === 'http:' && !isLoopbackHost(url.hostname))) issue('jwksUrl', 'PM_MCP_AUTH_JWKS_URL must be an https URL (http only on a loopback host)');
    }
    if (s.secret !== undefined && new TextEncoder().encode(s.secret).length < 32) issue('secret', 'PM_MCP_AUTH_SECRET must be at least 32 bytes');
  });

export type AuthSettings = z.infer<typeof authSettingsSchema>;

/** Parses the PM_MCP_AUTH* variables; throws SettingsError naming the first problem. */
export function authSettingsFromEnv(env: NodeJS.ProcessEnv): AuthSettings {
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const tolerance = value('PM_MCP_AUTH_CLOCK_TOLERANCE_SEC');
  const parsed = authSettingsSchema.safeParse({
    mode: value('PM_MCP_AUTH'),
    allowUnauthenticatedRemote: flag(env.PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE),
    issuer: value('PM_MCP_AUTH_ISSUER'),
    audience: value('PM_MCP_AUTH_AUDIENCE'),
    resource: value('PM_MCP_AUTH_RESOURCE'),
    jwksFile: value('PM_MCP_AUTH_JWKS_FILE'),
    jwksUrl: value('PM_MCP_AUTH_JWKS_URL'),
    secret: value('PM_MCP_AUTH_SECRET'),
    servers: list(value('PM_MCP_AUTH_SERVERS')),
    readScope: value('PM_MCP_AUTH_READ_SCOPE'),
    writeScope: value('PM_MCP_AUTH_WRITE_SCOPE'),
    requireAccessTokenType: strictFlag(value('PM_MCP_AUTH_REQUIRE_AT_JWT')),
    clockToleranceSec: tolerance === undefined ? undefined : Number(tolerance),
    algorithms: list(value('PM_MCP_AUTH_ALGORITHMS')),
    resourceName: value('PM_MCP_AUTH_RESOURCE_NAME'),
    resourceDocumentation: value('PM_MCP_AUTH_RESOURCE_DOCUMENTATION'),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SettingsError(`invalid authorization configuration: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** True for a bind host that only this machine can reach: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

/**
 * True for an unspecified (wildcard) bind address — 0.0.0.0, ::, and their spellings — which
 * listens on every interface but is no address a client can connect to or a token can name.
 */
export function isWildcardHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === '0' || /^0+(\.0+){3}$/.test(h) || (/^[0:]+$/.test(h) && h.includes(':'));
}

/** How pm-mcp-http authorizes, and why. */
export interface HttpAuthMode {
  readonly mode: 'off' | 'jwt';
  /** One line for the startup banner. */
  readonly reason: string;
}

/**
 * The loopback/remote rule (seed 004 "Transport behavior": the remote adapter defaults to loopback and can require a bearer token; docs/AUTH.md): on a loopback host authorization is off
 * unless configured; on any other host it is required, unless explicitly disabled with BOTH
 * PM_MCP_AUTH=off and PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE=1. With tokens on a wildcard bind,
 * PM_MCP_AUTH_RESOURCE is required: the RFC 9728 `resource` must be the URL clients use
 * (2026-07-28 `basic/authorization`, RFC 8707 audience binding). Throws SettingsError otherwise.
 */
export function resolveHttpAuthMode(host: string, settings: AuthSettings): HttpAuthMode {
  const configured = settings.issuer !== undefined || settings.jwksFile !== undefined || settings.jwksUrl !== undefined || settings.secret !== undefined;
  const mode = settings.mode ?? (configured ? 'jwt' : undefined);
  if (mode === 'jwt') {
    if (isWildcardHost(host) && settings.resource === undefined) {
      throw new SettingsError(
        `bound to the wildcard address ${host} with bearer authorization: set PM_MCP_AUTH_RESOURCE to the public URL of the MCP endpoint (e.g. https://pm.example.com/mcp); the metadata and challenges would otherwise advertise http://${host}:PORT/..., which no client can reach and no token can name`,
      );
    }
    return { mode, reason: `bearer tokens from ${settings.issuer} required` };
  }
  if (isLoopbackHost(host)) return { mode: 'off', reason: `no authorization: bound to loopback ${host}` };
  if (mode === 'off' && settings.allowUnauthenticatedRemote) {
    return { mode: 'off', reason: `no authorization on non-loopback ${host} (PM_MCP_AUTH=off, PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE=1): anyone who reaches it can read and change the tracker` };
  }
  if (mode === 'off') {
    throw new SettingsError(`refusing to serve ${host} without authorization: PM_MCP_AUTH=off on a non-loopback host also needs PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE=1`);
  }
  throw new SettingsError(
    `binding to non-loopback ${host} requires bearer authorization: set PM_MCP_AUTH=jwt with PM_MCP_AUTH_ISSUER and one of PM_MCP_AUTH_JWKS_FILE, PM_MCP_AUTH_JWKS_URL, PM_MCP_AUTH_SECRET (see docs/AUTH.md), or disable it explicitly with PM_MCP_AUTH=off and PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE=1`,
  );
}

/** The listening endpoint, known once the server is bound (port 0 resolves then). */
export interface McpHttpEndpoint {
  /** The bind host (decides the loopback rule). */
  readonly host: string;
  /** The MCP endpoint URL, e.g. http://127.0.0.1:8787/mcp. */
  readonly resourceUri: string;
}

/** Everything the HTTP edge needs when authorization is off. */
export interface HttpAuthOff extends HttpAuthMode {
  readonly mode: 'off';
  readonly scopes: PmMcpScopeNames;
  readonly warnings: readonly string[];
}

/** Everything the HTTP edge and the authorizer need when bearer tokens are required. */
export interface HttpAuthJwt extends HttpAuthMode {
  readonly mode: 'jwt';
  /** The canonical resource URI (metadata `resource`). */
  readonly resource: string;
  /** The exact audience tokens must carry. */
  readonly audience: string;
  readonly issuer: string;
  /** Absolute `resource_metadata` URL of the challenges. */
  readonly resourceMetadataUrl: string;
  /** The RFC 9728 document and the paths it is served at. */
  readonly metadata: McpProtectedResourceMetadata;
  readonly metadataPaths: readonly string[];
  readonly keys: JoseKeySource;
  readonly algorithms: readonly string[] | undefined;
  /** Refuse tokens not typed at+jwt (PM_MCP_AUTH_REQUIRE_AT_JWT). */
  readonly requireAccessTokenType: boolean;
  readonly clockToleranceSec: number;
  readonly scopes: PmMcpScopeNames;
  readonly scopeHierarchy: McpScopeHierarchy;
  readonly warnings: readonly string[];
}

export type ResolvedHttpAuth = HttpAuthOff | HttpAuthJwt;

/**
 * Resolves the authorization of one listening endpoint: the mode (rule above) and, with
 * tokens, the canonical resource, audience, metadata document and key source. Throws
 * SettingsError for an unusable configuration (bad resource URI, bad metadata values).
 */
export function resolveHttpAuth(endpoint: McpHttpEndpoint, settings: AuthSettings): ResolvedHttpAuth {
  const { mode, reason } = resolveHttpAuthMode(endpoint.host, settings);
  const scopes: PmMcpScopeNames = Object.freeze({ read: settings.readScope, write: settings.writeScope });
  const remote = !isLoopbackHost(endpoint.host);
  if (mode === 'off') return { mode, reason, scopes, warnings: remote ? [reason] : [] };
  try {
    const resource = canonicalMcpResourceUri(settings.resource ?? endpoint.resourceUri);
    const issuer = settings.issuer!;
    const metadata = buildMcpProtectedResourceMetadata({
      resource,
      authorizationServers: settings.servers ?? [issuer],
      scopesSupported: [scopes.read, scopes.write],
      resourceName: settings.resourceName,
      ...(settings.resourceDocumentation !== undefined ? { resourceDocumentation: settings.resourceDocumentation } : {}),
    });
    const keys: JoseKeySource =
      settings.jwksFile !== undefined ? { kind: 'jwks-file', path: settings.jwksFile } : settings.jwksUrl !== undefined ? { kind: 'jwks-url', url: settings.jwksUrl } : { kind: 'secret', secret: settings.secret! };
    const warnings: string[] = [];
    if (remote && keys.kind === 'secret') warnings.push('PM_MCP_AUTH_SECRET is meant for local development; use a JWKS from your authorization server for remote serving');
    if (remote && resource.startsWith('http:')) warnings.push(`the resource ${resource} is plain http on a non-loopback host: bearer tokens travel unencrypted unless a TLS proxy fronts it (set PM_MCP_AUTH_RESOURCE to the public https URL)`);
    return {
      mode,
      reason,
      resource,
      audience: settings.audience ?? resource,
      issuer,
      resourceMetadataUrl: mcpProtectedResourceMetadataUrl(resource),
      metadata,
      metadataPaths: mcpProtectedResourceMetadataPaths(resource),
      keys,
      algorithms: settings.algorithms,
      requireAccessTokenType: settings.requireAccessTokenType,
      clockToleranceSec: settings.clockToleranceSec,
      scopes,
      scopeHierarchy: pmMcpScopeHierarchy(scopes),
      warnings,
    };
  } catch (error) {
    if (error instanceof RangeError) throw new SettingsError(`invalid authorization configuration: ${error.message}`);
    throw error;
  }
}
