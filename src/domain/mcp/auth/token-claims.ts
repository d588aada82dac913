import type { Principal } from '../../../ports/authorizer.js';
import { PmMcpInsufficientScopeError, PmMcpUnauthorizedError, type PmMcpChallengeContext } from './auth-errors.js';
import { mcpProtectedResourceMetadataUrl } from './resource-uri.js';
import { missingMcpScopes, readMcpScopeClaim, type McpScopeHierarchy } from './scopes.js';

/**
 * The issuer/audience/time/scope binding of an access token, after its signature has been
 * verified (2026-07-28 `basic/authorization`: token validation per OAuth 2.1 §5.2, audience binding per RFC 8707
 * — accept only tokens issued for this server; RFC 9068 §4 "Validating JWT Access Tokens";
 * RFC 7519 §4.1 registered claims). Pure: the caller supplies the verified claims and the time.
 */

/**
 * Whether a JWS header's `typ` names a JWT access token: `at+jwt` (RFC 9068 §2.1 "Header",
 * checked by resource servers per §4), with or without the `application/` prefix, in any case
 * (RFC 7515 §4.1.9: a media type, whose `application/` may be omitted; media types compare
 * case-insensitively). Other JWTs (ID tokens, logout tokens) carry other types or none, which
 * is what the opt-in check exists to tell apart.
 */
export function isMcpAccessTokenType(typ: unknown): boolean {
  if (typeof typ !== 'string') return false;
  const type = typ.toLowerCase();
  return type === 'at+jwt' || type === 'application/at+jwt';
}

/** Default leeway for `exp`/`nbf` against clock skew, in seconds. */
export const PM_MCP_DEFAULT_CLOCK_TOLERANCE_SEC = 30;

/** What a token must satisfy. */
export interface McpTokenClaimsPolicy {
  /** The exact `iss` (RFC 8414 issuer identifier; compared as a string, no normalization). */
  readonly issuer: string;
  /** This server's resource URI: `aud` (string or array) must contain it exactly. */
  readonly audience: string;
  /** Scopes the operation needs; a valid token lacking them gets 403 insufficient_scope. */
  readonly requiredScopes: readonly string[];
  /** The current time: milliseconds since the epoch (a Clock port's `now()`) or a Date. */
  readonly now: number | Date;
  /** Leeway for `exp` and `nbf` (default {@link PM_MCP_DEFAULT_CLOCK_TOLERANCE_SEC}). */
  readonly clockToleranceSec?: number;
  /** Scope implications (e.g. write ⇒ read); see `pmMcpScopeHierarchy`. */
  readonly scopeHierarchy?: McpScopeHierarchy;
  /** The `resource_metadata` of challenges (default: derived from `audience`, RFC 9728 §3.1). */
  readonly resourceMetadataUrl?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === 'object' && !Array.isArray(value);
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * Checks verified JWT claims against `policy` and returns the principal:
 * `{ id: sub (or client_id), scopes: the granted scopes, issuer: iss }`.
 * - `iss` must equal `policy.issuer` exactly;
 * - `aud` (string or array of strings) must contain `policy.audience` exactly;
 * - `exp` is required and must lie in the future, `nbf` (if present) in the past, both within
 *   the clock tolerance; `iat`, when present, must be a number;
 * - `sub`, else `client_id`, must be a non-empty string;
 * - granted scopes come from `scope` (space-separated) or `scp` (array or string).
 * Throws {@link PmMcpUnauthorizedError} (`invalid_token`, HTTP 401) for any broken binding and
 * {@link PmMcpInsufficientScopeError} (HTTP 403) when the scopes, after the hierarchy, do not
 * cover `requiredScopes`.
 */
export function assertMcpTokenClaims(claims: unknown, policy: McpTokenClaimsPolicy): Principal {
  const context: PmMcpChallengeContext = {
    resourceMetadataUrl: policy.resourceMetadataUrl ?? mcpProtectedResourceMetadataUrl(policy.audience),
    requiredScopes: policy.requiredScopes,
  };
  const refuse = (description: string) => new PmMcpUnauthorizedError(description, { ...context, error: 'invalid_token' });
  if (!isRecord(claims)) throw refuse('the token claims are not a JSON object');

  if (typeof claims.iss !== 'string') throw refuse('the token names no issuer');
  if (claims.iss !== policy.issuer) throw refuse(`the token was issued by ${claims.iss}, not by the trusted issuer ${policy.issuer}`);

  const aud = claims.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) && aud.every((a) => typeof a === 'string') ? (aud as string[]) : undefined;
  if (!audiences) throw refuse('the token names no audience; it must be issued for this resource (RFC 8707)');
  if (!audiences.includes(policy.audience)) throw refuse(`the token is not issued for this resource ${policy.audience}`);

  const now = (typeof policy.now === 'number' ? policy.now : policy.now.getTime()) / 1000;
  const tolerance = policy.clockToleranceSec ?? PM_MCP_DEFAULT_CLOCK_TOLERANCE_SEC;
  if (!isTime(claims.exp)) throw refuse('the token has no numeric exp (expiry) claim');
  if (now - tolerance >= claims.exp) throw refuse(`the token expired at ${iso(claims.exp)}`);
  if (claims.nbf !== undefined) {
    if (!isTime(claims.nbf)) throw refuse('the token has a malformed nbf claim');
    if (now + tolerance < claims.nbf) throw refuse(`the token is not valid before ${iso(claims.nbf)}`);
  }
  if (claims.iat !== undefined && !isTime(claims.iat)) throw refuse('the token has a malformed iat claim');

  const id = typeof claims.sub === 'string' && claims.sub.trim() ? claims.sub : typeof claims.client_id === 'string' && claims.client_id.trim() ? claims.client_id : undefined;
  if (id === undefined) throw refuse('the token names no subject (sub or client_id)');

  const scopes = readMcpScopeClaim(claims);
  if (scopes === null) throw refuse('the token has a malformed scope claim');
  const granted = Object.freeze([...(scopes ?? [])]);
  const missing = missingMcpScopes(granted, policy.requiredScopes, policy.scopeHierarchy);
  if (missing.length) throw new PmMcpInsufficientScopeError({ ...context, missingScopes: missing });
  return Object.freeze({ id, scopes: granted, issuer: claims.iss });
}
