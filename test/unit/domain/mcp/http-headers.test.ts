import { PmMcpHeaderMismatchError } from '../../../../src/domain/errors/mcp-errors.js';
import {
  buildMcpHttpRequestHeaders,
  decodeBase64Strict,
  decodeMcpHeaderValue,
  encodeBase64,
  encodeMcpHeaderValue,
  isMcpHeaderSafe,
  mcpHeaderValueText,
  PmMcpToolRegistry,
  scanMcpHeaderAnnotations,
  validateMcpHttpRequestHeaders,
  type McpHttpHeaders,
  type McpInboundMessage,
} from '../../../../src/domain/mcp/index.js';
import { z } from 'zod';
import { thrownBy } from '../../../support/thrown.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

const SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string', 'x-mcp-header': 'Item-Id' },
    limit: { type: 'integer', 'x-mcp-header': 'Limit' },
    open: { type: 'boolean', 'x-mcp-header': 'Open' },
    filter: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
    note: { type: 'string' },
  },
  required: ['id'],
};

function call(args: Record<string, unknown>, name = 'pm_get', meta: Record<string, unknown> = META): McpInboundMessage {
  return { id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } };
}

function mismatch(headers: McpHttpHeaders, message: McpInboundMessage, options = {}): PmMcpHeaderMismatchError {
  const typed = thrownBy(() => validateMcpHttpRequestHeaders(headers, message, options), PmMcpHeaderMismatchError, '-32020');
  expect(typed.toJsonRpcError()).toMatchObject({ code: -32020, message: expect.stringMatching(/^Header mismatch: /) });
  return typed;
}

describe('value encoding (Value Encoding, SEP-2243)', () => {
  test('Base64 matches the RFC 4648 test vectors both ways', () => {
    const vectors: [string, string][] = [['', ''], ['f', 'Zg=='], ['fo', 'Zm8='], ['foo', 'Zm9v'], ['foob', 'Zm9vYg=='], ['fooba', 'Zm9vYmE='], ['foobar', 'Zm9vYmFy']];
    for (const [plain, encoded] of vectors) {
      expect(encodeBase64(new TextEncoder().encode(plain))).toBe(encoded);
      expect(new TextDecoder().decode(decodeBase64Strict(encoded))).toBe(plain);
    }
  });
  test('strict Base64 refuses missing padding, non-alphabet characters and misplaced padding', () => {
    for (const bad of ['SGVsbG8', 'SGVs!!!bG8=', 'SG=sbG8=', 'S===', 'SGVsbG8=====', 'SGVsbG8-']) expect(decodeBase64Strict(bad)).toBeUndefined();
  });
  test('plain header-safe ASCII travels as is', () => {
    for (const value of ['pm_list', 'pm://items/PM-12', 'a b', 'x=?y']) {
      expect(isMcpHeaderSafe(value)).toBe(true);
      expect(encodeMcpHeaderValue(value)).toBe(value);
    }
  });
  test('non-ASCII, control characters, edge whitespace, empty and sentinel-shaped values use the sentinel', () => {
    const cases: [string, string][] = [
      ['Grüße', '=?base64?R3LDvMOfZQ==?='],
      [' padded', '=?base64?IHBhZGRlZA==?='],
      ['tab\there', '=?base64?dGFiCWhlcmU=?='],
      ['', '=?base64??='],
      ['=?base64?SGk=?=', '=?base64?PT9iYXNlNjQ/U0drPT89?='],
    ];
    for (const [value, encoded] of cases) {
      expect(isMcpHeaderSafe(value)).toBe(false);
      expect(encodeMcpHeaderValue(value)).toBe(encoded);
      expect(decodeMcpHeaderValue(encoded)).toEqual({ ok: true, value });
    }
  });
  test('decoding: literal without the exact markers, strict inside them', () => {
    expect(decodeMcpHeaderValue('SGVsbG8=')).toEqual({ ok: true, value: 'SGVsbG8=' });
    expect(decodeMcpHeaderValue('=?base64?SGVsbG8=')).toEqual({ ok: true, value: '=?base64?SGVsbG8=' });
    expect(decodeMcpHeaderValue('=?BASE64?SGVsbG8=?=')).toEqual({ ok: true, value: '=?BASE64?SGVsbG8=?=' });
    expect(decodeMcpHeaderValue('=?base64?SGVsbG8=?=')).toEqual({ ok: true, value: 'Hello' });
    expect(decodeMcpHeaderValue('=?base64?SGVsbG8?=')).toMatchObject({ ok: false, problem: expect.stringContaining('malformed Base64') });
    expect(decodeMcpHeaderValue('=?base64?/w==?=')).toMatchObject({ ok: false, problem: expect.stringContaining('UTF-8') });
    expect(decodeMcpHeaderValue('caf\u00e9')).toMatchObject({ ok: false, problem: expect.stringContaining('visible ASCII') });
    expect(decodeMcpHeaderValue('a\tb')).toEqual({ ok: true, value: 'a\tb' });
  });
  test('type mapping: strings as is, integers in decimal, booleans as true/false, nothing else', () => {
    expect(mcpHeaderValueText('x')).toBe('x');
    expect(mcpHeaderValueText(42)).toBe('42');
    expect(mcpHeaderValueText(-7)).toBe('-7');
    expect(mcpHeaderValueText(true)).toBe('true');
    expect(mcpHeaderValueText(false)).toBe('false');
    for (const value of [null, undefined, {}, [], Number.NaN, Infinity, 2 ** 60]) expect(mcpHeaderValueText(value)).toBeUndefined();
  });
});

