import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { JoseBearerAuthorizer } from '../../../src/adapters/http/jose-bearer-authorizer.js';
import { LocalAuthorizer } from '../../../src/adapters/node/local-authorizer.js';
import { authSettingsFromEnv, isLoopbackHost, resolveHttpAuth, resolveHttpAuthMode, type HttpAuthJwt } from '../../../src/composition/auth-settings.js';
import { buildContainer } from '../../../src/composition/container.js';
import { httpAuthModule } from '../../../src/composition/http-auth-module.js';
import { httpSettingsFromArgs } from '../../../src/composition/http-settings.js';
import type { McpHttpListener } from '../../../src/adapters/http/mcp-http-server.js';
import { ContainerModule } from 'inversify';
import { IDS } from '../../../src/composition/service-ids.js';
import { SettingsError, settingsFromEnv } from '../../../src/composition/settings.js';
import { PmMcpUnauthorizedError } from '../../../src/domain/mcp/index.js';
import { useTempDir } from '../../support/temp-dir.js';

const SECRET = 'x'.repeat(32);
const JWT_ENV = { PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: 'https://auth.example.test', PM_MCP_AUTH_SECRET: SECRET };
const LOCAL = { host: '127.0.0.1', resourceUri: 'http://127.0.0.1:8787/mcp' };

describe('authSettingsFromEnv', () => {
  test('defaults: mode undecided, pm:read/pm:write, 30 s tolerance', () => {
    expect(authSettingsFromEnv({})).toEqual({ allowUnauthenticatedRemote: false, requireAccessTokenType: false, readScope: 'pm:read', writeScope: 'pm:write', clockToleranceSec: 30, resourceName: 'pm' });
  });

  test('reads every variable; lists split on commas or spaces', () => {
    const settings = authSettingsFromEnv({
      ...JWT_ENV,
      PM_MCP_AUTH_AUDIENCE: 'https://pm.example.test/mcp',
      PM_MCP_AUTH_RESOURCE: 'https://pm.example.test/mcp',
      PM_MCP_AUTH_SERVERS: 'https://a.example.test, https://b.example.test',
      PM_MCP_AUTH_READ_SCOPE: 'tracker.read',
      PM_MCP_AUTH_WRITE_SCOPE: 'tracker.write',
      PM_MCP_AUTH_CLOCK_TOLERANCE_SEC: '5',
      PM_MCP_AUTH_ALGORITHMS: 'HS256 HS512',
      PM_MCP_AUTH_RESOURCE_NAME: 'team tracker',
      PM_MCP_AUTH_RESOURCE_DOCUMENTATION: 'https://docs.example.test/auth',
      PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE: '1',
      PM_MCP_AUTH_REQUIRE_AT_JWT: '1',
    });
    expect(settings).toMatchObject({
      requireAccessTokenType: true,
      mode: 'jwt',
      servers: ['https://a.example.test', 'https://b.example.test'],
      readScope: 'tracker.read',
      writeScope: 'tracker.write',
      clockToleranceSec: 5,
      algorithms: ['HS256', 'HS512'],
      allowUnauthenticatedRemote: true,
      resource: 'https://pm.example.test/mcp',
    });
  });

  test.each([
    ['an unknown mode', { PM_MCP_AUTH: 'basic' }, /mode/],
    ['jwt without an issuer', { PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_SECRET: SECRET }, /needs PM_MCP_AUTH_ISSUER/],
    ['a key without an issuer (implied jwt)', { PM_MCP_AUTH_SECRET: SECRET }, /needs PM_MCP_AUTH_ISSUER/],
    ['a non-URL issuer', { ...JWT_ENV, PM_MCP_AUTH_ISSUER: 'pm-dev' }, /must be an http\(s\) URL/],
    ['no key source', { PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: 'https://a.example.test' }, /exactly one of .* \(got 0\)/],
    ['two key sources', { ...JWT_ENV, PM_MCP_AUTH_JWKS_FILE: '/tmp/jwks.json' }, /exactly one of .* \(got 2\)/],
    ['a short secret', { ...JWT_ENV, PM_MCP_AUTH_SECRET: 'short' }, /at least 32 bytes/],
    ['a plain-http remote JWKS URL', { PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: 'https://a.example.test', PM_MCP_AUTH_JWKS_URL: 'http://auth.example.test/jwks' }, /https URL/],
    ['off with key material', { PM_MCP_AUTH: 'off', PM_MCP_AUTH_SECRET: SECRET }, /PM_MCP_AUTH=off but secret is set/],
    ['equal scopes', { PM_MCP_AUTH_READ_SCOPE: 'pm', PM_MCP_AUTH_WRITE_SCOPE: 'pm' }, /must differ/],
    ['a scope with a quote', { PM_MCP_AUTH_WRITE_SCOPE: 'pm"w' }, /not a valid scope token/],
    ['offline_access as a scope', { PM_MCP_AUTH_READ_SCOPE: 'offline_access' }, /offline_access/],
    ['a typ switch that is not a boolean', { PM_MCP_AUTH_REQUIRE_AT_JWT: 'yes please' }, /PM_MCP_AUTH_REQUIRE_AT_JWT must be 1, true, 0 or false/],
    ['a negative tolerance', { PM_MCP_AUTH_CLOCK_TOLERANCE_SEC: '-1' }, /clockToleranceSec/],
  ])('refuses %s', (_name, env, message) => {
    expect(() => authSettingsFromEnv(env)).toThrow(SettingsError);
    expect(() => authSettingsFromEnv(env)).toThrow(message);
  });

  test('http JWKS URLs are accepted on loopback hosts (local authorization servers, tests)', () => {
    expect(authSettingsFromEnv({ PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: 'http://127.0.0.1:9000', PM_MCP_AUTH_JWKS_URL: 'http://127.0.0.1:9000/jwks' }).jwksUrl).toBe('http://127.0.0.1:9000/jwks');
  });
});

