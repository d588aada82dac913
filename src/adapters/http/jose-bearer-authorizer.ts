import { compactVerify, errors, type JWSAlgorithm } from 'jose';
import { PmMcpInternalError } from '../../domain/errors/mcp-errors.js';
import { PmMcpUnauthorizedError, type PmMcpChallengeContext } from '../../domain/mcp/auth/auth-errors.js';
import { parseMcpBearerAuthorization } from '../../domain/mcp/auth/bearer-header.js';
import type { McpScopeHierarchy } from '../../domain/mcp/auth/scopes.js';
import { assertMcpTokenClaims, isMcpAccessTokenType, PM_MCP_DEFAULT_CLOCK_TOLERANCE_SEC } from '../../domain/mcp/auth/token-claims.js';
import { BoundedCache } from '../../domain/util/bounded-cache.js';
import type { AuthorizationRequest, Authorizer, Principal } from '../../ports/authorizer.js';
import { loadJoseVerificationKey, type JoseKeySource, type JoseVerificationKey } from './jose-key-source.js';

/**
 * The bearer-token Authorizer for pm-mcp-http (2026-07-28 `basic/authorization`):
 * `Authorization: Bearer <JWT>` only (RFC 6750 §2.1; tokens in the query string are refused by
 * the transport before this runs), the JWS signature verified with jose against a JWKS file,
 * a JWKS URL or a shared HS256 secret with an explicit algorithm allowlist (unsigned
 * `alg: none` tokens never verify), then the exact issuer, the audience (this server's
 * resource URI, RFC 8707), `exp`/`nbf` within a small tolerance and the operation's scopes,
 * checked by the pure `assertMcpTokenClaims`.
 *
 * Refusals: no Authorization header, or another scheme → 401 with a challenge without an error
 * attribute (RFC 6750 §3.1), naming the scheme only when it is a short word of letters (a raw
 * token sent without `Bearer` is never repeated); a malformed, badly signed, expired, not-yet-valid, foreign-issuer
 * or foreign-audience token → 401 `invalid_token`; a valid token lacking scope → 403
 * `insufficient_scope` naming every required scope. A key set that cannot be fetched is a
 * server fault (-32603), not the client's: it is reported through `onKeyFailure`.
 */
export interface JoseBearerAuthorizerOptions {
  /** The exact `iss` accepted. */
  readonly issuer: string;
  /** The exact audience required in `aud`: this server's canonical resource URI. */
  readonly audience: string;
  /** Absolute URL of the RFC 9728 document, advertised in every challenge. */
  readonly resourceMetadataUrl: string;
  /** Leeway for `exp`/`nbf` (default 30 s). */
  readonly clockToleranceSec?: number;
  /**
   * Refuse tokens whose JWS header lacks `typ: at+jwt` (RFC 9068 §4: resource servers verify
   * it, so an ID token of the same issuer cannot stand in for an access token). Off by default:
   * many authorization servers issue access tokens typed `JWT` or untyped.
   */
  readonly requireAccessTokenType?: boolean;
  /** Scope implications (pm: write ⇒ read). */
  readonly scopeHierarchy?: McpScopeHierarchy;
  /** Milliseconds since the epoch (a Clock port's `now`); default Date.now. */
  readonly now?: () => number;
  /** Told about key-set failures (unreachable JWKS URL, bad remote JWKS), e.g. to log them. */
  readonly onKeyFailure?: (error: unknown) => void;
}

/** Failures of the key set itself (server side), as opposed to a bad token. */
const KEY_SET_FAILURES: ReadonlySet<string> = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JWK_INVALID', 'ERR_JOSE_GENERIC']);

function describeJoseFailure(error: unknown): string | undefined {
  if (!(error instanceof errors.JOSEError)) return undefined;
  switch (error.code) {
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'the token signature does not verify';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'the token signing algorithm is not accepted (unsigned tokens never are)';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'no trusted key matches the token (kid/alg)';
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'several trusted keys match the token; it must name its key (kid)';
    case 'ERR_JOSE_NOT_SUPPORTED':
      return 'the token uses an unsupported algorithm or key';
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return 'the token is not a valid signed JWT (JWS compact serialization)';
    default:
      return KEY_SET_FAILURES.has(error.code) ? undefined : 'the token could not be verified';
  }
}

/**
 * How long a token's verified signature is reused, in milliseconds. An agent sends the same
 * token with every request, and verifying its signature (an HMAC or public-key operation through
 * WebCrypto) costs more than answering most requests; the claims (`exp`, `nbf`, issuer,
 * audience, scopes) are still checked on every request against the current time. The limit
 * bounds how long a token signed with a key the issuer has since withdrawn from its JWKS keeps
 * verifying: one minute, as a JWKS cache would.
 */
