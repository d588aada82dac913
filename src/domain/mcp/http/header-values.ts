/**
 * Value encoding of the Streamable HTTP request headers that mirror body values (`Mcp-Name`,
 * `Mcp-Param-{Name}`): 2026-07-28 `basic/transports/streamable-http` "Value Encoding"
 * (SEP-2243; 2026-07-28 `basic/transports/streamable-http`). A value that is plain header-safe ASCII travels as is; anything
 * else (non-ASCII, control characters, leading/trailing whitespace, the empty string, or a value
 * that itself looks like the sentinel) travels as `=?base64?<Base64 of its UTF-8>?=`. The
 * markers are case-sensitive; a value without the exact prefix and suffix is literal. Pure code:
 * Base64 is implemented here so the SDK runs on any runtime.
 */

/** The sentinel's prefix (case-sensitive). */
export const MCP_HEADER_BASE64_PREFIX = '=?base64?';
/** The sentinel's suffix (case-sensitive). */
export const MCP_HEADER_BASE64_SUFFIX = '?=';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Standard Base64 (RFC 4648 §4, padded) of `bytes`. */
export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}${ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

/**
 * Strict standard Base64 decoding: the length is a multiple of 4, only alphabet characters,
 * padding (`=` or `==`) only at the very end. Returns undefined for anything else (the SEP-2243
 * conformance table rejects bad padding and non-alphabet characters; lenient decoders such as
 * `Buffer.from` would accept them).
 */
export function decodeBase64Strict(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const last = i + 4 === text.length;
    const values = [0, 0, 0, 0];
    for (let j = 0; j < 4; j++) {
      const code = text.charCodeAt(i + j);
      if (code === 61 /* = */ && last && j >= 4 - padding) continue;
      const value = code < 128 ? DECODE[code]! : -1;
      if (value < 0) return undefined;
      values[j] = value;
    }
    const n = (values[0]! << 18) | (values[1]! << 12) | (values[2]! << 6) | values[3]!;
    bytes[o++] = n >> 16;
    if (o < bytes.length) bytes[o++] = (n >> 8) & 255;
    if (o < bytes.length) bytes[o++] = n & 255;
  }
  return bytes;
}

/** True for a character allowed in a plain (unencoded) value: visible ASCII or space. */
function isPlainChar(code: number): boolean {
  return code >= 0x20 && code <= 0x7e;
}

/** True when `value` looks like the sentinel (exact prefix and suffix). */
export function looksLikeMcpHeaderSentinel(value: string): boolean {
  return value.length >= MCP_HEADER_BASE64_PREFIX.length + MCP_HEADER_BASE64_SUFFIX.length && value.startsWith(MCP_HEADER_BASE64_PREFIX) && value.endsWith(MCP_HEADER_BASE64_SUFFIX);
}

/**
 * True when `value` can travel as a plain header value: non-empty, visible ASCII and inner
 * spaces only, no leading or trailing whitespace (HTTP strips it), not sentinel-shaped.
 */
export function isMcpHeaderSafe(value: string): boolean {
  if (value.length === 0 || value[0] === ' ' || value[value.length - 1] === ' ') return false;
  for (let i = 0; i < value.length; i++) if (!isPlainChar(value.charCodeAt(i))) return false;
  return !looksLikeMcpHeaderSentinel(value);
}

/** Encodes one header value: as is when header-safe, otherwise the Base64 sentinel form. */
export function encodeMcpHeaderValue(value: string): string {
  if (isMcpHeaderSafe(value)) return value;
  return `${MCP_HEADER_BASE64_PREFIX}${encodeBase64(new TextEncoder().encode(value))}${MCP_HEADER_BASE64_SUFFIX}`;
}

/** The outcome of decoding one received header value. */
export type DecodedMcpHeaderValue = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly problem: string };

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes one received (already whitespace-trimmed) header value: the sentinel form is decoded
 * strictly (bad Base64 or invalid UTF-8 → a problem), anything else is literal and must consist
 * of visible ASCII, spaces and tabs (RFC 9110 field-vchar without obs-text).
 */
export function decodeMcpHeaderValue(raw: string): DecodedMcpHeaderValue {
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code !== 0x09 && !isPlainChar(code)) return { ok: false, problem: 'contains characters outside visible ASCII' };
  }
  if (!looksLikeMcpHeaderSentinel(raw)) return { ok: true, value: raw };
  const bytes = decodeBase64Strict(raw.slice(MCP_HEADER_BASE64_PREFIX.length, raw.length - MCP_HEADER_BASE64_SUFFIX.length));
  if (!bytes) return { ok: false, problem: 'has malformed Base64 inside the =?base64?…?= sentinel' };
  try {
    return { ok: true, value: UTF8.decode(bytes) };
  } catch {
    return { ok: false, problem: 'decodes to invalid UTF-8' };
  }
}

/**
 * The header text of an argument value (type mapping of "Value Encoding"): a string as is, an
 * integer in decimal, a boolean as `true`/`false`. Undefined for anything that cannot travel in
 * a header (null, objects, arrays, non-finite numbers, integers beyond ±(2^53−1)).
 */
export function mcpHeaderValueText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value);
  return undefined;
}
