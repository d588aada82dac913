import { EXIT, PmError } from '../../errors/pm-error.js';
import { buildMcpWwwAuthenticate } from './www-authenticate.js';

/**
 * Authorization refusals of the MCP resource server (2026-07-28 `basic/authorization`; RFC 6750 §3.1). Each
 * carries the HTTP status and the exact `WWW-Authenticate` value the HTTP edge sends, plus a
 * JSON-RPC error for the body (every HTTP rejection carries one, 2026-07-28 `basic/transports/streamable-http`).
 *
 * JSON-RPC codes: MCP 2026-07-28 defines no authorization error codes (authorization lives in
 * HTTP status and headers), reserves -32000..-32099 to the spec, and asks applications to stay
 * outside -32768..-32000 (2026-07-28 `basic/index` "Error Codes"). pm therefore uses -31001 (401 semantics) and -31003
 * (403 semantics), next to the tracker's -31050..-31059.
 */
export const PM_MCP_AUTH_ERROR_CODES = Object.freeze({
  unauthorized: -31001,
  insufficientScope: -31003,
});

/** Where the challenge points and which scopes the refused operation needs. */
export interface PmMcpChallengeContext {
  /** Absolute URL of the RFC 9728 metadata document (`resource_metadata`). */
  readonly resourceMetadataUrl: string;
  /** Every scope the operation needs (`scope` of the challenge; 2026-07-28 `basic/authorization`). */
  readonly requiredScopes: readonly string[];
}

/** Base of the authorization refusals: a PmError with an HTTP status and a ready challenge. */
export abstract class PmMcpAuthError extends PmError {
  abstract readonly httpStatus: 401 | 403;
  /** The exact `WWW-Authenticate` header value. */
  readonly challenge: string;
  readonly requiredScopes: readonly string[];
  readonly exitCode = EXIT.failure;

  protected constructor(message: string, challenge: string, context: PmMcpChallengeContext, data: Record<string, unknown> = {}) {
    super(message, { requiredScopes: [...context.requiredScopes], resourceMetadata: context.resourceMetadataUrl, ...data });
    this.challenge = challenge;
    this.requiredScopes = Object.freeze([...context.requiredScopes]);
  }
}

/**
 * HTTP 401: no bearer token, or a token that is malformed, badly signed, expired, not yet
 * valid, from a foreign issuer or for a foreign audience (RFC 6750 §3.1 `invalid_token`).
 * With `error` omitted (the request carried no bearer credentials at all — no Authorization
 * header, or another scheme such as Basic) the challenge has no error attribute, as RFC 6750
 * §3.1 asks; `reason` is then `missing_token`.
 */
export class PmMcpUnauthorizedError extends PmMcpAuthError {
  readonly httpStatus = 401 as const;
  readonly jsonRpcCode = PM_MCP_AUTH_ERROR_CODES.unauthorized;
  readonly reason: 'missing_token' | 'invalid_token';

  constructor(description: string, context: PmMcpChallengeContext & { readonly error?: 'invalid_token' }) {
    const challenge = buildMcpWwwAuthenticate({
      resourceMetadataUrl: context.resourceMetadataUrl,
      scope: context.requiredScopes,
      ...(context.error ? { error: context.error, errorDescription: description } : {}),
    });
    super(description, challenge, context);
    this.reason = context.error ? 'invalid_token' : 'missing_token';
  }
}

/**
 * HTTP 403 `insufficient_scope`: a valid token whose scopes (after the scope hierarchy) do not
 * cover the operation. The challenge names every scope the operation needs, in one challenge
 * (2026-07-28 `basic/authorization`), and `data.missingScopes` lists what the token lacked.
 */
export class PmMcpInsufficientScopeError extends PmMcpAuthError {
  readonly httpStatus = 403 as const;
  readonly jsonRpcCode = PM_MCP_AUTH_ERROR_CODES.insufficientScope;
  readonly reason = 'insufficient_scope';

  constructor(context: PmMcpChallengeContext & { readonly missingScopes?: readonly string[]; readonly description?: string }) {
    const missing = context.missingScopes ?? context.requiredScopes;
    const needs = `This operation needs scope ${context.requiredScopes.join(' ')}`;
    const description = context.description ?? (missing.length === context.requiredScopes.length ? needs : `${needs}; the token lacks ${missing.join(' ')}`);
    const challenge = buildMcpWwwAuthenticate({
      resourceMetadataUrl: context.resourceMetadataUrl,
      scope: context.requiredScopes,
      error: 'insufficient_scope',
      errorDescription: description,
    });
    super(description, challenge, context, { missingScopes: [...missing] });
  }
}
