import type { Authorizer } from '../../../ports/authorizer.js';
import type { AdmissionRequest } from '../../../ports/transport.js';
import { PmError } from '../../errors/pm-error.js';
import { PmMcpAuthError } from '../auth/auth-errors.js';
import { toMcpJsonRpcError } from '../error-mapper.js';
import { serializeJsonRpcError } from '../json-rpc.js';
import type { McpHttpAuthorize } from './admission.js';

/**
 * Bearer authorization of one Streamable HTTP message through the Authorizer port (2026-07-28
 * `basic/authorization`; seed 004 "Transport behavior": the remote adapter can require an
 * issuer-, audience- and scope-bound bearer token): every request and notification is
 * authorized on its own, with the scopes its operation needs. Refusals become HTTP rejections
 * that carry the authorizer's `WWW-Authenticate` challenge and a JSON-RPC error body (the
 * request id echoed):
 * - PmMcpUnauthorizedError → 401 (no token, or an invalid, expired, foreign-issuer or
 *   foreign-audience token);
 * - PmMcpInsufficientScopeError → 403 `insufficient_scope` naming the scopes;
 * - any other failure (e.g. the key set is unreachable) → 500 with the mapped JSON-RPC error;
 *   unexpected throws are reported to `onInternalError` and answered -32603 without details.
 */
export function createMcpHttpAuthorize(
  authorizer: Authorizer,
  requiredScopes: (request: AdmissionRequest) => readonly string[],
  options: { readonly onInternalError?: (error: unknown) => void } = {},
): McpHttpAuthorize {
  return async ({ authorization, request }) => {
    try {
      return { principal: await authorizer.authorize({ ...(authorization !== undefined ? { authorization } : {}), requiredScopes: requiredScopes(request) }) };
    } catch (error) {
      if (error instanceof PmMcpAuthError) {
        return { rejection: { status: error.httpStatus, headers: { 'WWW-Authenticate': error.challenge }, body: serializeJsonRpcError(request.id, error.toJsonRpcError()) } };
      }
      if (!(error instanceof PmError)) options.onInternalError?.(error);
      return { rejection: { status: 500, body: serializeJsonRpcError(request.id, toMcpJsonRpcError(error, 'modern')) } };
    }
  };
}
