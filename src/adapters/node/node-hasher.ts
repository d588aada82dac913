import { nodeCrypto } from './lazy-crypto.js';
import type { Hasher } from '../../ports/hasher.js';

/** SHA-256 from node:crypto (agrees with PureSha256Hasher; a unit test checks). */
export class NodeHasher implements Hasher {
  sha256Hex(text: string): string {
    return nodeCrypto().createHash('sha256').update(text, 'utf8').digest('hex');
  }

  sha256HexBytes(bytes: Uint8Array): string {
    return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
  }

  hmacSha256Hex(key: Uint8Array, text: string): string {
    return nodeCrypto().createHmac('sha256', key).update(text, 'utf8').digest('hex');
  }
}
