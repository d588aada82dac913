import { nodeCrypto } from './lazy-crypto.js';
import type { IdSource } from '../../ports/id-source.js';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Cryptographically random ids (uniform over base36). */
export class CryptoIdSource implements IdSource {
  randomBase36(length: number): string {
    const { randomInt } = nodeCrypto();
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHABET[randomInt(36)];
    return out;
  }
}