describe('resolveHttpAuthMode (off on loopback, required elsewhere unless explicitly disabled)', () => {
  test('loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', 'api.localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com', '128.0.0.1', 'localhost.example.com']) expect(isLoopbackHost(host)).toBe(false);
  });

  test('loopback: off by default and when off; jwt when configured or implied by an issuer', () => {
    expect(resolveHttpAuthMode('127.0.0.1', authSettingsFromEnv({})).mode).toBe('off');
    expect(resolveHttpAuthMode('localhost', authSettingsFromEnv({ PM_MCP_AUTH: 'off' })).mode).toBe('off');
    expect(resolveHttpAuthMode('127.0.0.1', authSettingsFromEnv(JWT_ENV)).mode).toBe('jwt');
    const { PM_MCP_AUTH: _mode, ...implied } = JWT_ENV;
    expect(resolveHttpAuthMode('127.0.0.1', authSettingsFromEnv(implied))).toEqual({ mode: 'jwt', reason: 'bearer tokens from https://auth.example.test required' });
  });

  test('non-loopback: required by default, with a clear startup error', () => {
    expect(() => resolveHttpAuthMode('0.0.0.0', authSettingsFromEnv({}))).toThrow(SettingsError);
    expect(() => resolveHttpAuthMode('0.0.0.0', authSettingsFromEnv({}))).toThrow(/binding to non-loopback 0\.0\.0\.0 requires bearer authorization: set PM_MCP_AUTH=jwt .* or disable it explicitly with PM_MCP_AUTH=off and PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE=1/);
    expect(resolveHttpAuthMode('0.0.0.0', authSettingsFromEnv({ ...JWT_ENV, PM_MCP_AUTH_RESOURCE: 'https://pm.example.test/mcp' })).mode).toBe('jwt');
  });

  test('a wildcard bind with tokens needs PM_MCP_AUTH_RESOURCE: its own address is no URL a client can reach', () => {
    for (const host of ['0.0.0.0', '::', '[::]', '::0', '0:0:0:0:0:0:0:0', '0']) {
      expect(() => resolveHttpAuthMode(host, authSettingsFromEnv(JWT_ENV))).toThrow(SettingsError);
      expect(() => resolveHttpAuthMode(host, authSettingsFromEnv(JWT_ENV))).toThrow(/set PM_MCP_AUTH_RESOURCE to the public URL of the MCP endpoint/);
    }
    expect(resolveHttpAuthMode('0.0.0.0', authSettingsFromEnv({ ...JWT_ENV, PM_MCP_AUTH_RESOURCE: 'https://pm.example.test/mcp' })).mode).toBe('jwt');
    expect(resolveHttpAuthMode('10.0.0.5', authSettingsFromEnv(JWT_ENV)).mode).toBe('jwt');
    expect(() => resolveHttpAuth({ host: '::', resourceUri: 'http://[::]:8787/mcp' }, authSettingsFromEnv(JWT_ENV))).toThrow(/PM_MCP_AUTH_RESOURCE/);
    // Without tokens there is no metadata and no challenge to advertise a URL in.
    expect(resolveHttpAuthMode('0.0.0.0', authSettingsFromEnv({ PM_MCP_AUTH: 'off', PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE: '1' })).mode).toBe('off');
  });

  test('non-loopback: disabling needs both PM_MCP_AUTH=off and PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE=1', () => {
    expect(() => resolveHttpAuthMode('10.0.0.5', authSettingsFromEnv({ PM_MCP_AUTH: 'off' }))).toThrow(/also needs PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE=1/);
    expect(() => resolveHttpAuthMode('10.0.0.5', authSettingsFromEnv({ PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE: '1' }))).toThrow(/requires bearer authorization/);
    const off = resolveHttpAuthMode('10.0.0.5', authSettingsFromEnv({ PM_MCP_AUTH: 'off', PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE: '1' }));
    expect(off.mode).toBe('off');
    expect(off.reason).toMatch(/anyone who reaches it can read and change the tracker/);
  });
});

