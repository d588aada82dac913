/**
 * Bearer authorization of a real pm-mcp-http process (docs/AUTH.md; 2026-07-28 `basic/authorization`):
 * bound to 127.0.0.1 on port 0 with PM_MCP_AUTH=jwt, once with a shared HS256 secret and once
 * with a JWKS file. Covers the 401 challenge with resource_metadata, both well-known metadata
 * paths, 403 insufficient_scope for a write tool under a read-only token, 200 for valid tokens,
 * the principal recorded as the actor of a mutation, refusals of expired / foreign-audience /
 * foreign-issuer / unsigned tokens, tokens in the query string, the legacy path (no bypass),
 * and the loopback/remote startup rule.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { buildMcpHttpRequestHeaders } from '../../src/domain/mcp/http/request-headers.js';
import { MCP_META, PM_MCP_PROTOCOL_VERSION } from '../../src/domain/mcp/index.js';
import { ChildProcesses, type Child } from '../support/child-processes.js';
import { initNodeTracker, openNodeTracker } from '../support/node-tracker.js';
import { useTempDir } from '../support/temp-dir.js';

const BIN = fileURLToPath(new URL('../../bin/pm-mcp-http.js', import.meta.url));
const ISSUER = 'https://auth.example.test';
const SECRET = 'integration-test-secret-at-least-32-bytes';
const secretKey = new TextEncoder().encode(SECRET);
const now = () => Math.floor(Date.now() / 1000);
const META = { [MCP_META.protocolVersion]: PM_MCP_PROTOCOL_VERSION, [MCP_META.clientCapabilities]: {}, [MCP_META.clientInfo]: { name: 'http-auth-test', version: '1.0.0' } };

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly json: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } } | undefined;
}

/** The JSON-RPC message of a JSON or SSE response (the last `data:` event carries the result). */
async function reply(response: Response): Promise<Reply> {
  const text = await response.text();
  let json: Reply['json'];
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const data = text.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim());
    json = data.length ? JSON.parse(data[data.length - 1]!) : undefined;
  } else json = text ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, json };
}

let nextId = 1;
async function rpc(url: string, method: string, params: Record<string, unknown>, options: { token?: string; authorization?: string; modern?: boolean; headers?: Record<string, string> } = {}): Promise<Reply> {
  const modern = options.modern ?? true;
  const message = { jsonrpc: '2.0' as const, id: nextId++, method, params: modern ? { ...params, _meta: META } : params };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(modern ? buildMcpHttpRequestHeaders(message) : {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(options.authorization ? { authorization: options.authorization } : {}),
    ...options.headers,
  };
  return reply(await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) }));
}

