import {
  assertMcpTokenClaims,
  parseMcpBearerAuthorization,
  pmMcpScopeHierarchy,
  PmMcpInsufficientScopeError,
  PmMcpUnauthorizedError,
  type McpTokenClaimsPolicy,
} from '../../../../../src/domain/mcp/index.js';

const RESOURCE = 'http://127.0.0.1:8787/mcp';
const ISSUER = 'https://auth.example.com';
const NOW = Date.UTC(2026, 6, 28, 12, 0, 0);
const nowSec = NOW / 1000;
const policy: McpTokenClaimsPolicy = { issuer: ISSUER, audience: RESOURCE, requiredScopes: ['pm:read'], now: NOW, clockToleranceSec: 30, scopeHierarchy: pmMcpScopeHierarchy() };
const claims = (extra: Record<string, unknown> = {}) => ({ iss: ISSUER, aud: RESOURCE, sub: 'alice', exp: nowSec + 600, iat: nowSec, scope: 'pm:read', ...extra });

function refusal(claimsValue: unknown, over: Partial<McpTokenClaimsPolicy> = {}): PmMcpUnauthorizedError | PmMcpInsufficientScopeError {
  try {
    assertMcpTokenClaims(claimsValue, { ...policy, ...over });
  } catch (error) {
    if (error instanceof PmMcpUnauthorizedError || error instanceof PmMcpInsufficientScopeError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('assertMcpTokenClaims (issuer/audience/time/scope binding)', () => {
  test('a valid token yields a frozen principal: sub, granted scopes, issuer', () => {
    const principal = assertMcpTokenClaims(claims({ scope: 'pm:read other' }), policy);
    expect(principal).toEqual({ id: 'alice', scopes: ['pm:read', 'other'], issuer: ISSUER });
    expect(Object.isFrozen(principal)).toBe(true);
    expect(Object.isFrozen(principal.scopes)).toBe(true);
  });

  test('client_id stands in for sub; scp arrays are read; Date works for now', () => {
    const { sub: _sub, scope: _scope, ...rest } = claims();
    expect(assertMcpTokenClaims({ ...rest, client_id: 'ci-bot', scp: ['pm:write'] }, { ...policy, now: new Date(NOW) })).toEqual({ id: 'ci-bot', scopes: ['pm:write'], issuer: ISSUER });
  });

  test('the audience may be an array that contains the resource exactly', () => {
    expect(assertMcpTokenClaims(claims({ aud: ['https://other.example.com', RESOURCE] }), policy).id).toBe('alice');
  });

  test.each([
    ['a foreign issuer', { iss: 'https://evil.example.com' }, /issued by https:\/\/evil.example.com, not by the trusted issuer/],
    ['an issuer differing only by a trailing slash', { iss: `${ISSUER}/` }, /not by the trusted issuer/],
    ['no issuer', { iss: undefined }, /names no issuer/],
    ['a foreign audience', { aud: 'https://other.example.com/mcp' }, /not issued for this resource/],
    ['an audience differing by a trailing slash', { aud: `${RESOURCE}/` }, /not issued for this resource/],
    ['an audience array without the resource', { aud: ['https://a', 'https://b'] }, /not issued for this resource/],
    ['no audience', { aud: undefined }, /names no audience/],
    ['a malformed audience', { aud: [RESOURCE, 7] }, /names no audience/],
    ['an expired token', { exp: nowSec - 31 }, /expired at 2026-07-28T11:59:29.000Z/],
    ['no exp', { exp: undefined }, /no numeric exp/],
    ['a string exp', { exp: String(nowSec + 60) }, /no numeric exp/],
    ['a not-yet-valid token', { nbf: nowSec + 31 }, /not valid before/],
    ['a malformed nbf', { nbf: 'soon' }, /malformed nbf/],
    ['a malformed iat', { iat: 'now' }, /malformed iat/],
    ['no subject', { sub: undefined }, /names no subject/],
    ['a blank subject', { sub: '  ' }, /names no subject/],
    ['a malformed scope claim', { scope: ['pm:read'] }, /malformed scope claim/],
  ])('refuses %s with 401 invalid_token', (_name, extra, message) => {
    const error = refusal(claims(extra));
    expect(error).toBeInstanceOf(PmMcpUnauthorizedError);
    expect(error.httpStatus).toBe(401);
    expect(error.reason).toBe('invalid_token');
    expect(error.message).toMatch(message);
    expect(error.challenge).toMatch(/^Bearer resource_metadata="http:\/\/127\.0\.0\.1:8787\/\.well-known\/oauth-protected-resource\/mcp", scope="pm:read", error="invalid_token", error_description="[^"]+"$/);
  });

  test('claims that are not an object are refused', () => {
    for (const value of [null, 'x', [claims()], 42]) expect(refusal(value).message).toMatch(/not a JSON object/);
  });

  test('the clock tolerance applies at both ends', () => {
    expect(assertMcpTokenClaims(claims({ exp: nowSec - 29 }), policy).id).toBe('alice');
    expect(assertMcpTokenClaims(claims({ nbf: nowSec + 29 }), policy).id).toBe('alice');
    expect(refusal(claims({ exp: nowSec - 1 }), { clockToleranceSec: 0 }).message).toMatch(/expired/);
    expect(refusal(claims({ exp: nowSec }), { clockToleranceSec: 0 }).message).toMatch(/expired/);
  });

  test('a valid token lacking scope gets 403 insufficient_scope naming the required scope', () => {
    const error = refusal(claims({ scope: 'pm:read' }), { requiredScopes: ['pm:write'] });
    expect(error).toBeInstanceOf(PmMcpInsufficientScopeError);
    expect(error.httpStatus).toBe(403);
    expect(error.challenge).toContain('scope="pm:write", error="insufficient_scope"');
    expect(error.data).toMatchObject({ requiredScopes: ['pm:write'], missingScopes: ['pm:write'] });
    expect(refusal(claims({ scope: undefined }), { requiredScopes: ['pm:read'] })).toBeInstanceOf(PmMcpInsufficientScopeError);
  });

  test('the hierarchy is honoured: a write token may read; without it, exact match', () => {
    expect(assertMcpTokenClaims(claims({ scope: 'pm:write' }), policy).scopes).toEqual(['pm:write']);
    const { scopeHierarchy: _h, ...flat } = policy;
    expect(refusal(claims({ scope: 'pm:write' }), { ...flat, scopeHierarchy: {} })).toBeInstanceOf(PmMcpInsufficientScopeError);
  });

  test('identity checks come before the scope check: a foreign token never learns about scopes', () => {
    expect(refusal(claims({ iss: 'https://evil.example.com', scope: '' }), { requiredScopes: ['pm:write'] })).toBeInstanceOf(PmMcpUnauthorizedError);
  });

  test('resource_metadata defaults to the audience-derived URL and can be overridden', () => {
    expect(refusal(claims({ exp: 1 }), { resourceMetadataUrl: 'https://public.example.com/.well-known/oauth-protected-resource/mcp' }).challenge).toContain(
      'resource_metadata="https://public.example.com/.well-known/oauth-protected-resource/mcp"',
    );
  });
});

describe('parseMcpBearerAuthorization (RFC 6750 §2.1)', () => {
  test('missing, other schemes, malformed and tokens', () => {
    expect(parseMcpBearerAuthorization(undefined)).toEqual({ kind: 'missing' });
    expect(parseMcpBearerAuthorization('  ')).toEqual({ kind: 'missing' });
    expect(parseMcpBearerAuthorization('Basic YWxpY2U6cHc=')).toEqual({ kind: 'other-scheme', scheme: 'Basic' });
    expect(parseMcpBearerAuthorization('Bearer')).toMatchObject({ kind: 'malformed' });
    expect(parseMcpBearerAuthorization('Bearer    ')).toMatchObject({ kind: 'malformed' });
    expect(parseMcpBearerAuthorization('Bearer a b')).toMatchObject({ kind: 'malformed' });
    expect(parseMcpBearerAuthorization('Bearer a"b')).toMatchObject({ kind: 'malformed' });
    expect(parseMcpBearerAuthorization(`Bearer ${'a'.repeat(16 * 1024 + 1)}`)).toMatchObject({ kind: 'malformed', detail: /too long/ });
    expect(parseMcpBearerAuthorization('Bearer eyJ.eyJ.sig')).toEqual({ kind: 'token', token: 'eyJ.eyJ.sig' });
    expect(parseMcpBearerAuthorization('bearer  abc-_~+/==')).toEqual({ kind: 'token', token: 'abc-_~+/==' });
    expect(parseMcpBearerAuthorization('BEARER\tabc')).toEqual({ kind: 'token', token: 'abc' });
  });

  test('another scheme is named only when it is a short word of letters followed by credentials', () => {
    expect(parseMcpBearerAuthorization('Digest username="a"')).toEqual({ kind: 'other-scheme', scheme: 'Digest' });
    expect(parseMcpBearerAuthorization('DPoP abc')).toEqual({ kind: 'other-scheme', scheme: 'DPoP' });
    // A header of one word is a raw credential (a JWT, an API key), whatever its characters.
    for (const raw of ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln', 'sk_live_abc123', 'OnlyLettersApiKey', 'Basic']) {
      expect(parseMcpBearerAuthorization(raw)).toEqual({ kind: 'other-scheme' });
    }
    for (const header of [`${'A'.repeat(21)} x`, 'Tok3n abc', 'SCRAM-SHA-256 abc', 'eyJ.a.b c']) expect(parseMcpBearerAuthorization(header)).toEqual({ kind: 'other-scheme' });
  });
});
