import type { Authorizer } from '../../../ports/authorizer.js';
import { PmError } from '../../errors/pm-error.js';
import { PmMcpAuthError } from '../auth/auth-errors.js';
import type { McpScopedMessage } from '../auth/scopes.js';
import { toMcpJsonRpcError } from '../error-mapper.js';
import { serializeJsonRpcError } from '../json-rpc.js';
import type { McpHttpAuthorize } from './endpoint.js';

/**
 * Bearer authorization of one Streamable HTTP message through the Authorizer port (issue 4
 * "Authorization"; spec-notes §14): every request and notification is authorized on its own,
 * with the scopes its operation needs. Refusals become HTTP rejections that carry the
 * authorizer's `WWW-Authenticate` challenge and a JSON-RPC error body (the request id echoed):
 * - PmMcpUnauthorizedError → 401 (no token, or an invalid, expired, foreign-issuer or
 *   foreign-audience token);
 * - PmMcpInsufficientScopeError → 403 `insufficient_scope` naming the scopes;
 * - any other failure (e.g. the key set is unreachable) → 500 with the mapped JSON-RPC error;
 *   unexpected throws are reported to `onInternalError` and answered -32603 without details.
 */
export function createMcpHttpAuthorize(
  authorizer: Authorizer,
  requiredScopes: (message: McpScopedMessage) => readonly string[],
  options: { readonly onInternalError?: (error: unknown) => void } = {},
): McpHttpAuthorize {
  return async ({ authorization, message }) => {
    try {
      return { principal: await authorizer.authorize({ ...(authorization !== undefined ? { authorization } : {}), requiredScopes: requiredScopes(message) }) };
    } catch (error) {
      const id = 'id' in message ? message.id : undefined;
      if (error instanceof PmMcpAuthError) {
        return { rejection: { status: error.httpStatus, headers: { 'WWW-Authenticate': error.challenge }, body: serializeJsonRpcError(id, error.toJsonRpcError()) } };
      }
      if (!(error instanceof PmError)) options.onInternalError?.(error);
      return { rejection: { status: 500, body: serializeJsonRpcError(id, toMcpJsonRpcError(error, 'modern')) } };
    }
  };
}
