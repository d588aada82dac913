import type { Clock } from '../../../ports/clock.js';
import type { Hasher } from '../../../ports/hasher.js';
import type { IdSource } from '../../../ports/id-source.js';
import type { MacKey, MacKeyStore } from '../../../ports/mac-key-store.js';
import type { ReplayLedger } from '../../../ports/replay-ledger.js';
import { PmMcpRequestStateError } from '../../errors/mcp-errors.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { JsonObject } from '../wire-types.js';
import { base64url, sameMac, unbase64url } from '../../util/sealed-text.js';

/**
 * Sealed MRTR continuation state (seed 004 "MRTR, tasks, and cache behavior"; 2026-07-28
 * `basic/patterns/mrtr`: `requestState` is attacker-controlled, so a server whose state affects
 * business logic integrity-protects it and rejects state that fails verification).
 *
 * A sealed state is `pm1.<key id>.<payload>.<mac>`: the payload (base64url JSON) holds the
 * handler's state and what binds it — the method, a digest of the original arguments, the
 * principal, an expiry and a nonce — and the mac is HMAC-SHA256 of the first three parts under
 * the named key. Opening checks, in order: the form and size, the key (the current one, or one
 * retired less than one lifetime ago, so a rotation never breaks state already handed out), the
 * mac (constant-time), the expiry (Clock port), the method, the arguments, the principal, and —
 * for one-time state — that it was not used before (ReplayLedger). Each failure is -32602
 * (PmMcpRequestStateError) saying which check failed.
 */

/** What a sealed state is bound to. */
export interface McpRequestStateBinding {
  readonly method: string;
  /** The request params as sent, without `_meta`, `inputResponses` and `requestState`. */
  readonly params: JsonObject;
  /** Who asked: the authenticated principal, or `anonymous` when the transport has none. */
  readonly principal: string;
}

/** Options of {@link PmMcpRequestStateSealer}. */
export interface McpRequestStateOptions {
  /** How long a sealed state stays valid (default 10 minutes). */
  readonly ttlMs?: number;
  /** The longest sealed state accepted or produced, in characters (default 8192). */
  readonly maxLength?: number;
}

interface Payload {
  readonly v: 1;
  readonly m: string;
  readonly d: string;
  readonly p: string;
  readonly e: number;
  readonly n: string;
  readonly o: 0 | 1;
  readonly s: JsonObject;
}

const PREFIX = 'pm1';
const PARAM_KEYS_IGNORED = new Set(['_meta', 'inputResponses', 'requestState']);

/** The digest of a request's arguments the state is bound to. */
export function mcpRequestStateParamsDigest(hasher: Hasher, params: JsonObject): string {
  const salient: JsonObject = {};
  for (const [key, value] of Object.entries(params)) if (!PARAM_KEYS_IGNORED.has(key)) salient[key] = value;
  return hasher.sha256Hex(canonicalJson(salient));
}

/** Seals and opens `requestState` (see the module comment). Public SDK: the interaction helpers. */
export class PmMcpRequestStateSealer {
  private readonly ttlMs: number;
  private readonly maxLength: number;

  constructor(
    private readonly ports: { readonly hasher: Hasher; readonly clock: Clock; readonly ids: IdSource; readonly keys: MacKeyStore; readonly replays: ReplayLedger },
    options: McpRequestStateOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 600_000;
    this.maxLength = options.maxLength ?? 8192;
    if (!Number.isSafeInteger(this.ttlMs) || this.ttlMs <= 0) throw new RangeError('ttlMs must be a positive integer');
  }

  /** How long a sealed state lives (ms): also how long a retired key keeps verifying. */
  get lifetimeMs(): number {
    return this.ttlMs;
  }

