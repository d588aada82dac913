import type { Hasher } from '../../ports/hasher.js';

/** `sha256:<hex>` digest notation used in receipts and the history chain. */
export function digestOf(hasher: Hasher, text: string): string {
  return `sha256:${hasher.sha256Hex(text)}`;
}