describe('pm-mcp-http with bearer authorization', () => {
  const temp = useTempDir('pm-http-auth-');
  const children = new ChildProcesses();
  afterEach(() => children.killAll());

  async function start(projectDir: string, env: NodeJS.ProcessEnv, args: string[] = ['--port', '0']): Promise<{ child: Child; url: string; origin: string }> {
    const child = children.startNode(BIN, [...args, '--no-init'], { PM_ROOT: projectDir, PM_ACTOR: 'server-default', ...env });
    const url = await child.waitForLine((line) => line.startsWith('http://'));
    return { child, url, origin: new URL(url).origin };
  }

  describe('HS256 shared secret', () => {
    let dir: string;
    let root: string;
    let server: { child: Child; url: string; origin: string };
    const token = (claims: JWTPayload = {}, key: Uint8Array = secretKey) => {
      const payload: JWTPayload = { iss: ISSUER, aud: server.url, sub: 'alice@example.test', scope: 'pm:read', iat: now(), exp: now() + 300, ...claims };
      return new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(key);
    };

    // One server for this block (startup dominates the run time); tests only add items with distinct titles.
    const shared = new ChildProcesses();
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'pm-http-auth-shared-'));
      root = await initNodeTracker(dir);
      const child = shared.startNode(BIN, ['--port', '0', '--no-init'], { PM_ROOT: dir, PM_ACTOR: 'server-default', PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: ISSUER, PM_MCP_AUTH_SECRET: SECRET });
      const url = await child.waitForLine((line) => line.startsWith('http://'));
      server = { child, url, origin: new URL(url).origin };
    });
    afterAll(async () => {
      await shared.killAll();
      await rm(dir, { recursive: true, force: true });
    });

    async function titles(): Promise<string[]> {
      const tracker = await openNodeTracker(root);
      try {
        return (await tracker.list()).items.map((item) => item.title);
      } finally {
        await tracker.dispose();
      }
    }

    test('no token → 401 with a Bearer challenge naming resource_metadata and the read scope, and a JSON-RPC body', async () => {
      const res = await rpc(server.url, 'tools/list', {});
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp", scope="pm:read"`);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', error: { code: -31001, data: { reason: 'missing_token', requiredScopes: ['pm:read'] } } });
      expect(typeof res.json!.id).toBe('number');
      expect(server.child.stderr()).toContain('authorization: bearer tokens from https://auth.example.test required');
    });

    test('the RFC 9728 document is served at the root and the path-suffixed well-known paths', async () => {
      const expected = {
        resource: server.url,
        authorization_servers: [ISSUER],
        scopes_supported: ['pm:read', 'pm:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'pm',
      };
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const res = await fetch(`${server.origin}${path}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await res.json()).toEqual(expected);
      }
      const challenge = (await rpc(server.url, 'tools/list', {})).headers.get('www-authenticate')!;
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
      expect(await (await fetch(metadataUrl)).json()).toEqual(expected);
    });

    test('a read-only token lists and reads (200) but gets 403 insufficient_scope for a write tool', async () => {
      const read = await token();
      const list = await rpc(server.url, 'tools/list', {}, { token: read });
      expect(list.status).toBe(200);
      expect((list.json!.result!.tools as { name: string }[]).map((t) => t.name)).toContain('pm_create');
      expect((await rpc(server.url, 'tools/call', { name: 'pm_list', arguments: {} }, { token: read })).status).toBe(200);

      const denied = await rpc(server.url, 'tools/call', { name: 'pm_create', arguments: { title: 'not allowed' } }, { token: read });
      expect(denied.status).toBe(403);
      expect(denied.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp", scope="pm:write", error="insufficient_scope", error_description="This operation needs scope pm:write"`,
      );
      expect(denied.json).toMatchObject({ error: { code: -31003, data: { reason: 'insufficient_scope', requiredScopes: ['pm:write'], missingScopes: ['pm:write'] } } });
      expect(await titles()).not.toContain('not allowed');
    });

    test('a write token mutates, and the principal is the actor the history records', async () => {
      const write = await token({ scope: 'pm:write' });
      const created = await rpc(server.url, 'tools/call', { name: 'pm_create', arguments: { title: 'made over http' } }, { token: write });
      expect(created.status).toBe(200);
      expect(created.json!.result!.isError).not.toBe(true);
      const id = (created.json!.result!.structuredContent as { item: { id: string } }).item.id;
      const tracker = await openNodeTracker(root);
      try {
        expect(await tracker.get(id)).toMatchObject({ title: 'made over http' });
        expect((await tracker.historyOf(id))[0]).toMatchObject({ op: 'create', actor: 'alice@example.test' });
      } finally {
        await tracker.dispose();
      }
      // write implies read
      expect((await rpc(server.url, 'server/discover', {}, { token: write })).status).toBe(200);
    });

    test.each([
      ['an expired token', { iat: now() - 900, exp: now() - 600 }, /expired/],
      ['a token for another resource', { aud: 'http://127.0.0.1:1/mcp' }, /not issued for this resource/],
      ['a token from another issuer', { iss: 'https://evil.example.test' }, /not by the trusted issuer/],
    ])('%s → 401 invalid_token', async (_name, claims, description) => {
      const res = await rpc(server.url, 'tools/list', {}, { token: await token(claims) });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="[^"]+", scope="pm:read", error="invalid_token", error_description="[^"]+"$/);
      expect(res.json!.error!.message).toMatch(description);
    });

    test('a wrong signature, an unsigned token and malformed credentials are refused', async () => {
      const forged = await rpc(server.url, 'tools/list', {}, { token: await token({}, new TextEncoder().encode(`${SECRET}-not-it`)) });
      expect(forged.status).toBe(401);
      expect(forged.json!.error!.message).toMatch(/signature does not verify/);
      const unsigned = new UnsecuredJWT({ iss: ISSUER, aud: server.url, sub: 'mallory', scope: 'pm:write', exp: now() + 300 }).encode();
      expect((await rpc(server.url, 'tools/call', { name: 'pm_create', arguments: { title: 'x' } }, { token: unsigned })).status).toBe(401);
      const basic = await rpc(server.url, 'tools/list', {}, { authorization: 'Basic YWxpY2U6cHc=' });
      expect(basic.status).toBe(401);
      expect(basic.headers.get('www-authenticate')).not.toContain('error=');
      const empty = await rpc(server.url, 'tools/list', {}, { authorization: 'Bearer' });
      expect(empty.status).toBe(401);
      expect(empty.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    test('a raw token without a scheme word is refused without reflecting any part of it', async () => {
      const raw = await token();
      const pieces = Array.from({ length: raw.length - 5 }, (_, i) => raw.slice(i, i + 6));
      for (const [authorization, modern] of [[raw, true], [raw, false], [`${raw} ${raw}`, true], [`Token${raw}`, true]] as const) {
        const response = await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization, ...(modern ? buildMcpHttpRequestHeaders({ method: 'tools/list', params: { _meta: META } }) : {}) },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: modern ? { _meta: META } : {} }),
        });
        const told = `${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${await response.text()}`;
        expect(response.status).toBe(401);
        expect(told).toContain('an unrecognized scheme');
        for (const piece of pieces) expect(told).not.toContain(piece);
      }
      for (const piece of pieces) expect(server.child.stderr()).not.toContain(piece);
    });

    test('a token in the query string is refused (400), even alongside a valid header', async () => {
      const valid = await token();
      const res = await reply(
        await fetch(`${server.url}?access_token=${valid}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${valid}`, ...buildMcpHttpRequestHeaders({ method: 'tools/list', params: { _meta: META } }) },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }),
        }),
      );
      expect(res.status).toBe(400);
      expect(res.json!.error!.message).toMatch(/only in the Authorization header/);
    });

    test('the legacy (initialize-era) path is authorized too: no bypass without the handshake', async () => {
      const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } };
      expect((await rpc(server.url, 'initialize', init, { modern: false })).status).toBe(401);
      const ok = await rpc(server.url, 'initialize', init, { modern: false, token: await token() });
      expect(ok.status).toBe(200);
      expect(ok.json!.result!.protocolVersion).toBe('2025-11-25');
      const denied = await rpc(server.url, 'tools/call', { name: 'pm_create', arguments: { title: 'legacy write' } }, { modern: false, token: await token(), headers: { 'mcp-protocol-version': '2025-11-25' } });
      expect(denied.status).toBe(403);
      expect(await titles()).not.toContain('legacy write');
    });
  });

  test('a JWKS file: RS256 tokens from the configured key pass; HS256 and foreign keys do not', async () => {
    const dir = temp();
    await initNodeTracker(dir);
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const other = await generateKeyPair('RS256');
    const jwksPath = join(dir, 'jwks.json');
    await writeFile(jwksPath, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] }));
    const server = await start(dir, { PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: ISSUER, PM_MCP_AUTH_JWKS_FILE: jwksPath, PM_MCP_AUTH_READ_SCOPE: 'tracker.read', PM_MCP_AUTH_WRITE_SCOPE: 'tracker.write' });
    const sign = (key: Parameters<SignJWT['sign']>[0], alg = 'RS256', claims: JWTPayload = {}) =>
      new SignJWT({ iss: ISSUER, aud: server.url, sub: 'bob', scope: 'tracker.write', exp: now() + 300, ...claims }).setProtectedHeader({ alg, kid: 'k1' }).sign(key);

    const ok = await rpc(server.url, 'tools/call', { name: 'pm_create', arguments: { title: 'via jwks' } }, { token: await sign(privateKey) });
    expect(ok.status).toBe(200);
    expect((await rpc(server.url, 'tools/list', {}, { token: await sign(other.privateKey) })).status).toBe(401);
    expect((await rpc(server.url, 'tools/list', {}, { token: await sign(secretKey, 'HS256') })).status).toBe(401);
    const readOnly = await rpc(server.url, 'tools/call', { name: 'pm_create', arguments: { title: 'no' } }, { token: await sign(privateKey, 'RS256', { scope: 'tracker.read' }) });
    expect(readOnly.status).toBe(403);
    expect(readOnly.headers.get('www-authenticate')).toContain('scope="tracker.write", error="insufficient_scope"');
    const doc = await (await fetch(`${server.origin}/.well-known/oauth-protected-resource`)).json();
    expect(doc).toMatchObject({ scopes_supported: ['tracker.read', 'tracker.write'] });
  });

  test('the loopback/remote rule: a non-loopback bind without authorization refuses to start', async () => {
    const dir = temp();
    await initNodeTracker(dir);
    const child = children.startNode(BIN, ['--host', '0.0.0.0', '--port', '0', '--no-init'], { PM_ROOT: dir });
    const { code } = await child.exited;
    expect(code).not.toBe(0);
    expect(child.stderr()).toMatch(/binding to non-loopback 0\.0\.0\.0 requires bearer authorization/);
    expect(child.lines).toEqual([]);
  });

  test('a wildcard bind with tokens but without PM_MCP_AUTH_RESOURCE refuses to start, naming the variable', async () => {
    const dir = temp();
    await initNodeTracker(dir);
    const child = children.startNode(BIN, ['--host', '0.0.0.0', '--port', '0', '--no-init'], { PM_ROOT: dir, PM_MCP_AUTH: 'jwt', PM_MCP_AUTH_ISSUER: ISSUER, PM_MCP_AUTH_SECRET: SECRET });
    const { code } = await child.exited;
    expect(code).not.toBe(0);
    expect(child.stderr()).toMatch(/0\.0\.0\.0 .*set PM_MCP_AUTH_RESOURCE to the public URL of the MCP endpoint/);
    expect(child.lines).toEqual([]);
  });

  test('without authorization settings a loopback server needs no token and serves no metadata', async () => {
    const dir = temp();
    await initNodeTracker(dir);
    const server = await start(dir, {});
    expect((await rpc(server.url, 'tools/list', {})).status).toBe(200);
    expect((await fetch(`${server.origin}/.well-known/oauth-protected-resource`)).status).toBe(404);
  });
});
