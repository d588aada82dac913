import { createHash } from 'node:crypto';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { NodeHasher } from '../../../../src/adapters/node/node-hasher.js';

function seeded(seed: number): () => number {
  return () => {
    let t = (seed += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Code points from every UTF-8 length class, including astral ones (surrogate pairs). */
const POOL = ['a', 'Z', '0', ' ', '\n', '\t', '"', 'é', 'ß', 'Ж', 'ا', '€', '中', 'ー', '\u0301', '\u200d', '🙂', '👩‍💻', '𝄞', '\u0000', '\uffff'];

function randomText(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += POOL[Math.floor(random() * POOL.length)];
  return out;
}

describe('NodeHasher', () => {
  const node = new NodeHasher();
  const pure = new PureSha256Hasher();

  it('agrees with the pure adapter on HMAC-SHA256 over random keys and texts', () => {
    const random = seeded(7);
    for (let i = 0; i < 50; i++) {
      const key = new Uint8Array(Array.from({ length: 1 + Math.floor(random() * 100) }, () => Math.floor(random() * 256)));
      const text = randomText(random, Math.floor(random() * 300));
      expect(node.hmacSha256Hex(key, text)).toBe(pure.hmacSha256Hex(key, text));
    }
  });

  it('matches the FIPS 180-4 test vectors', () => {
    expect(node.sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(node.sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('agrees with PureSha256Hasher on every length around the block boundaries', () => {
    for (let length = 0; length <= 200; length++) {
      const text = 'x'.repeat(length);
      expect(pure.sha256Hex(text)).toBe(node.sha256Hex(text));
    }
  });

  it('agrees with PureSha256Hasher on random unicode text', () => {
    const random = seeded(2026);
    for (let i = 0; i < 300; i++) {
      const text = randomText(random, Math.floor(random() * 300));
      expect(pure.sha256Hex(text)).toBe(node.sha256Hex(text));
    }
  });

  it('hashes the UTF-8 bytes of the text, lone surrogates included, exactly like node:crypto', () => {
    for (const text of ['ünïcödé', '日本語のテキスト', '🙂🙃 emoji', 'lone \ud800 high', 'lone \udc00 low', '---\nid: pm-abc123\n---\n']) {
      const expected = createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
      expect(node.sha256Hex(text)).toBe(expected);
      expect(pure.sha256Hex(text)).toBe(expected);
    }
  });

  it('agrees with PureSha256Hasher and node:crypto on random raw bytes, invalid UTF-8 included', () => {
    const random = seeded(2640);
    for (let i = 0; i < 300; i++) {
      const bytes = new Uint8Array(Math.floor(random() * 300));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
      const expected = createHash('sha256').update(bytes).digest('hex');
      expect(node.sha256HexBytes(bytes)).toBe(expected);
      expect(pure.sha256HexBytes(bytes)).toBe(expected);
    }
  });

  it('hashes the bytes of a view, not its whole underlying buffer', () => {
    const buffer = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const view = buffer.subarray(2, 4);
    const expected = createHash('sha256').update(Buffer.from([3, 4])).digest('hex');
    expect(node.sha256HexBytes(view)).toBe(expected);
    expect(pure.sha256HexBytes(view)).toBe(expected);
  });
});
