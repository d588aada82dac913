import { readFile } from 'node:fs/promises';
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWSAlgorithm, type CompactVerifyGetKey } from 'jose';

/**
 * Where the bearer authorizer gets its verification keys (docs/AUTH.md: keys from a JWKS
 * file or URL, or a shared secret for local development). Loading validates the material
 * up front, so bad configuration fails at startup rather than on the first request.
 */
export type JoseKeySource =
  /** A JWKS document already in memory (tests, embedding hosts). */
  | { readonly kind: 'jwks'; readonly jwks: JSONWebKeySet }
  /** A JWKS file on disk, read once at startup (PM_MCP_AUTH_JWKS_FILE). */
  | { readonly kind: 'jwks-file'; readonly path: string }
  /** The authorization server's JWKS endpoint, fetched and cached by jose (PM_MCP_AUTH_JWKS_URL). */
  | { readonly kind: 'jwks-url'; readonly url: string; readonly timeoutMs?: number; readonly cooldownMs?: number; readonly cacheMaxAgeMs?: number }
  /** A shared HMAC secret, at least 32 bytes (PM_MCP_AUTH_SECRET; local development). */
  | { readonly kind: 'secret'; readonly secret: string | Uint8Array };

/** A loaded key: a jose key resolver or an HMAC secret, and the algorithms it may verify. */
export interface JoseVerificationKey {
  readonly key: CompactVerifyGetKey | Uint8Array;
  /** Accepted JWS `alg` values; `none` is never among them. */
  readonly algorithms: readonly JWSAlgorithm[];
  /** What the key is, for diagnostics (never the key material). */
  readonly description: string;
}

/** Asymmetric signature algorithms accepted from a JWKS by default. */
export const JOSE_ASYMMETRIC_ALGORITHMS: readonly JWSAlgorithm[] = Object.freeze(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']);
/** The HMAC algorithm accepted with a shared secret by default. */
export const JOSE_SECRET_ALGORITHMS: readonly JWSAlgorithm[] = Object.freeze(['HS256']);
const HMAC_ALGORITHMS: readonly JWSAlgorithm[] = Object.freeze(['HS256', 'HS384', 'HS512']);
/** Shortest shared secret accepted (RFC 7518 §3.2: a key at least as long as the hash output). */
export const JOSE_MIN_SECRET_BYTES = 32;

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const;

function assertPublicJwks(value: unknown, where: string): JSONWebKeySet {
  if (!value || typeof value !== 'object' || !Array.isArray((value as { keys?: unknown }).keys)) throw new RangeError(`${where}: not a JWKS document (expected {"keys": [...]})`);
  const keys = (value as { keys: unknown[] }).keys;
  if (!keys.length) throw new RangeError(`${where}: the JWKS has no keys`);
  keys.forEach((key, index) => {
    if (!key || typeof key !== 'object' || typeof (key as { kty?: unknown }).kty !== 'string') throw new RangeError(`${where}: key ${index} has no kty`);
    const secret = PRIVATE_MEMBERS.find((member) => member in key);
    if (secret) throw new RangeError(`${where}: key ${index} holds private or symmetric material ("${secret}"); publish public keys only (use PM_MCP_AUTH_SECRET for a shared secret)`);
  });
  return value as JSONWebKeySet;
}

function restrict(algorithms: readonly JWSAlgorithm[] | undefined, allowed: readonly JWSAlgorithm[], what: string): readonly JWSAlgorithm[] {
  if (!algorithms) return allowed;
  const bad = algorithms.filter((alg) => !allowed.includes(alg));
  if (bad.length || !algorithms.length) throw new RangeError(`algorithms ${JSON.stringify(bad.length ? bad : algorithms)} cannot be used with ${what}; allowed: ${allowed.join(', ')}`);
  return Object.freeze([...algorithms]);
}

/**
 * Loads and validates `source`. Throws RangeError for unusable material: a JWKS without keys or
 * with private/symmetric members, a secret shorter than {@link JOSE_MIN_SECRET_BYTES}, an
 * algorithm list that does not fit the key kind (HMAC never with a JWKS, asymmetric never with
 * a secret — which also rules out algorithm-confusion attacks).
 */
export async function loadJoseVerificationKey(source: JoseKeySource, algorithms?: readonly JWSAlgorithm[]): Promise<JoseVerificationKey> {
  switch (source.kind) {
    case 'jwks':
      return { key: createLocalJWKSet(assertPublicJwks(source.jwks, 'JWKS')), algorithms: restrict(algorithms, JOSE_ASYMMETRIC_ALGORITHMS, 'a JWKS'), description: 'an in-memory JWKS' };
    case 'jwks-file': {
      let text: string;
      try {
        text = await readFile(source.path, 'utf8');
      } catch (error) {
        throw new RangeError(`cannot read the JWKS file ${source.path}: ${(error as Error).message}`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new RangeError(`the JWKS file ${source.path} is not JSON`);
      }
      const jwks = assertPublicJwks(parsed, `JWKS file ${source.path}`);
      return { key: createLocalJWKSet(jwks), algorithms: restrict(algorithms, JOSE_ASYMMETRIC_ALGORITHMS, 'a JWKS'), description: `the JWKS file ${source.path}` };
    }
    case 'jwks-url': {
      const url = new URL(source.url);
      const key = createRemoteJWKSet(url, {
        ...(source.timeoutMs !== undefined ? { timeoutDuration: source.timeoutMs } : {}),
        ...(source.cooldownMs !== undefined ? { cooldownDuration: source.cooldownMs } : {}),
        ...(source.cacheMaxAgeMs !== undefined ? { cacheMaxAge: source.cacheMaxAgeMs } : {}),
      });
      return { key, algorithms: restrict(algorithms, JOSE_ASYMMETRIC_ALGORITHMS, 'a JWKS'), description: `the JWKS at ${url.href}` };
    }
    case 'secret': {
      const bytes = typeof source.secret === 'string' ? new TextEncoder().encode(source.secret) : source.secret;
      if (bytes.length < JOSE_MIN_SECRET_BYTES) throw new RangeError(`the shared secret must be at least ${JOSE_MIN_SECRET_BYTES} bytes (got ${bytes.length})`);
      return { key: bytes, algorithms: algorithms ? restrict(algorithms, HMAC_ALGORITHMS, 'a shared secret') : JOSE_SECRET_ALGORITHMS, description: 'a shared secret' };
    }
  }
}
