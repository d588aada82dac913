/** SHA-256 digests for revision digests and the history hash chain. */
export interface Hasher {
  /** Lowercase hex SHA-256 of the UTF-8 encoding of text. */
  sha256Hex(text: string): string;
}
