/** SHA-256 digests for revision digests, the history hash chain and skill file digests; HMAC for sealed state. */
export interface Hasher {
  /** Lowercase hex SHA-256 of the UTF-8 encoding of text. */
  sha256Hex(text: string): string;
  /**
   * Lowercase hex SHA-256 of raw bytes. Skill files are digested over exactly the bytes that
   * are served, which need not be UTF-8 (SEP-2640 "Integrity").
   */
  sha256HexBytes(bytes: Uint8Array): string;
  /**
   * Lowercase hex HMAC-SHA256 (RFC 2104) of the UTF-8 encoding of text under key: the seal of
   * MRTR continuation state (seed 004 "MRTR, tasks, and cache behavior").
   */
  hmacSha256Hex(key: Uint8Array, text: string): string;
}
