import { SeededIdSource } from '../../../../src/adapters/memory/seeded-id-source.js';

describe('SeededIdSource', () => {
  it('yields base36 strings of the requested length', () => {
    const ids = new SeededIdSource(1);
    for (const length of [1, 6, 8, 12, 32]) expect(ids.randomBase36(length)).toMatch(new RegExp(`^[0-9a-z]{${length}}$`));
    expect(ids.randomBase36(0)).toBe('');
  });

  it('is reproducible for a seed and differs between seeds', () => {
    const a = new SeededIdSource(7);
    const b = new SeededIdSource(7);
    const c = new SeededIdSource(8);
    const seqA = Array.from({ length: 5 }, () => a.randomBase36(6));
    expect(Array.from({ length: 5 }, () => b.randomBase36(6))).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.randomBase36(6))).not.toEqual(seqA);
  });

  it('does not repeat itself over many draws and uses the whole alphabet', () => {
    const ids = new SeededIdSource();
    const drawn = Array.from({ length: 2000 }, () => ids.randomBase36(6));
    expect(new Set(drawn).size).toBe(2000);
    expect(new Set(drawn.join('')).size).toBe(36);
  });
});
