import {
  buildMcpWwwAuthenticate,
  PM_MCP_AUTH_ERROR_CODES,
  PmMcpAuthError,
  PmMcpInsufficientScopeError,
  PmMcpUnauthorizedError,
  sanitizeMcpErrorDescription,
  toMcpJsonRpcError,
} from '../../../../../src/domain/mcp/index.js';
import { PmError } from '../../../../../src/domain/errors/index.js';

const META = 'http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp';

describe('buildMcpWwwAuthenticate (RFC 6750 §3, RFC 9728 §5.1)', () => {
  test('a missing-token challenge names resource_metadata and scope, and no error', () => {
    expect(buildMcpWwwAuthenticate({ resourceMetadataUrl: META, scope: ['pm:read'] })).toBe(`Bearer resource_metadata="${META}", scope="pm:read"`);
  });

  test('an invalid-token challenge adds error and error_description', () => {
    expect(buildMcpWwwAuthenticate({ resourceMetadataUrl: META, scope: ['pm:read'], error: 'invalid_token', errorDescription: 'the token expired' })).toBe(
      `Bearer resource_metadata="${META}", scope="pm:read", error="invalid_token", error_description="the token expired"`,
    );
  });

  test('several scopes are space-separated in one quoted value, duplicates dropped; empty scope is omitted', () => {
    expect(buildMcpWwwAuthenticate({ resourceMetadataUrl: META, scope: ['pm:read', 'pm:write', 'pm:read'], error: 'insufficient_scope' })).toBe(
      `Bearer resource_metadata="${META}", scope="pm:read pm:write", error="insufficient_scope"`,
    );
    expect(buildMcpWwwAuthenticate({ resourceMetadataUrl: META, scope: [] })).toBe(`Bearer resource_metadata="${META}"`);
  });

  test('error_description never breaks the quoted string: quotes, backslashes, controls and non-ASCII are replaced', () => {
    const header = buildMcpWwwAuthenticate({ resourceMetadataUrl: META, error: 'invalid_token', errorDescription: 'bad "iss" \\ value\r\nX-Injected: 1 — ü' });
    expect(header).toBe(`Bearer resource_metadata="${META}", error="invalid_token", error_description="bad 'iss' / value??X-Injected: 1 ? ?"`);
    expect(sanitizeMcpErrorDescription('x'.repeat(400))).toHaveLength(300);
  });

  test('a description is only sent with an error code', () => {
    expect(buildMcpWwwAuthenticate({ resourceMetadataUrl: META, errorDescription: 'ignored' })).toBe(`Bearer resource_metadata="${META}"`);
  });

  test('quotes and backslashes inside resource_metadata are backslash-escaped (RFC 9110 quoted-string)', () => {
    expect(buildMcpWwwAuthenticate({ resourceMetadataUrl: 'https://h/a"b\\c' })).toBe('Bearer resource_metadata="https://h/a\\"b\\\\c"');
  });

  test('configuration errors throw: relative metadata URL, bad scope token, unknown error, header injection', () => {
    expect(() => buildMcpWwwAuthenticate({ resourceMetadataUrl: '/.well-known/oauth-protected-resource' })).toThrow(RangeError);
    expect(() => buildMcpWwwAuthenticate({ resourceMetadataUrl: META, scope: ['pm read'] })).toThrow(/invalid scope token/);
    expect(() => buildMcpWwwAuthenticate({ resourceMetadataUrl: META, scope: ['pm"read'] })).toThrow(/invalid scope token/);
    expect(() => buildMcpWwwAuthenticate({ resourceMetadataUrl: META, error: 'server_error' as never })).toThrow(/unknown bearer error/);
    expect(() => buildMcpWwwAuthenticate({ resourceMetadataUrl: `${META}\r\nSet-Cookie: x` })).toThrow(/control characters/);
  });
});

describe('authorization errors', () => {
  test('PmMcpUnauthorizedError without an error code: 401, no error attribute, reason missing_token', () => {
    const error = new PmMcpUnauthorizedError('Authorization required', { resourceMetadataUrl: META, requiredScopes: ['pm:read'] });
    expect(error).toBeInstanceOf(PmError);
    expect(error).toBeInstanceOf(PmMcpAuthError);
    expect(error.httpStatus).toBe(401);
    expect(error.challenge).toBe(`Bearer resource_metadata="${META}", scope="pm:read"`);
    expect(error.toJsonRpcError()).toEqual({
      code: PM_MCP_AUTH_ERROR_CODES.unauthorized,
      message: 'Authorization required',
      data: { reason: 'missing_token', requiredScopes: ['pm:read'], resourceMetadata: META },
    });
  });

  test('PmMcpUnauthorizedError with invalid_token carries the description in the challenge', () => {
    const error = new PmMcpUnauthorizedError('the token expired', { resourceMetadataUrl: META, requiredScopes: ['pm:write'], error: 'invalid_token' });
    expect(error.reason).toBe('invalid_token');
    expect(error.challenge).toBe(`Bearer resource_metadata="${META}", scope="pm:write", error="invalid_token", error_description="the token expired"`);
  });

  test('PmMcpInsufficientScopeError: 403, names every required scope and what was missing', () => {
    const error = new PmMcpInsufficientScopeError({ resourceMetadataUrl: META, requiredScopes: ['pm:write'] });
    expect(error.httpStatus).toBe(403);
    expect(error.challenge).toMatch(/^Bearer resource_metadata="[^"]+", scope="pm:write", error="insufficient_scope", error_description="This operation needs scope pm:write"$/);
    expect(error.toJsonRpcError()).toMatchObject({ code: PM_MCP_AUTH_ERROR_CODES.insufficientScope, data: { reason: 'insufficient_scope', requiredScopes: ['pm:write'], missingScopes: ['pm:write'] } });
    const partial = new PmMcpInsufficientScopeError({ resourceMetadataUrl: META, requiredScopes: ['a', 'b'], missingScopes: ['b'] });
    expect(partial.message).toBe('This operation needs scope a b; the token lacks b');
    expect(partial.challenge).toContain('scope="a b"');
  });

  test('the codes sit outside the JSON-RPC/MCP reserved range and survive the error mapper in both eras', () => {
    for (const code of Object.values(PM_MCP_AUTH_ERROR_CODES)) expect(code < -32768 || code > -32000).toBe(true);
    const error = new PmMcpInsufficientScopeError({ resourceMetadataUrl: META, requiredScopes: ['pm:write'] });
    expect(toMcpJsonRpcError(error, 'modern').code).toBe(-31003);
    expect(toMcpJsonRpcError(error, 'legacy').code).toBe(-31003);
  });
});
