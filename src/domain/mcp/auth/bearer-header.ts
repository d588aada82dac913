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
  /** Another scheme (Basic, Digest, …): for a bearer resource server, no credentials. */
  | { readonly kind: 'other-scheme'; readonly scheme: string }
  /** `Bearer` with no token, several tokens, or characters outside b64token. */
  | { readonly kind: 'malformed'; readonly detail: string }
  | { readonly kind: 'token'; readonly token: string };

/** RFC 6750 §2.1 `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Longest token accepted (a JWT with a few kilobytes of claims fits easily). */
export const MCP_MAX_BEARER_TOKEN_LENGTH = 16 * 1024;

/** Parses one Authorization header value (undefined or empty: missing). */
export function parseMcpBearerAuthorization(header: string | undefined): McpBearerCredentials {
  const value = header?.trim();
  if (!value) return { kind: 'missing' };
  const space = value.search(/[ \t]/);
  const scheme = space < 0 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'other-scheme', scheme };
  const token = space < 0 ? '' : value.slice(space).trim();
  if (!token) return { kind: 'malformed', detail: 'the Bearer credentials carry no token' };
  if (token.length > MCP_MAX_BEARER_TOKEN_LENGTH) return { kind: 'malformed', detail: 'the bearer token is too long' };
  if (!B64TOKEN.test(token)) return { kind: 'malformed', detail: 'the bearer token has characters outside the b64token syntax' };
  return { kind: 'token', token };
}
