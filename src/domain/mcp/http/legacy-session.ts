import type { Hasher } from '../../../ports/hasher.js';
import type { MacKeyStore } from '../../../ports/mac-key-store.js';
import { isPmMcpLegacyProtocolVersion } from '../protocol.js';
import type { LegacySessionState } from '../../../ports/transport.js';
import type { McpLegacyConnectionState } from '../request-context.js';
import { frozenJsonCopy } from '../request-meta.js';
import type { JsonObject, McpClientCapabilities } from '../wire-types.js';
import { base64url, sameMac, unbase64url } from '../../util/sealed-text.js';

/**
 * Stateless legacy sessions for sessionless Streamable HTTP (docs/HTTP.md "Initialize-era
 * clients over HTTP"). 2025-06-18 and 2025-11-25 `basic/transports` "Session Management": a
 * server MAY return an `Mcp-Session-Id` with the InitializeResult, and the client MUST then
 * send it on every later request; a server that ends a session answers it with 404 Not Found
 * (the client then initializes again), and MAY answer DELETE with 405. pm keeps no session
 * table: the id itself carries what `initialize` declared (the revision and the client's name
 * and version), sealed with the MAC key store that also seals MRTR requestState, so any
 * replica holding the keys reads it and nothing is stored per client. A legacy request with a
 * valid id is attributed to that client (unless a principal is authenticated), and keeps the
 * extensions its `initialize` negotiated for the session (MCP Apps,
 * docs/decisions/005-apps-in-initialize-era-sessions.md); an id pm did not issue, was
 * altered, or whose key was rotated out is an ended session: 404.
 *
 * Wire form: `pms1.<key id>.<payload>.<mac>`, payload the base64url JSON `{ r, n, v, x }`
 * (`x`: the negotiated extensions with the client's declarations, present only when any), mac
 * the hex HMAC-SHA256 of everything before it: visible ASCII only, as the spec requires.
 */
const PREFIX = 'pms1';
/** Longest identity carried (longer names or versions get no session: attribution falls back). */
const MAX_FIELD = 200;
/** Longest serialized extension declarations carried (a longer set gets no session). */
const MAX_EXTENSIONS = 512;
/** Longest id accepted (an oversized header is not one pm issued). */
const MAX_ID = 1024;

/** Why a presented session id was refused. */
export type McpLegacySessionProblem = 'malformed' | 'unknown-key' | 'tampered';

export class PmMcpLegacySessionError extends Error {
  constructor(readonly problem: McpLegacySessionProblem) {
    super(`session not found (${problem})`);
    this.name = 'PmMcpLegacySessionError';
  }
}

export class PmMcpLegacySessions {
  constructor(private readonly ports: { readonly hasher: Hasher; readonly keys: MacKeyStore }) {}

  /** The `Mcp-Session-Id` for a client that just initialized, or undefined when its identity is too long to carry. */
  async issue(state: LegacySessionState): Promise<string | undefined> {
    if (!isPmMcpLegacyProtocolVersion(state.revision)) return undefined;
    const info = state.clientInfo;
    if (info && (info.name.length > MAX_FIELD || info.version.length > MAX_FIELD)) return undefined;
    const extensions = state.extensions && Object.keys(state.extensions).length ? state.extensions : undefined;
    if (extensions && JSON.stringify(extensions).length > MAX_EXTENSIONS) return undefined;
    const key = await this.ports.keys.current();
    const body = `${PREFIX}.${key.id}.${base64url(JSON.stringify({ r: state.revision, ...(info ? { n: info.name, v: info.version } : {}), ...(extensions ? { x: extensions } : {}) }))}`;
    return `${body}.${this.ports.hasher.hmacSha256Hex(key.secret, body)}`;
  }

  /** What the id carries; throws PmMcpLegacySessionError when pm did not issue it (or no longer accepts its key). */
  async open(id: string): Promise<McpLegacyConnectionState> {
    const parts = id.length <= MAX_ID ? id.split('.') : [];
    if (parts.length !== 4 || parts[0] !== PREFIX || !/^[0-9a-f]{64}$/.test(parts[3]!)) throw new PmMcpLegacySessionError('malformed');
    const [, keyId, encoded, mac] = parts as [string, string, string, string];
    const key = (await this.ports.keys.keys()).find((k) => k.id === keyId);
    if (!key) throw new PmMcpLegacySessionError('unknown-key');
    if (!sameMac(this.ports.hasher.hmacSha256Hex(key.secret, `${PREFIX}.${keyId}.${encoded}`), mac)) throw new PmMcpLegacySessionError('tampered');
    const payload = decode(encoded);
    if (!payload) throw new PmMcpLegacySessionError('malformed');
    const clientCapabilities = payload.x ? frozenJsonCopy({ extensions: payload.x }) : Object.freeze({});
    return Object.freeze({ revision: payload.r, clientCapabilities: clientCapabilities as McpClientCapabilities, clientInfo: payload.n === undefined ? undefined : Object.freeze({ name: payload.n, version: payload.v! }) });
  }
}

function decode(encoded: string): { r: McpLegacyConnectionState['revision']; n?: string; v?: string; x?: JsonObject } | undefined {
  let value: unknown;
  try {
    const text = unbase64url(encoded);
    value = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
  const p = value as { r?: unknown; n?: unknown; v?: unknown; x?: unknown } | undefined;
  if (!p || typeof p !== 'object' || !isPmMcpLegacyProtocolVersion(p.r)) return undefined;
  if (p.x !== undefined && (typeof p.x !== 'object' || p.x === null || Array.isArray(p.x))) return undefined;
  const x = p.x === undefined ? {} : { x: p.x as JsonObject };
  if (p.n === undefined && p.v === undefined) return { r: p.r, ...x };
  return typeof p.n === 'string' && typeof p.v === 'string' ? { r: p.r, n: p.n, v: p.v, ...x } : undefined;
}