describe('resolveHttpAuth', () => {
  test('jwt: canonical resource, audience defaulting to it, metadata, paths, key source, hierarchy', () => {
    const auth = resolveHttpAuth(LOCAL, authSettingsFromEnv(JWT_ENV)) as HttpAuthJwt;
    expect(auth).toMatchObject({
      mode: 'jwt',
      resource: 'http://127.0.0.1:8787/mcp',
      audience: 'http://127.0.0.1:8787/mcp',
      issuer: 'https://auth.example.test',
      resourceMetadataUrl: 'http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp',
      metadataPaths: ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'],
      keys: { kind: 'secret', secret: SECRET },
      scopes: { read: 'pm:read', write: 'pm:write' },
      scopeHierarchy: { 'pm:write': ['pm:read'] },
      warnings: [],
    });
    expect(auth.metadata).toEqual({
      resource: 'http://127.0.0.1:8787/mcp',
      authorization_servers: ['https://auth.example.test'],
      scopes_supported: ['pm:read', 'pm:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'pm',
    });
  });

  test('a public resource behind a proxy, an explicit audience and servers; warnings for remote secrets and plain http', () => {
    const proxied = resolveHttpAuth({ host: '0.0.0.0', resourceUri: 'http://0.0.0.0:8787/mcp' }, authSettingsFromEnv({ ...JWT_ENV, PM_MCP_AUTH_RESOURCE: 'https://PM.example.test/mcp', PM_MCP_AUTH_AUDIENCE: 'api://pm', PM_MCP_AUTH_SERVERS: 'https://login.example.test' })) as HttpAuthJwt;
    expect(proxied).toMatchObject({ resource: 'https://pm.example.test/mcp', audience: 'api://pm', resourceMetadataUrl: 'https://pm.example.test/.well-known/oauth-protected-resource/mcp' });
    expect(proxied.metadata.authorization_servers).toEqual(['https://login.example.test']);
    expect(proxied.warnings).toEqual([expect.stringMatching(/meant for local development/)]);
    const plain = resolveHttpAuth({ host: '10.0.0.5', resourceUri: 'http://10.0.0.5:8787/mcp' }, authSettingsFromEnv(JWT_ENV));
    expect(plain.warnings).toEqual([expect.stringMatching(/local development/), expect.stringMatching(/plain http on a non-loopback host/)]);
  });

  test('off: the scopes, and a warning for an unauthenticated remote bind', () => {
    expect(resolveHttpAuth(LOCAL, authSettingsFromEnv({}))).toEqual({ mode: 'off', reason: 'no authorization: bound to loopback 127.0.0.1', scopes: { read: 'pm:read', write: 'pm:write' }, warnings: [] });
    expect(resolveHttpAuth({ host: '0.0.0.0', resourceUri: 'http://0.0.0.0:1/mcp' }, authSettingsFromEnv({ PM_MCP_AUTH: 'off', PM_MCP_ALLOW_UNAUTHENTICATED_REMOTE: '1' })).warnings).toHaveLength(1);
  });

  test('an unusable resource is a startup error', () => {
    expect(() => resolveHttpAuth(LOCAL, authSettingsFromEnv({ ...JWT_ENV, PM_MCP_AUTH_RESOURCE: 'https://pm.example.test/mcp#x' }))).toThrow(/invalid authorization configuration: resource URI must not have a fragment/);
    expect(() => resolveHttpAuth(LOCAL, authSettingsFromEnv({ ...JWT_ENV, PM_MCP_AUTH_RESOURCE_DOCUMENTATION: 'docs' }))).toThrow(SettingsError);
  });
});

describe('httpAuthModule', () => {
  const temp = useTempDir('pm-auth-module-');

  /** The node family with pm-mcp-http's authorization, over a listener bound at LOCAL's address. */
  async function container(env: NodeJS.ProcessEnv) {
    const listener = { host: '127.0.0.1', port: 8787, url: (path: string) => `http://127.0.0.1:8787${path}` } as unknown as McpHttpListener;
    const line = httpSettingsFromArgs([], {});
    if (line.kind !== 'serve') throw new Error('no settings');
    const constants = new ContainerModule(({ bind }) => {
      bind(IDS.HttpAuthSettings).toConstantValue(authSettingsFromEnv(env));
      bind(IDS.HttpSettings).toConstantValue(line.settings);
      bind(IDS.HttpListener).toConstantValue(listener);
    });
    const c = await buildContainer(settingsFromEnv({ PM_ACTOR: 'local-user' }, '/project', 'fallback'), 'node', { authorization: httpAuthModule, modules: [constants] });
    expect(await c.getAsync(IDS.McpHttpEndpoint)).toEqual(LOCAL);
    return c;
  }

  test('auth off: the local authorizer (the configured actor, every scope)', async () => {
    const c = await container({});
    expect((await c.getAsync(IDS.HttpAuth)).mode).toBe('off');
    const authorizer = await c.getAsync(IDS.Authorizer);
    expect(authorizer).toBeInstanceOf(LocalAuthorizer);
    expect(await authorizer.authorize({ requiredScopes: ['pm:write'] })).toEqual({ id: 'local:local-user', scopes: ['pm:read', 'pm:write'] });
  });

  test('auth on: IDS.Authorizer is the jose authorizer, loaded from a JWKS file', async () => {
    const { publicKey } = await generateKeyPair('ES256');
    const path = join(temp(), 'jwks.json');
    await writeFile(path, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] }));
    const c = await container({ PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: 'https://auth.example.test', PM_MCP_AUTH_JWKS_FILE: path });
    const authorizer = await c.getAsync(IDS.Authorizer);
    expect(authorizer).toBeInstanceOf(JoseBearerAuthorizer);
    expect(await c.getAsync(IDS.Authorizer)).toBe(authorizer);
    const error = await authorizer.authorize({ requiredScopes: ['pm:read'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PmMcpUnauthorizedError);
    expect((error as PmMcpUnauthorizedError).challenge).toBe('Bearer resource_metadata="http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp", scope="pm:read"');
  });

  test('a bad JWKS file fails when the authorizer is resolved (startup), not on the first request', async () => {
    const c = await container({ PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: 'https://auth.example.test', PM_MCP_AUTH_JWKS_FILE: join(temp(), 'missing.json') });
    await expect(c.getAsync(IDS.Authorizer)).rejects.toThrow(/cannot read the JWKS file/);
  });

  test('PM_MCP_AUTH_REQUIRE_AT_JWT=1 reaches the authorizer: a plain JWT is refused, an at+jwt one passes', async () => {
    const c = await container({ ...JWT_ENV, PM_MCP_AUTH_REQUIRE_AT_JWT: '1' });
    const authorizer = await c.getAsync(IDS.Authorizer);
    const key = new TextEncoder().encode(SECRET);
    const claims = { iss: 'https://auth.example.test', aud: LOCAL.resourceUri, sub: 'alice', scope: 'pm:read', exp: Math.floor(Date.now() / 1000) + 60 };
    const plain = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
    await expect(authorizer.authorize({ authorization: `Bearer ${plain}`, requiredScopes: ['pm:read'] })).rejects.toThrow(/typ at\+jwt/);
    const access = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(key);
    expect(await authorizer.authorize({ authorization: `Bearer ${access}`, requiredScopes: ['pm:read'] })).toMatchObject({ id: 'alice' });
  });
});