describe('x-mcp-header annotations', () => {
  test('collects annotations reached through properties, nested ones included', () => {
    expect(scanMcpHeaderAnnotations(SCHEMA)).toEqual([
      { path: ['id'], name: 'Item-Id', type: 'string' },
      { path: ['limit'], name: 'Limit', type: 'integer' },
      { path: ['open'], name: 'Open', type: 'boolean' },
      { path: ['filter', 'region'], name: 'Region', type: 'string' },
    ]);
    expect(scanMcpHeaderAnnotations({ type: 'object' })).toEqual([]);
  });
  test.each([
    ['an empty name', { a: { type: 'string', 'x-mcp-header': '' } }, /non-empty string/],
    ['a non-token name', { a: { type: 'string', 'x-mcp-header': 'Item Id' } }, /RFC 9110 token/],
    ['a CR/LF in the name', { a: { type: 'string', 'x-mcp-header': 'A\r\nB' } }, /RFC 9110 token/],
    ['a number property', { a: { type: 'number', 'x-mcp-header': 'A' } }, /string, integer or boolean/],
    ['an object property', { a: { type: 'object', 'x-mcp-header': 'A' } }, /string, integer or boolean/],
    ['an untyped property', { a: { 'x-mcp-header': 'A' } }, /string, integer or boolean/],
    ['a case-insensitive duplicate', { a: { type: 'string', 'x-mcp-header': 'Name' }, b: { type: 'string', 'x-mcp-header': 'NAME' } }, /repeats/],
    ['an annotation under items', { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } }, /reached through "properties"/],
    ['an annotation under anyOf', { a: { anyOf: [{ type: 'string', 'x-mcp-header': 'A' }] } }, /reached through "properties"/],
    ['an annotation under if/then', { a: { if: { type: 'string' }, then: { type: 'string', 'x-mcp-header': 'A' } } }, /reached through "properties"/],
  ])('refuses %s', (_label, properties, message) => {
    expect(() => scanMcpHeaderAnnotations({ type: 'object', properties })).toThrow(message);
  });
  test('refuses annotations in $defs (reached through $ref) and on the root', () => {
    expect(() => scanMcpHeaderAnnotations({ type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string', 'x-mcp-header': 'A' } } })).toThrow(/reached through/);
    expect(() => scanMcpHeaderAnnotations({ type: 'object', 'x-mcp-header': 'Root' })).toThrow(/reached through/);
  });
  test('the tool registry validates annotations before a tool is advertised', () => {
    const tool = (inputSchema: Record<string, unknown>) => ({ name: 't', description: 'd', inputSchema: inputSchema as { type: 'object' }, args: z.object({}), handler: () => ({ structuredContent: {} }) });
    expect(() => new PmMcpToolRegistry([tool({ type: 'object', properties: { a: { type: 'number', 'x-mcp-header': 'A' } } })])).toThrow(/tool t inputSchema: a: x-mcp-header/);
    expect(new PmMcpToolRegistry([tool(SCHEMA)]).size).toBe(1);
  });
});

describe('buildMcpHttpRequestHeaders (client side)', () => {
  test('tools/call: version, method, name and every present annotated argument', () => {
    const headers = buildMcpHttpRequestHeaders(call({ id: 'PM-12', limit: 5, open: false, filter: { region: 'Zürich' }, note: 'x' }), { toolInputSchema: SCHEMA });
    expect(headers).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'pm_get',
      'Mcp-Param-Item-Id': 'PM-12',
      'Mcp-Param-Limit': '5',
      'Mcp-Param-Open': 'false',
      'Mcp-Param-Region': '=?base64?WsO8cmljaA==?=',
    });
  });
  test('null or absent annotated arguments get no header; without a schema no custom header is built', () => {
    expect(buildMcpHttpRequestHeaders(call({ id: 'PM-1', limit: null }), { toolInputSchema: SCHEMA })).toEqual({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'pm_get', 'Mcp-Param-Item-Id': 'PM-1' });
    expect(buildMcpHttpRequestHeaders(call({ id: 'PM-1' }))).toEqual({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'pm_get' });
  });
  test('Mcp-Name mirrors params.name, params.uri or params.taskId; other methods carry none', () => {
    expect(buildMcpHttpRequestHeaders({ id: 1, method: 'prompts/get', params: { name: 'triage', _meta: META } })['Mcp-Name']).toBe('triage');
    expect(buildMcpHttpRequestHeaders({ id: 1, method: 'resources/read', params: { uri: 'pm://items/ü', _meta: META } })['Mcp-Name']).toBe('=?base64?cG06Ly9pdGVtcy/DvA==?=');
    expect(buildMcpHttpRequestHeaders({ id: 1, method: 'tasks/get', params: { taskId: 't-1', _meta: META } })['Mcp-Name']).toBe('t-1');
    expect(buildMcpHttpRequestHeaders({ id: 1, method: 'tools/list', params: { _meta: META } })).toEqual({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' });
  });
  test('MCP-Protocol-Version comes from the body, else the option, else 2026-07-28', () => {
    expect(buildMcpHttpRequestHeaders({ method: 'notifications/cancelled' })['MCP-Protocol-Version']).toBe('2026-07-28');
    expect(buildMcpHttpRequestHeaders({ method: 'tools/list' }, { protocolVersion: '2025-11-25' })['MCP-Protocol-Version']).toBe('2025-11-25');
    expect(buildMcpHttpRequestHeaders({ id: 1, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } } })['MCP-Protocol-Version']).toBe('2027-01-01');
  });
  test('an invalid annotation is refused (such a tool must be dropped, not called)', () => {
    expect(() => buildMcpHttpRequestHeaders(call({ a: 1 }), { toolInputSchema: { type: 'object', properties: { a: { type: 'number', 'x-mcp-header': 'A' } } } })).toThrow(RangeError);
  });
});

