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

  it.each([
    [[0x00], '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d'],
    [[0xff], 'a8100ae6aa1940d0b663bb31cd466142ebbdbd5187131b92d93818987832eb89'],
    [[0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a], 'ea3948106c12d96eaf84d4bb8be214b194c3442acb99a3005251960b0ec2ba63'],
  ])('hashes raw bytes %j (not UTF-8, BOM and CRLF kept) to their known SHA-256', (bytes, hex) => {
    expect(hasher.sha256HexBytes(new Uint8Array(bytes))).toBe(hex);
  });

  it('hashes the bytes of text exactly like the text itself', () => {
    for (const text of ['', 'abc', '€🙂', 'x'.repeat(200)]) {
      expect(hasher.sha256HexBytes(new TextEncoder().encode(text))).toBe(hasher.sha256Hex(text));
    }
  });

  // RFC 4231 test cases 1, 2 and 6 (a key longer than the block is hashed first).
  it.each([
    ['0b'.repeat(20), 'Hi There', 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
    [Buffer.from('Jefe').toString('hex'), 'what do ya want for nothing?', '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'],
    ['aa'.repeat(131), 'Test Using Larger Than Block-Size Key - Hash Key First', '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54'],
  ])('HMAC-SHA256 with key %s matches RFC 4231', (keyHex, text, mac) => {
    expect(hasher.hmacSha256Hex(new Uint8Array(Buffer.from(keyHex, 'hex')), text)).toBe(mac);
  });
});
