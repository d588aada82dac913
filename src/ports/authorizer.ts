/** Who is calling, as established by the transport's authorization. */
export interface Principal {
  readonly id: string;
  readonly scopes: readonly string[];
  /** The token issuer, when the principal came from a bearer token. */
  readonly issuer?: string;
}

/** The transport facts an authorizer decides on. */
export interface AuthorizationRequest {
  /** The raw Authorization header value, if any. */
  readonly authorization?: string;
  /** Scopes the operation needs (e.g. pm:read, pm:write). */
  readonly requiredScopes: readonly string[];
}

/**
 * Decides whether a request may proceed and who makes it. Throws an authorization error
 * (carrying the challenge) when it may not.
 */
export interface Authorizer {
  authorize(request: AuthorizationRequest): Promise<Principal>;
}