  /** Seals `state` for a retry of the request `binding` describes. */
  async seal(state: JsonObject, binding: McpRequestStateBinding, options: { readonly once?: boolean } = {}): Promise<string> {
    const key = await this.ports.keys.current();
    const payload: Payload = {
      v: 1,
      m: binding.method,
      d: mcpRequestStateParamsDigest(this.ports.hasher, binding.params),
      p: binding.principal,
      e: this.ports.clock.now() + this.ttlMs,
      n: this.ports.ids.randomBase36(16),
      o: options.once ? 1 : 0,
      s: state,
    };
    const body = `${PREFIX}.${key.id}.${base64url(JSON.stringify(payload))}`;
    const sealed = `${body}.${this.ports.hasher.hmacSha256Hex(key.secret, body)}`;
    if (sealed.length > this.maxLength) throw new RangeError(`the sealed state is ${sealed.length} characters; the bound is ${this.maxLength}`);
    return sealed;
  }

  /** Opens a sealed state for the request `binding` describes; throws PmMcpRequestStateError naming the failed check. */
  async open(sealed: string, binding: McpRequestStateBinding): Promise<JsonObject> {
    if (sealed.length > this.maxLength) throw new PmMcpRequestStateError('too-large', `it is ${sealed.length} characters; the bound is ${this.maxLength}`);
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== PREFIX || !/^[0-9a-f]{64}$/.test(parts[3]!)) throw new PmMcpRequestStateError('malformed', 'it is not a state pm issued');
    const [, keyId, encoded, mac] = parts as [string, string, string, string];
    const key = await this.acceptedKey(keyId);
    if (!key) throw new PmMcpRequestStateError('unknown-key', 'it was sealed with a key this server no longer accepts (rotated out, or another server)');
    if (!sameMac(this.ports.hasher.hmacSha256Hex(key.secret, `${PREFIX}.${keyId}.${encoded}`), mac)) throw new PmMcpRequestStateError('tampered', 'its seal does not verify');
    const payload = this.decode(encoded);
    const now = this.ports.clock.now();
    if (payload.e <= now) throw new PmMcpRequestStateError('expired', `it expired at ${new Date(payload.e).toISOString()}`);
    if (payload.m !== binding.method) throw new PmMcpRequestStateError('other-method', `it was issued for ${payload.m}, not ${binding.method}`);
    if (payload.d !== mcpRequestStateParamsDigest(this.ports.hasher, binding.params)) throw new PmMcpRequestStateError('other-arguments', 'it was issued for other arguments; retry with exactly the original ones');
    if (payload.p !== binding.principal) throw new PmMcpRequestStateError('foreign-principal', 'it was issued to another caller');
    if (payload.o === 1 && !(await this.ports.replays.consume(`${keyId}.${payload.n}`, payload.e, now))) throw new PmMcpRequestStateError('replayed', 'it was used already and may be used once only');
    return payload.s;
  }

  /** Makes a fresh key current; the replaced one keeps verifying for one state lifetime. */
  async rotate(): Promise<MacKey> {
    const now = this.ports.clock.now();
    return this.ports.keys.rotate(now, now - this.ttlMs);
  }

  /** The keys on record, current first (what `pm mcp rotate-key` reports). */
  async keys(): Promise<readonly MacKey[]> {
    return this.ports.keys.keys();
  }

  private async acceptedKey(id: string): Promise<MacKey | undefined> {
    const now = this.ports.clock.now();
    const key = (await this.ports.keys.keys()).find((k) => k.id === id);
    if (!key) return undefined;
    return key.retiredAt === undefined || key.retiredAt + this.ttlMs > now ? key : undefined;
  }

  private decode(encoded: string): Payload {
    const text = unbase64url(encoded);
    let value: unknown;
    try {
      value = text === undefined ? undefined : JSON.parse(text);
    } catch {
      value = undefined;
    }
    const p = value as Partial<Payload> | undefined;
    if (!p || p.v !== 1 || typeof p.m !== 'string' || typeof p.d !== 'string' || typeof p.p !== 'string' || typeof p.e !== 'number' || typeof p.n !== 'string' || (p.o !== 0 && p.o !== 1) || !p.s || typeof p.s !== 'object' || Array.isArray(p.s)) {
      throw new PmMcpRequestStateError('malformed', 'its payload is not a state pm issued');
    }
    return p as Payload;
  }
}
