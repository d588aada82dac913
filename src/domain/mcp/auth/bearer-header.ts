/**
 * Reads bearer credentials from an `Authorization` header value (RFC 6750 §2.1
 * "Authorization Request Header Field": `Bearer 1*SP b64token`; the scheme is
 * case-insensitive, RFC 9110 §11.1). pm accepts tokens in this header only: the form body and
 * URI query methods (RFC 6750 §2.2, §2.3) are not supported, and the HTTP transport refuses a
 * request carrying `access_token` in its query string (2026-07-28 `basic/authorization`).
 */

/** What the header says. */
export type McpBearerCredentials =
  /** No Authorization header at all. */
  | { readonly kind: 'missing' }
  /**
   * Another scheme (Basic, Digest, …): for a bearer resource server, no credentials. `scheme`
   * is set only when it is safe to repeat to the client (see {@link nameableMcpAuthScheme}).
   */
  | { readonly kind: 'other-scheme'; readonly scheme?: string }
  /** `Bearer` with no token, several tokens, or characters outside b64token. */
  | { readonly kind: 'malformed'; readonly detail: string }
  | { readonly kind: 'token'; readonly token: string };

/** RFC 6750 §2.1 `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Longest token accepted (a JWT with a few kilobytes of claims fits easily). */
export const MCP_MAX_BEARER_TOKEN_LENGTH = 16 * 1024;

/** Longest scheme word pm repeats in an error (registered schemes are short: Basic, Negotiate). */
const MAX_NAMED_SCHEME_LENGTH = 20;

/**
 * The scheme word of a header value when it may be repeated in an error message: letters only,
 * at most {@link MAX_NAMED_SCHEME_LENGTH} of them, and followed by credentials. A value with no
 * space is a raw credential (a JWT or an API key sent without `Bearer`), and anything with
 * digits or symbols may be one: credentials are never reflected to the client (RFC 6750 §5.3
 * "Summary of Recommendations": safeguard bearer tokens), so those get no name.
 */
function nameableMcpAuthScheme(scheme: string, hasCredentials: boolean): string | undefined {
  return hasCredentials && scheme.length <= MAX_NAMED_SCHEME_LENGTH && /^[A-Za-z]+$/.test(scheme) ? scheme : undefined;
}

/** Parses one Authorization header value (undefined or empty: missing). */
export function parseMcpBearerAuthorization(header: string | undefined): McpBearerCredentials {
  const value = header?.trim();
  if (!value) return { kind: 'missing' };
  const space = value.search(/[ \t]/);
  const scheme = space < 0 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') {
    const named = nameableMcpAuthScheme(scheme, space >= 0);
    return named === undefined ? { kind: 'other-scheme' } : { kind: 'other-scheme', scheme: named };
  }
  const token = space < 0 ? '' : value.slice(space).trim();
  if (!token) return { kind: 'malformed', detail: 'the Bearer credentials carry no token' };
  if (token.length > MCP_MAX_BEARER_TOKEN_LENGTH) return { kind: 'malformed', detail: 'the bearer token is too long' };
  if (!B64TOKEN.test(token)) return { kind: 'malformed', detail: 'the bearer token has characters outside the b64token syntax' };
  return { kind: 'token', token };
}