export const VERIFIED_SIGNATURE_TTL_MS = 60_000;

/** Tokens whose signature verified, with when (the cache is keyed by the whole token, signature included), bounded by count and by the tokens' characters. */
const VERIFIED_TOKENS_LIMIT = 1024;
const VERIFIED_TOKENS_CHARS = 2 * 1024 * 1024;

interface VerifiedToken {
  readonly payload: unknown;
  readonly at: number;
  /** The token's length: what keeping it costs. */
  readonly chars: number;
}

/** The Authorizer port over jose (see the module comment above {@link JoseBearerAuthorizerOptions}). */
export class JoseBearerAuthorizer implements Authorizer {
  private readonly algorithms: JWSAlgorithm[];
  private readonly now: () => number;
  private readonly verified = new BoundedCache<string, VerifiedToken>('verified bearer token signatures', VERIFIED_TOKENS_LIMIT, { max: VERIFIED_TOKENS_CHARS, of: (entry) => entry.chars });

  constructor(
    private readonly key: JoseVerificationKey,
    private readonly options: JoseBearerAuthorizerOptions,
  ) {
    this.algorithms = [...key.algorithms];
    this.now = options.now ?? Date.now;
  }

  /** Loads the keys from `keys` (validating them) and builds the authorizer. */
  static async create(keys: JoseKeySource, options: JoseBearerAuthorizerOptions & { readonly algorithms?: readonly JWSAlgorithm[] }): Promise<JoseBearerAuthorizer> {
    return new JoseBearerAuthorizer(await loadJoseVerificationKey(keys, options.algorithms), options);
  }

  async authorize(request: AuthorizationRequest): Promise<Principal> {
    const context: PmMcpChallengeContext = { resourceMetadataUrl: this.options.resourceMetadataUrl, requiredScopes: request.requiredScopes };
    const credentials = parseMcpBearerAuthorization(request.authorization);
    switch (credentials.kind) {
      case 'missing':
        throw new PmMcpUnauthorizedError('Authorization required: send Authorization: Bearer <access token>', context);
      case 'other-scheme':
        throw new PmMcpUnauthorizedError(
          `${credentials.scheme === undefined ? 'Authorization with an unrecognized scheme' : `Authorization scheme ${credentials.scheme}`} is not accepted: send Authorization: Bearer <access token>`,
          context,
        );
      case 'malformed':
        throw new PmMcpUnauthorizedError(credentials.detail, { ...context, error: 'invalid_token' });
    }
    const payload = await this.verifiedPayload(credentials.token, context);
    return assertMcpTokenClaims(payload, {
      issuer: this.options.issuer,
      audience: this.options.audience,
      requiredScopes: request.requiredScopes,
      now: this.now(),
      clockToleranceSec: this.options.clockToleranceSec ?? PM_MCP_DEFAULT_CLOCK_TOLERANCE_SEC,
      resourceMetadataUrl: this.options.resourceMetadataUrl,
      ...(this.options.scopeHierarchy ? { scopeHierarchy: this.options.scopeHierarchy } : {}),
    });
  }

  /** The token's payload once its signature verified, reused for {@link VERIFIED_SIGNATURE_TTL_MS}. */
  private async verifiedPayload(token: string, context: PmMcpChallengeContext): Promise<unknown> {
    const now = this.now();
    const kept = this.verified.get(token);
    if (kept && now - kept.at >= 0 && now - kept.at < VERIFIED_SIGNATURE_TTL_MS) return kept.payload;
    const payload = await this.verifySignature(token, context);
    this.verified.set(token, { payload, at: now, chars: token.length });
    return payload;
  }

  /** Verifies the JWS and returns its JSON payload (not yet checked against any policy). */
  private async verifySignature(token: string, context: PmMcpChallengeContext): Promise<unknown> {
    const invalid = (description: string) => new PmMcpUnauthorizedError(description, { ...context, error: 'invalid_token' });
    let verified: Awaited<ReturnType<typeof compactVerify>>;
    try {
      verified = await compactVerify(token, this.key.key, { algorithms: this.algorithms });
    } catch (error) {
      const description = describeJoseFailure(error);
      if (description) throw invalid(description);
      this.options.onKeyFailure?.(error);
      throw new PmMcpInternalError(`The authorization keys (${this.key.description}) are unavailable`);
    }
    if (verified.protectedHeader.b64 === false) throw invalid('the token must not use an unencoded payload');
    if (this.options.requireAccessTokenType && !isMcpAccessTokenType(verified.protectedHeader.typ)) {
      throw invalid('the token is not a JWT access token: its header must carry typ at+jwt (RFC 9068)');
    }
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(verified.payload)) as unknown;
    } catch {
      throw invalid('the token payload is not a JSON claims set');
    }
  }
}
