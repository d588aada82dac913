import type { AuthorizationRequest, Authorizer, Principal } from '../../ports/authorizer.js';

/** Authorizes every request as one fixed principal (tests and embedded hosts). */
export class StaticAuthorizer implements Authorizer {
  constructor(private readonly principal: Principal = { id: 'test', scopes: ['pm:read', 'pm:write'] }) {}

  async authorize(_request: AuthorizationRequest): Promise<Principal> {
    return this.principal;
  }
}
