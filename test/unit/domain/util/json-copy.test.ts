import { jsonCopy } from '../../../../src/domain/util/json-copy.js';

/** What the copy must equal: the round trip through a JSON string. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('jsonCopy', () => {
  it('equals the JSON round trip for plain data, and aliases nothing of it', () => {
    const summary = { id: 'pm-a1', title: 'ä "quoted" \\ line\nnext', priority: 2, tags: ['x', 'y'], assignee: undefined, nested: { deep: [1, null, true, { n: -0 }] } };
    const value = { items: [summary, { ...summary, id: 'pm-b2' }], total: 2, empty: {}, none: [] };
    const copied = jsonCopy(value);
    expect(copied).toEqual(plain(value));
    expect(JSON.stringify(copied)).toBe(JSON.stringify(value));
    expect(Object.keys(copied.items[0]!)).toEqual(Object.keys(plain(summary) as object));
    expect(copied.items[0]!.tags).not.toBe(summary.tags);
    expect(copied.items[0]!.nested.deep[3]).not.toBe(summary.nested.deep[3]);
  });

  it('takes the round trip for whatever is not plain JSON, with the same result', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const sparse = [1, , 3];
    const odd: unknown[] = [
      { when: new Date(0) },
      { n: Number.NaN, m: Number.POSITIVE_INFINITY },
      [undefined, 1],
      sparse,
      { p: new Point(3) },
      { f: () => 1, s: Symbol('s') },
      { toJSON: () => 'custom' },
      JSON.parse('{"__proto__": {"polluted": true}}'),
      Object.assign(Object.create(null) as object, { a: 1 }),
    ];
    for (const value of odd) expect({ value: JSON.stringify(jsonCopy(value)) }).toEqual({ value: JSON.stringify(plain(value)) });
    const proto = jsonCopy(JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
  });
});
