import type { FileSignature } from '../../ports/file-system.js';

/** The hashes {@link fileHash} returns are below this; the index keeps their sum modulo it. */
export const FILE_HASH_MODULUS = 2 ** 48;

const float = new Float64Array(1);
const words = new Uint32Array(float.buffer);

/** murmur3's 32-bit finalizer: every input bit affects every output bit. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A 48-bit hash of a file's name and signature (size, exact modification and status change
 * times, inode). The
 * derived index keeps the sum of its files' hashes, and a directory scan sums what it found:
 * equal sums mean every file still has the signature the index recorded (a sum is independent
 * of the order a directory lists its entries in, and updates in O(1) per changed file), so an
 * unchanged tracker is checked without reading the index's 100k records. Two different states
 * agree by chance with probability about 2^-48. The index stores these hashes: a change of this
 * function must come with a new index schema version, so stored sums are rebuilt.
 */
export function fileHash(name: string, sig: FileSignature): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  float[0] = sig.mtimeMs;
  a = mix(a ^ words[0]!);
  b = mix(Math.imul(b, 0x27d4eb2d) ^ words[1]!);
  float[0] = sig.ctimeMs;
  a = mix(Math.imul(a, 0x85ebca6b) ^ words[0]!);
  b = mix(b ^ words[1]!);
  a = mix(a ^ (sig.size >>> 0) ^ Math.imul(Math.floor(sig.size / 4294967296), 0x9e3779b1));
  b = mix(Math.imul(b, 0x27d4eb2d) ^ (sig.ino >>> 0));
  a = mix(a ^ Math.floor(sig.ino / 4294967296) ^ b);
  return mix(a) * 65536 + (mix(b ^ a) >>> 16);
}

/** (a + b) mod 2^48 for hashes and sums in [0, 2^48). */
export function addHash(a: number, b: number): number {
  const sum = a + b;
  return sum >= FILE_HASH_MODULUS ? sum - FILE_HASH_MODULUS : sum;
}
