/**
 * The `WWW-Authenticate: Bearer …` challenge of an MCP resource server (2026-07-28 `basic/authorization`;
 * RFC 6750 §3 "The WWW-Authenticate Response Header Field"; RFC 9728 §5.1
 * "WWW-Authenticate Response"). Pure string building: no HTTP framework here.
 */

/** The RFC 6750 §3.1 error codes a resource server sends. */
export type McpBearerErrorCode = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

/** What one challenge says. */
export interface McpWwwAuthenticateInput {
  /** Absolute URL of this server's RFC 9728 metadata document (`resource_metadata`, always sent). */
  readonly resourceMetadataUrl: string;
  /** Scopes the request needs (`scope`; omitted when empty). RFC 6749 §3.3 scope tokens. */
  readonly scope?: readonly string[];
  /**
   * The RFC 6750 error code. Omit it when the request carried no bearer credentials at all:
   * RFC 6750 §3.1 says the server SHOULD NOT include an error code then.
   */
  readonly error?: McpBearerErrorCode;
  /** Human-readable detail (`error_description`); only sent together with `error`. */
  readonly errorDescription?: string;
}

/** RFC 6749 §3.3 `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
/** RFC 6750 §3: `error_description` characters are limited to %x20-21 / %x23-5B / %x5D-7E. */
const DESCRIPTION_FORBIDDEN = /[^\x20\x21\x23-\x5B\x5D-\x7E]/g;
const ERROR_CODES: ReadonlySet<string> = new Set(['invalid_request', 'invalid_token', 'insufficient_scope']);
const MAX_DESCRIPTION = 300;

/** True when `scope` is a valid RFC 6749 §3.3 scope token (no spaces, quotes or backslashes). */
export function isMcpScopeToken(scope: string): boolean {
  return SCOPE_TOKEN.test(scope);
}

/** RFC 9110 §5.6.4 quoted-string: backslash-escape `"` and `\`; control characters are refused. */
function quoted(name: string, value: string): string {
  if (/[\x00-\x1F\x7F]/.test(value)) throw new RangeError(`WWW-Authenticate ${name} must not contain control characters`);
  return `${name}="${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * Makes free text a legal RFC 6750 `error_description`: characters outside the allowed set
 * (quotes, backslashes, control and non-ASCII characters) are replaced, and it is bounded.
 */
export function sanitizeMcpErrorDescription(text: string): string {
  const clean = text.replace(/"/g, "'").replace(/\\/g, '/').replace(DESCRIPTION_FORBIDDEN, '?').trim();
  return clean.length > MAX_DESCRIPTION ? `${clean.slice(0, MAX_DESCRIPTION - 3)}...` : clean;
}

/**
 * Builds the exact `WWW-Authenticate` header value, e.g.
 * `Bearer resource_metadata="https://h/.well-known/oauth-protected-resource/mcp", scope="pm:read", error="invalid_token", error_description="token expired"`.
 * Attribute order: resource_metadata, scope, error, error_description (order carries no meaning
 * in RFC 9110 auth-params). Throws RangeError on an invalid scope token, a relative
 * resource_metadata or an unknown error code: those are programming or configuration errors.
 */
export function buildMcpWwwAuthenticate(input: McpWwwAuthenticateInput): string {
  if (!/^https?:\/\//i.test(input.resourceMetadataUrl)) throw new RangeError(`resource_metadata must be an absolute http(s) URL (got ${JSON.stringify(input.resourceMetadataUrl)})`);
  const params = [quoted('resource_metadata', input.resourceMetadataUrl)];
  const scope = input.scope ?? [];
  for (const token of scope) if (!isMcpScopeToken(token)) throw new RangeError(`invalid scope token ${JSON.stringify(token)}`);
  if (scope.length) params.push(quoted('scope', [...new Set(scope)].join(' ')));
  if (input.error !== undefined) {
    if (!ERROR_CODES.has(input.error)) throw new RangeError(`unknown bearer error code ${JSON.stringify(input.error)}`);
    params.push(quoted('error', input.error));
    const description = input.errorDescription === undefined ? '' : sanitizeMcpErrorDescription(input.errorDescription);
    if (description) params.push(quoted('error_description', description));
  }
  return `Bearer ${params.join(', ')}`;
}
