import type { AuthorizationRequest, Authorizer, Principal } from '../../ports/authorizer.js';

/**
 * The authorizer for local use (stdio, loopback HTTP without tokens): the caller is the local
 * user and may do everything. Bearer-token authorization replaces it for remote serving.
 */
export class LocalAuthorizer implements Authorizer {
  constructor(private readonly user: string) {}

  async authorize(_request: AuthorizationRequest): Promise<Principal> {
    return { id: `local:${this.user}`, scopes: ['pm:read', 'pm:write'] };
  }
}
