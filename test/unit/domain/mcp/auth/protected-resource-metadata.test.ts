import {
  buildMcpProtectedResourceMetadata,
  canonicalMcpResourceUri,
  MCP_PROTECTED_RESOURCE_WELL_KNOWN,
  mcpProtectedResourceMetadataPaths,
  mcpProtectedResourceMetadataUrl,
} from '../../../../../src/domain/mcp/index.js';

const base = { resource: 'http://127.0.0.1:8787/mcp', authorizationServers: ['https://auth.example.com'], scopesSupported: ['pm:read', 'pm:write'] };

describe('canonical resource URI (RFC 8707 §2, 2026-07-28 `basic/authorization`)', () => {
  test('scheme and host are lowercased, default ports dropped, a bare origin has no trailing slash, the path is kept', () => {
    expect(canonicalMcpResourceUri('http://127.0.0.1:8787/mcp')).toBe('http://127.0.0.1:8787/mcp');
    expect(canonicalMcpResourceUri('HTTPS://MCP.Example.COM:443/MCP')).toBe('https://mcp.example.com/MCP');
    expect(canonicalMcpResourceUri('https://mcp.example.com/')).toBe('https://mcp.example.com');
    expect(canonicalMcpResourceUri('http://[::1]:8787/mcp')).toBe('http://[::1]:8787/mcp');
  });

  test('fragments, queries, user info, other schemes and relative URIs are refused', () => {
    for (const bad of ['http://h/mcp#frag', 'http://h/mcp?x=1', 'http://u:p@h/mcp', 'ftp://h/mcp', '/mcp', '', ' http://h/mcp', 'not a url']) {
      expect(() => canonicalMcpResourceUri(bad)).toThrow(RangeError);
    }
  });
});

describe('well-known paths (RFC 9728 §3.1)', () => {
  test('root and path-inserted forms for a resource with a path', () => {
    expect(mcpProtectedResourceMetadataPaths('http://127.0.0.1:8787/mcp')).toEqual(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']);
    expect(mcpProtectedResourceMetadataPaths('https://h/api/v1/mcp/')).toEqual([MCP_PROTECTED_RESOURCE_WELL_KNOWN, `${MCP_PROTECTED_RESOURCE_WELL_KNOWN}/api/v1/mcp`]);
  });

  test('only the root form for an origin-only resource', () => {
    expect(mcpProtectedResourceMetadataPaths('https://mcp.example.com')).toEqual(['/.well-known/oauth-protected-resource']);
  });

  test('the resource_metadata URL is the path-inserted location on the same origin', () => {
    expect(mcpProtectedResourceMetadataUrl('http://127.0.0.1:8787/mcp')).toBe('http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp');
    expect(mcpProtectedResourceMetadataUrl('https://mcp.example.com')).toBe('https://mcp.example.com/.well-known/oauth-protected-resource');
  });
});

describe('buildMcpProtectedResourceMetadata (RFC 9728 §2)', () => {
  test('builds the document with header-only bearer methods, frozen', () => {
    const doc = buildMcpProtectedResourceMetadata({ ...base, resourceName: 'pm', resourceDocumentation: 'https://example.com/docs/AUTH.md', jwksUri: 'https://auth.example.com/rs-jwks' });
    expect(doc).toEqual({
      resource: 'http://127.0.0.1:8787/mcp',
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['pm:read', 'pm:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'pm',
      resource_documentation: 'https://example.com/docs/AUTH.md',
      jwks_uri: 'https://auth.example.com/rs-jwks',
    });
    expect(Object.isFrozen(doc)).toBe(true);
    expect(Object.isFrozen(doc.scopes_supported)).toBe(true);
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  test('optional members are absent when not given; the resource is canonicalized; issuers are kept verbatim', () => {
    const doc = buildMcpProtectedResourceMetadata({ ...base, resource: 'HTTP://LOCALHOST:8787/mcp', authorizationServers: ['https://auth.example.com/tenant/'] });
    expect(Object.keys(doc)).toEqual(['resource', 'authorization_servers', 'scopes_supported', 'bearer_methods_supported']);
    expect(doc.resource).toBe('http://localhost:8787/mcp');
    expect(doc.authorization_servers).toEqual(['https://auth.example.com/tenant/']);
  });

  test.each([
    ['a fragment in the resource', { resource: 'http://h/mcp#x' }, /fragment/],
    ['no authorization server', { authorizationServers: [] }, /at least one authorization server/],
    ['a relative authorization server', { authorizationServers: ['auth.example.com'] }, /authorization server/],
    ['an authorization server with a query', { authorizationServers: ['https://a.example.com/?x=1'] }, /query/],
    ['a duplicate authorization server', { authorizationServers: ['https://a.example.com', 'https://a.example.com'] }, /twice/],
    ['offline_access', { scopesSupported: ['pm:read', 'offline_access'] }, /offline_access/],
    ['no scopes', { scopesSupported: [] }, /at least one supported scope/],
    ['a scope with a space', { scopesSupported: ['pm read'] }, /invalid scope token/],
    ['a duplicate scope', { scopesSupported: ['pm:read', 'pm:read'] }, /twice/],
    ['an http jwks_uri', { jwksUri: 'http://auth.example.com/jwks' }, /https/],
    ['a blank resource name', { resourceName: ' ' }, /blank/],
  ])('refuses %s', (_name, override, message) => {
    expect(() => buildMcpProtectedResourceMetadata({ ...base, ...override })).toThrow(message);
  });
});
