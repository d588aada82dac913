import type { Hasher } from '../../ports/hasher.js';

/**
 * `sha256:<64 lowercase hex>` over raw bytes (SEP-2640 "Integrity": the digest covers exactly
 * the bytes a `resources/read` returns, so BOMs and CRLFs count and nothing is normalized).
 */
export function pmSkillDigest(hasher: Hasher, bytes: Uint8Array): string {
  return `sha256:${hasher.sha256HexBytes(bytes)}`;
}
