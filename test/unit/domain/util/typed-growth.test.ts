import { grownTo } from '../../../../src/domain/util/typed-growth.js';

describe('grownTo', () => {
  it('keeps an array that holds the size, and otherwise doubles it (or more) with the same entries first, of the same kind', () => {
    const ints = Int32Array.of(1, 2, 3);
    expect(grownTo(ints, 3)).toBe(ints);
    const doubled = grownTo(ints, 4);
    expect(doubled).toBeInstanceOf(Int32Array);
    expect([...doubled]).toEqual([1, 2, 3, 0, 0, 0]);
    expect(grownTo(ints, 10).length).toBe(10);
    const doubles = grownTo(Float64Array.of(0.5), 2);
    expect(doubles).toBeInstanceOf(Float64Array);
    expect([...doubles]).toEqual([0.5, 0]);
  });
});
