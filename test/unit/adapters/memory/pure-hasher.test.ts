import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';

describe('PureSha256Hasher', () => {
  const hasher = new PureSha256Hasher();

  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
    ['abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu', 'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1'],
    ['The quick brown fox jumps over the lazy dog', 'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592'],
  ])('matches the known SHA-256 of %j', (text, hex) => {
    expect(hasher.sha256Hex(text)).toBe(hex);
  });

  it('matches the one-million-a vector (many blocks)', () => {
    expect(hasher.sha256Hex('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('hashes the UTF-8 encoding of non-ASCII text', () => {
    expect(hasher.sha256Hex('€')).toBe(hasher.sha256Hex('\u20ac'));
    expect(hasher.sha256Hex('é')).not.toBe(hasher.sha256Hex('e\u0301'));
    expect(hasher.sha256Hex('🙂')).toMatch(/^[0-9a-f]{64}$/);
  });
});
