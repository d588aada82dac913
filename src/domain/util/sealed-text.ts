/**
 * The text encodings shared by pm's sealed, stateless tokens (MRTR `requestState`, seed 004
 * "MRTR, tasks, and cache behavior"; the legacy HTTP session id, 2025-06-18
 * basic/transports "Session Management"): UTF-8 in base64url without padding, and the
 * constant-time comparison of their MACs. Pure functions (no node I/O).
 */

/** UTF-8 text as base64url without padding. */
export function base64url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text a {@link base64url} string encodes; undefined when it is not base64url or not UTF-8. */
export function unbase64url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** Equal-length hex strings compared in constant time. */
export function sameMac(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
