import { compareText, MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { describeItemIndexContract } from '../item-index-contract.js';

describeItemIndexContract('MemoryItemIndex', async () => new MemoryItemIndex());

describe('compareText (code point order, as SQLite orders UTF-8)', () => {
  it('puts characters above U+FFFF after U+E000..U+FFFF, unlike UTF-16 order', () => {
    expect('\u{1F600}' < '\uFF5A').toBe(true);
    expect(compareText('\u{1F600}', '\uFF5A')).toBeGreaterThan(0);
    expect(compareText('a', 'ab')).toBeLessThan(0);
    expect(compareText('b', 'a')).toBeGreaterThan(0);
    expect(compareText('x', 'x')).toBe(0);
    expect(compareText('\uD7FF', '\u{10000}')).toBeLessThan(0);
  });
});
