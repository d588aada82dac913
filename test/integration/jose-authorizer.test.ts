/**
 * The jose bearer authorizer with real keys (docs/AUTH.md): RS256 and ES256 key pairs
 * generated here, a JWKS file in a temp dir, a JWKS URL served by node:http on 127.0.0.1
 * (port 0), and a shared HS256 secret. Every refusal carries the exact challenge.
 */
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { base64url, exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWK, type JWTPayload } from 'jose';
import { JoseBearerAuthorizer, type JoseBearerAuthorizerOptions } from '../../src/adapters/http/jose-bearer-authorizer.js';
import { loadJoseVerificationKey } from '../../src/adapters/http/jose-key-source.js';
import { PmMcpInternalError } from '../../src/domain/errors/index.js';
import { PmMcpInsufficientScopeError, PmMcpUnauthorizedError, pmMcpScopeHierarchy } from '../../src/domain/mcp/index.js';
import type { Principal } from '../../src/ports/authorizer.js';
import { useTempDir } from '../support/temp-dir.js';

const RESOURCE = 'http://127.0.0.1:8787/mcp';
const ISSUER = 'https://auth.example.test';
const METADATA = 'http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp';
const SECRET = 'a-local-development-secret-of-32+bytes';
const options: JoseBearerAuthorizerOptions = { issuer: ISSUER, audience: RESOURCE, resourceMetadataUrl: METADATA, clockToleranceSec: 5, scopeHierarchy: pmMcpScopeHierarchy() };
const READ = ['pm:read'];
const WRITE = ['pm:write'];
const now = () => Math.floor(Date.now() / 1000);

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'] | Uint8Array;
interface Signer {
  readonly alg: string;
  readonly kid?: string;
  readonly key: Key;
}

function sign(signer: Signer, claims: JWTPayload = {}, header: Record<string, unknown> = {}): Promise<string> {
  const payload: JWTPayload = { iss: ISSUER, aud: RESOURCE, sub: 'alice', scope: 'pm:read pm:write', iat: now(), exp: now() + 300, ...claims };
  for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
  return new SignJWT(payload).setProtectedHeader({ alg: signer.alg, ...(signer.kid ? { kid: signer.kid } : {}), typ: 'at+jwt', ...header }).sign(signer.key);
}