describe('validateMcpHttpRequestHeaders (server side)', () => {
  const full = call({ id: 'PM-12', limit: 5, open: true, filter: { region: 'Zürich' } });
  const good = buildMcpHttpRequestHeaders(full, { toolInputSchema: SCHEMA });
  const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const without = (headers: Record<string, string>, name: string) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== name));

  test('accepts what the builder produces, whatever the header-name case, with optional whitespace trimmed', () => {
    expect(() => validateMcpHttpRequestHeaders(good, full, { toolInputSchema: SCHEMA })).not.toThrow();
    expect(() => validateMcpHttpRequestHeaders(lower(good), full, { toolInputSchema: SCHEMA })).not.toThrow();
    const upper = Object.fromEntries(Object.entries(good).map(([k, v]) => [k.toUpperCase(), ` ${v}\t`]));
    expect(() => validateMcpHttpRequestHeaders(upper, full, { toolInputSchema: SCHEMA })).not.toThrow();
    const list = { id: 2, method: 'tools/list', params: { _meta: META } };
    expect(() => validateMcpHttpRequestHeaders(buildMcpHttpRequestHeaders(list), list)).not.toThrow();
  });
  test('missing MCP-Protocol-Version, Mcp-Method or required Mcp-Name: -32020', () => {
    expect(mismatch(without(good, 'MCP-Protocol-Version'), full).message).toBe('Header mismatch: MCP-Protocol-Version header is required but missing');
    expect(mismatch(without(good, 'Mcp-Method'), full).message).toBe('Header mismatch: Mcp-Method header is required but missing');
    expect(mismatch(without(good, 'Mcp-Name'), full).message).toBe('Header mismatch: Mcp-Name header is required for tools/call but missing');
    const read = { id: 3, method: 'resources/read', params: { uri: 'pm://context', _meta: META } };
    expect(mismatch({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read' }, read).data).toEqual({ header: 'Mcp-Name' });
  });
  test('values are exact: version, method (case-sensitive) and name must equal the body', () => {
    expect(mismatch({ ...good, 'MCP-Protocol-Version': '2025-11-25' }, full).message).toBe("Header mismatch: MCP-Protocol-Version header value '2025-11-25' does not match body value '2026-07-28'");
    expect(mismatch({ ...good, 'Mcp-Method': 'TOOLS/CALL' }, full).message).toBe("Header mismatch: Mcp-Method header value 'TOOLS/CALL' does not match body value 'tools/call'");
    expect(mismatch({ ...good, 'Mcp-Name': 'pm_list' }, full).message).toBe("Header mismatch: Mcp-Name header value 'pm_list' does not match body value 'pm_get'");
  });
  test('Mcp-Name is decoded before comparing; malformed Base64 or raw non-ASCII is rejected', () => {
    const read = { id: 3, method: 'resources/read', params: { uri: 'pm://items/ü', _meta: META } };
    const headers = buildMcpHttpRequestHeaders(read);
    expect(() => validateMcpHttpRequestHeaders(headers, read)).not.toThrow();
    expect(mismatch({ ...headers, 'Mcp-Name': '=?base64?cG06Ly9pdGVtcy/DvA?=' }, read).message).toContain('malformed Base64');
    expect(mismatch({ ...headers, 'Mcp-Name': 'pm://items/\u00fc' }, read).message).toContain('outside visible ASCII');
  });
  test('a repeated header with different values is rejected; identical repeats are one value', () => {
    expect(mismatch({ ...lower(good), 'mcp-method': ['tools/call', 'tools/list'] }, full, { toolInputSchema: SCHEMA }).message).toContain('repeated');
    expect(() => validateMcpHttpRequestHeaders({ ...lower(good), 'mcp-method': ['tools/call', 'tools/call'] }, full, { toolInputSchema: SCHEMA })).not.toThrow();
  });
  test('a body without the _meta version is left to the -32602 metadata check', () => {
    const bare = { id: 4, method: 'tools/list' };
    expect(() => validateMcpHttpRequestHeaders({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' }, bare)).not.toThrow();
  });
  test('an annotated argument present and not null needs its Mcp-Param header', () => {
    const error = mismatch(without(good, 'Mcp-Param-Item-Id'), full, { toolInputSchema: SCHEMA });
    expect(error.message).toBe('Header mismatch: Mcp-Param-Item-Id header is required when argument id is present but missing');
    expect(mismatch(without(good, 'Mcp-Param-Region'), full, { toolInputSchema: SCHEMA }).data).toEqual({ header: 'Mcp-Param-Region' });
  });
  test('null or absent annotated arguments expect no header', () => {
    const partial = call({ id: 'PM-1', limit: null });
    expect(() => validateMcpHttpRequestHeaders({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'pm_get', 'Mcp-Param-Item-Id': 'PM-1' }, partial, { toolInputSchema: SCHEMA })).not.toThrow();
  });
  test('Mcp-Param values are decoded and compared: strings exactly, integers numerically, booleans as true/false', () => {
    expect(mismatch({ ...good, 'Mcp-Param-Item-Id': 'PM-13' }, full, { toolInputSchema: SCHEMA }).message).toBe("Header mismatch: Mcp-Param-Item-Id header value 'PM-13' does not match argument id value 'PM-12'");
    expect(() => validateMcpHttpRequestHeaders({ ...good, 'Mcp-Param-Limit': '005' }, full, { toolInputSchema: SCHEMA })).not.toThrow();
    expect(() => validateMcpHttpRequestHeaders({ ...good, 'Mcp-Param-Limit': '+5' }, full, { toolInputSchema: SCHEMA })).not.toThrow();
    for (const bad of ['6', '5.0', 'five', '']) expect(mismatch({ ...good, 'Mcp-Param-Limit': bad }, full, { toolInputSchema: SCHEMA }).data).toEqual({ header: 'Mcp-Param-Limit' });
    expect(mismatch({ ...good, 'Mcp-Param-Open': 'TRUE' }, full, { toolInputSchema: SCHEMA }).data).toEqual({ header: 'Mcp-Param-Open' });
    expect(mismatch({ ...good, 'Mcp-Param-Region': 'Zurich' }, full, { toolInputSchema: SCHEMA }).data).toEqual({ header: 'Mcp-Param-Region' });
    expect(mismatch({ ...good, 'Mcp-Param-Region': '=?base64?WsO8cmljaA?=' }, full, { toolInputSchema: SCHEMA }).message).toContain('malformed Base64');
  });
  test('a value without the exact sentinel markers is literal (and then compared as such)', () => {
    const args = call({ id: '=?base64?SGVsbG8=' });
    const headers = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'pm_get', 'Mcp-Param-Item-Id': '=?base64?SGVsbG8=' };
    expect(() => validateMcpHttpRequestHeaders(headers, args, { toolInputSchema: SCHEMA })).not.toThrow();
    const hello = call({ id: 'Hello' });
    expect(() => validateMcpHttpRequestHeaders({ ...headers, 'Mcp-Param-Item-Id': '=?base64?SGVsbG8=?=' }, hello, { toolInputSchema: SCHEMA })).not.toThrow();
  });
});