async function keyPair(alg: 'RS256' | 'ES256', kid: string): Promise<{ signer: Signer; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { signer: { alg, kid, key: privateKey }, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

async function refusal(authorizer: JoseBearerAuthorizer, authorization: string | undefined, requiredScopes = READ): Promise<unknown> {
  try {
    await authorizer.authorize({ ...(authorization !== undefined ? { authorization } : {}), requiredScopes });
  } catch (error) {
    return error;
  }
  throw new Error('expected the authorizer to refuse');
}

async function invalidToken(authorizer: JoseBearerAuthorizer, authorization: string, description: RegExp, requiredScopes = READ): Promise<void> {
  const error = await refusal(authorizer, authorization, requiredScopes);
  expect(error).toBeInstanceOf(PmMcpUnauthorizedError);
  const unauthorized = error as PmMcpUnauthorizedError;
  expect(unauthorized.httpStatus).toBe(401);
  expect(unauthorized.reason).toBe('invalid_token');
  expect(unauthorized.message).toMatch(description);
  expect(unauthorized.challenge).toMatch(new RegExp(`^Bearer resource_metadata="${METADATA.replace(/[.]/g, '\\.')}", scope="${requiredScopes.join(' ')}", error="invalid_token", error_description="[^"]+"$`));
}

describe('JoseBearerAuthorizer', () => {
  const temp = useTempDir('pm-jose-');
  let rsa: { signer: Signer; jwk: JWK };
  let ec: { signer: Signer; jwk: JWK };
  let rogue: { signer: Signer; jwk: JWK };
  let jwksServer: Server;
  let jwksUrl: string;
  let jwksHits = 0;

  beforeAll(async () => {
    rsa = await keyPair('RS256', 'rsa-1');
    ec = await keyPair('ES256', 'ec-1');
    rogue = await keyPair('RS256', 'rsa-1'); // same kid as the trusted key, different key material
    jwksServer = createServer((req, res) => {
      jwksHits++;
      if (req.url !== '/jwks.json') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [ec.jwk, rsa.jwk] }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => jwksServer.close(() => resolve()));
  });

  async function fromFile(): Promise<JoseBearerAuthorizer> {
    const path = join(temp(), 'jwks.json');
    await writeFile(path, JSON.stringify({ keys: [rsa.jwk, ec.jwk] }));
    return JoseBearerAuthorizer.create({ kind: 'jwks-file', path }, options);
  }

  describe('valid tokens become principals', () => {
    test('RS256 from a JWKS file', async () => {
      const authorizer = await fromFile();
      const principal: Principal = await authorizer.authorize({ authorization: `Bearer ${await sign(rsa.signer)}`, requiredScopes: WRITE });
      expect(principal).toEqual({ id: 'alice', scopes: ['pm:read', 'pm:write'], issuer: ISSUER });
    });

    test('ES256 from a JWKS URL served on 127.0.0.1, fetched once and cached', async () => {
      const authorizer = await JoseBearerAuthorizer.create({ kind: 'jwks-url', url: jwksUrl }, options);
      const before = jwksHits;
      const token = await sign(ec.signer, { sub: 'bob', scope: 'pm:read' });
      expect(await authorizer.authorize({ authorization: `Bearer ${token}`, requiredScopes: READ })).toEqual({ id: 'bob', scopes: ['pm:read'], issuer: ISSUER });
      expect(await authorizer.authorize({ authorization: `bearer ${token}`, requiredScopes: READ })).toMatchObject({ id: 'bob' });
      expect(jwksHits - before).toBe(1);
    });

    test('HS256 with a shared secret; client_id when there is no sub; write implies read', async () => {
      const authorizer = await JoseBearerAuthorizer.create({ kind: 'secret', secret: SECRET }, options);
      const token = await sign({ alg: 'HS256', key: new TextEncoder().encode(SECRET) }, { sub: undefined, client_id: 'ci', scope: 'pm:write' });
      expect(await authorizer.authorize({ authorization: `Bearer ${token}`, requiredScopes: READ })).toEqual({ id: 'ci', scopes: ['pm:write'], issuer: ISSUER });
    });

    test('an in-memory JWKS and an injected clock', async () => {
      const authorizer = await JoseBearerAuthorizer.create({ kind: 'jwks', jwks: { keys: [rsa.jwk] } }, { ...options, now: () => (now() + 3600) * 1000 });
      await invalidToken(authorizer, `Bearer ${await sign(rsa.signer)}`, /expired/);
    });
  });

  describe('refusals: 401 invalid_token', () => {
    test('a signature by another key under the trusted kid', async () => {
      await invalidToken(await fromFile(), `Bearer ${await sign(rogue.signer)}`, /signature does not verify/);
    });

    test('a tampered payload', async () => {
      const [h, , s] = (await sign(rsa.signer, { scope: 'pm:read' })).split('.');
      const forged = base64url.encode(JSON.stringify({ iss: ISSUER, aud: RESOURCE, sub: 'mallory', scope: 'pm:write', exp: now() + 300 }));
      await invalidToken(await fromFile(), `Bearer ${h}.${forged}.${s}`, /signature does not verify/, WRITE);
    });

    test('a key the server does not know', async () => {
      const stranger = await keyPair('ES256', 'unknown-kid');
      await invalidToken(await fromFile(), `Bearer ${await sign(stranger.signer)}`, /no trusted key matches/);
    });

    test('an expired token (beyond the tolerance) and a not-yet-valid one', async () => {
      const authorizer = await fromFile();
      await invalidToken(authorizer, `Bearer ${await sign(rsa.signer, { iat: now() - 600, exp: now() - 60 })}`, /expired/);
      await invalidToken(authorizer, `Bearer ${await sign(rsa.signer, { nbf: now() + 120 })}`, /not valid before/);
      await invalidToken(authorizer, `Bearer ${await sign(rsa.signer, { exp: undefined })}`, /no numeric exp/);
    });

    test('a foreign audience and a foreign issuer', async () => {
      const authorizer = await fromFile();
      await invalidToken(authorizer, `Bearer ${await sign(rsa.signer, { aud: 'http://127.0.0.1:9999/mcp' })}`, /not issued for this resource/);
      await invalidToken(authorizer, `Bearer ${await sign(rsa.signer, { aud: undefined })}`, /names no audience/);
      await invalidToken(authorizer, `Bearer ${await sign(rsa.signer, { iss: 'https://evil.example.test' })}`, /not by the trusted issuer/);
    });

    test('unsigned tokens (alg none) are never accepted, with a JWKS or a secret', async () => {
      const unsecured = new UnsecuredJWT({ iss: ISSUER, aud: RESOURCE, sub: 'mallory', scope: 'pm:write', exp: now() + 300 }).encode();
      expect(unsecured.endsWith('.')).toBe(true);
      await invalidToken(await fromFile(), `Bearer ${unsecured}`, /not a valid signed JWT|not accepted/);
      const secret = await JoseBearerAuthorizer.create({ kind: 'secret', secret: SECRET }, options);
      await invalidToken(secret, `Bearer ${unsecured}`, /not a valid signed JWT|not accepted/);
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
      const body = base64url.encode(JSON.stringify({ iss: ISSUER, aud: RESOURCE, sub: 'mallory', exp: now() + 300 }));
      await invalidToken(secret, `Bearer ${header}.${body}.${base64url.encode('sig')}`, /not a valid signed JWT|not accepted/);
    });

    test('algorithm confusion: an HS256 token keyed with the public key is refused by a JWKS authorizer', async () => {
      const publicPem = new TextEncoder().encode(JSON.stringify(rsa.jwk));
      await invalidToken(await fromFile(), `Bearer ${await sign({ alg: 'HS256', kid: 'rsa-1', key: publicPem })}`, /algorithm is not accepted/);
    });

    test('an RS256 token against a secret authorizer, and an HS256 token under the wrong secret', async () => {
      const secret = await JoseBearerAuthorizer.create({ kind: 'secret', secret: SECRET }, options);
      await invalidToken(secret, `Bearer ${await sign(rsa.signer)}`, /algorithm is not accepted/);
      await invalidToken(secret, `Bearer ${await sign({ alg: 'HS256', key: new TextEncoder().encode(`${SECRET}-other`) })}`, /signature does not verify/);
    });

    test('garbage and a malformed Bearer header', async () => {
      const authorizer = await fromFile();
      await invalidToken(authorizer, 'Bearer not-a-jwt', /not a valid signed JWT/);
      await invalidToken(authorizer, 'Bearer', /carry no token/);
      await invalidToken(authorizer, 'Bearer two tokens', /b64token/);
    });
  });

  describe('refusals without an error code (RFC 6750 §3.1: no credentials)', () => {
    test.each([
      ['no Authorization header', undefined],
      ['an empty header', ''],
      ['the Basic scheme', 'Basic YWxpY2U6cGFzc3dvcmQ='],
    ])('%s → 401 with resource_metadata and scope only', async (_name, authorization) => {
      const error = (await refusal(await fromFile(), authorization, WRITE)) as PmMcpUnauthorizedError;
      expect(error).toBeInstanceOf(PmMcpUnauthorizedError);
      expect(error.reason).toBe('missing_token');
      expect(error.challenge).toBe(`Bearer resource_metadata="${METADATA}", scope="pm:write"`);
      expect(error.toJsonRpcError()).toMatchObject({ code: -31001, data: { reason: 'missing_token', requiredScopes: ['pm:write'], resourceMetadata: METADATA } });
    });
  });

  describe('credentials are never reflected', () => {
    /** Every 6-character piece of `secret`: none may appear in what the client is told. */
    const pieces = (secret: string) => Array.from({ length: Math.max(0, secret.length - 5) }, (_, i) => secret.slice(i, i + 6));

    test.each([
      ['a raw JWT (no scheme word)', async () => sign(rsa.signer)],
      ['a raw opaque token with symbols', async () => 'tok_9f8e7d6c5b4a3f2e1d0c'],
      ['a long digit-bearing first word', async () => `Token123456789 ${await sign(rsa.signer)}`],
      ['an over-long letters-only first word', async () => `${'Q'.repeat(40)} secretvalue`],
    ])('%s → 401 naming no part of it', async (_name, header) => {
      const value = await header();
      const error = (await refusal(await fromFile(), value)) as PmMcpUnauthorizedError;
      expect(error).toBeInstanceOf(PmMcpUnauthorizedError);
      expect(error.message).toMatch(/an unrecognized scheme/);
      const told = `${error.message}\n${error.challenge}\n${JSON.stringify(error.toJsonRpcError())}`;
      for (const piece of pieces(value.replace(/^Token123456789 /, ''))) expect(told).not.toContain(piece);
    });

    test('a short letters-only scheme is named', async () => {
      const error = (await refusal(await fromFile(), 'Basic YWxpY2U6cGFzc3dvcmQ=')) as PmMcpUnauthorizedError;
      expect(error.message).toMatch(/^Authorization scheme Basic is not accepted/);
      expect(error.message).not.toContain('YWxpY2U6');
    });
  });

  describe('RFC 9068 typ check (opt-in)', () => {
    test('off by default: a token without typ at+jwt is accepted', async () => {
      const authorizer = await JoseBearerAuthorizer.create({ kind: 'jwks', jwks: { keys: [rsa.jwk] } }, options);
      expect(await authorizer.authorize({ authorization: `Bearer ${await sign(rsa.signer, {}, { typ: 'JWT' })}`, requiredScopes: READ })).toMatchObject({ id: 'alice' });
    });

    test('on: at+jwt and application/at+jwt (any case) pass; JWT, a missing typ and others are refused', async () => {
      const authorizer = await JoseBearerAuthorizer.create({ kind: 'jwks', jwks: { keys: [rsa.jwk] } }, { ...options, requireAccessTokenType: true });
      for (const typ of ['at+jwt', 'application/at+jwt', 'AT+JWT', 'Application/At+JWT']) {
        expect(await authorizer.authorize({ authorization: `Bearer ${await sign(rsa.signer, {}, { typ })}`, requiredScopes: READ })).toMatchObject({ id: 'alice' });
      }
      for (const typ of ['JWT', 'id_token+jwt', 'at+jwt ', undefined]) {
        await invalidToken(authorizer, `Bearer ${await sign(rsa.signer, {}, { typ })}`, /typ at\+jwt \(RFC 9068\)/);
      }
    });

    test('a forged token with typ at+jwt still fails on its signature', async () => {
      const authorizer = await JoseBearerAuthorizer.create({ kind: 'jwks', jwks: { keys: [rsa.jwk] } }, { ...options, requireAccessTokenType: true });
      await invalidToken(authorizer, `Bearer ${await sign(rogue.signer)}`, /signature does not verify/);
    });
  });

  test('a valid token lacking scope → 403 insufficient_scope naming the scope', async () => {
    const error = (await refusal(await fromFile(), `Bearer ${await sign(rsa.signer, { scope: 'pm:read' })}`, WRITE)) as PmMcpInsufficientScopeError;
    expect(error).toBeInstanceOf(PmMcpInsufficientScopeError);
    expect(error.httpStatus).toBe(403);
    expect(error.challenge).toBe(`Bearer resource_metadata="${METADATA}", scope="pm:write", error="insufficient_scope", error_description="This operation needs scope pm:write"`);
    expect(error.toJsonRpcError()).toMatchObject({ code: -31003, data: { reason: 'insufficient_scope', requiredScopes: ['pm:write'], missingScopes: ['pm:write'] } });
  });

  test('an unreachable JWKS URL is a server fault (-32603), reported to onKeyFailure, not blamed on the token', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const failures: unknown[] = [];
    const authorizer = await JoseBearerAuthorizer.create({ kind: 'jwks-url', url: `http://127.0.0.1:${port}/jwks.json`, timeoutMs: 2000 }, { ...options, onKeyFailure: (e) => failures.push(e) });
    const error = await refusal(authorizer, `Bearer ${await sign(rsa.signer)}`);
    expect(error).toBeInstanceOf(PmMcpInternalError);
    expect(failures).toHaveLength(1);
    const notFound = await JoseBearerAuthorizer.create({ kind: 'jwks-url', url: jwksUrl.replace('jwks.json', 'missing.json') }, options);
    expect(await refusal(notFound, `Bearer ${await sign(rsa.signer)}`)).toBeInstanceOf(PmMcpInternalError);
  });

  describe('key material is validated at load', () => {
    test('a missing file, non-JSON, an empty set, private members', async () => {
      const dir = temp();
      await expect(loadJoseVerificationKey({ kind: 'jwks-file', path: join(dir, 'absent.json') })).rejects.toThrow(/cannot read the JWKS file/);
      await writeFile(join(dir, 'bad.json'), 'not json');
      await expect(loadJoseVerificationKey({ kind: 'jwks-file', path: join(dir, 'bad.json') })).rejects.toThrow(/not JSON/);
      await expect(loadJoseVerificationKey({ kind: 'jwks', jwks: { keys: [] } })).rejects.toThrow(/no keys/);
      await expect(loadJoseVerificationKey({ kind: 'jwks', jwks: {} as never })).rejects.toThrow(/not a JWKS/);
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      await expect(loadJoseVerificationKey({ kind: 'jwks', jwks: { keys: [await exportJWK(privateKey)] } })).rejects.toThrow(/private or symmetric material \("d"\)/);
      await expect(loadJoseVerificationKey({ kind: 'jwks', jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } })).rejects.toThrow(/"k"/);
    });

    test('short secrets and algorithm lists that do not fit the key kind', async () => {
      await expect(loadJoseVerificationKey({ kind: 'secret', secret: 'short' })).rejects.toThrow(/at least 32 bytes/);
      await expect(loadJoseVerificationKey({ kind: 'jwks', jwks: { keys: [rsa.jwk] } }, ['HS256'])).rejects.toThrow(/cannot be used with a JWKS/);
      await expect(loadJoseVerificationKey({ kind: 'secret', secret: SECRET }, ['RS256'])).rejects.toThrow(/cannot be used with a shared secret/);
      await expect(loadJoseVerificationKey({ kind: 'secret', secret: SECRET }, ['none'])).rejects.toThrow(/cannot be used/);
      expect((await loadJoseVerificationKey({ kind: 'secret', secret: SECRET }, ['HS512'])).algorithms).toEqual(['HS512']);
      expect((await loadJoseVerificationKey({ kind: 'secret', secret: SECRET })).algorithms).toEqual(['HS256']);
    });

    test('a restricted algorithm list is enforced', async () => {
      const authorizer = await JoseBearerAuthorizer.create({ kind: 'jwks', jwks: { keys: [rsa.jwk, ec.jwk] } }, { ...options, algorithms: ['ES256'] });
      await invalidToken(authorizer, `Bearer ${await sign(rsa.signer)}`, /algorithm is not accepted/);
      expect(await authorizer.authorize({ authorization: `Bearer ${await sign(ec.signer)}`, requiredScopes: READ })).toMatchObject({ id: 'alice' });
    });
  });

  describe('a verified signature is reused for a minute, the claims are checked every time', () => {
    const secret = new TextEncoder().encode(SECRET);
    /** An HS256 authorizer whose key resolver counts signature verifications and can be switched to another secret; its clock is `clock.ms`. */
    function counted(clock: { ms: number }) {
      const state = { verifications: 0, key: secret };
      const authorizer = new JoseBearerAuthorizer({ key: () => { state.verifications++; return state.key; }, algorithms: ['HS256'], description: 'a counted secret' }, { ...options, now: () => clock.ms });
      return { authorizer, state };
    }

    it('verifies the same token once within the minute, again after it, and never reuses one token for another', async () => {
      const clock = { ms: Date.now() };
      const { authorizer, state } = counted(clock);
      const token = await sign({ alg: 'HS256', key: secret });
      for (let i = 0; i < 3; i++) expect(await authorizer.authorize({ authorization: `Bearer ${token}`, requiredScopes: WRITE })).toMatchObject({ id: 'alice' });
      expect(state.verifications).toBe(1);
      // A token differing only in its signature is verified on its own, and refused.
      const [head, body] = token.split('.');
      await invalidToken(authorizer, `Bearer ${head}.${body}.${base64url.encode(new Uint8Array(32))}`, /signature does not verify/);
      expect(state.verifications).toBe(2);
      // After the minute the signature is verified anew: a withdrawn key stops verifying then.
      clock.ms += 60_000;
      state.key = new TextEncoder().encode('another-local-development-secret-of-32+bytes');
      await invalidToken(authorizer, `Bearer ${token}`, /signature does not verify/);
      expect(state.verifications).toBe(3);
    });

    it('still refuses a reused token once it expires, and checks its scopes on each request', async () => {
      const clock = { ms: Date.now() };
      const { authorizer, state } = counted(clock);
      const token = await sign({ alg: 'HS256', key: secret }, { scope: 'pm:read', exp: Math.floor(clock.ms / 1000) + 20 });
      expect(await authorizer.authorize({ authorization: `Bearer ${token}`, requiredScopes: READ })).toMatchObject({ id: 'alice' });
      expect(await refusal(authorizer, `Bearer ${token}`, WRITE)).toBeInstanceOf(PmMcpInsufficientScopeError);
      clock.ms += 30_000; // past exp and the 5 s tolerance, within the minute
      await invalidToken(authorizer, `Bearer ${token}`, /expired/);
      expect(state.verifications).toBe(1);
    });
  });
});
