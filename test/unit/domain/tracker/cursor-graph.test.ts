import { decodeCursor, encodeCursor } from '../../../../src/domain/tracker/cursor.js';
import { findCycles, findPath } from '../../../../src/domain/tracker/graph.js';
import { ValidationError } from '../../../../src/domain/errors/index.js';

describe('cursor', () => {
  it('round-trips positions with unicode and refuses foreign or broken cursors', () => {
    const cursor = encodeCursor({ key: [1, 'héllo ✓', 'pm-a'], query: 'q1' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 'q1').key).toEqual([1, 'héllo ✓', 'pm-a']);
    expect(() => decodeCursor(cursor, 'q2')).toThrow(/different query/);
    expect(() => decodeCursor('!!', 'q1')).toThrow(ValidationError);
    expect(() => decodeCursor(encodeCursor({ key: [], query: 'q' }).slice(0, 5), 'q')).toThrow(ValidationError);
  });
});

describe('graph', () => {
  const edges: Record<string, string[]> = { a: ['b'], b: ['c'], c: [], d: ['d'] };
  it('finds paths and reports unreachable targets', () => {
    expect(findPath('a', 'c', (n) => edges[n] ?? [])).toEqual(['a', 'b', 'c']);
    expect(findPath('c', 'a', (n) => edges[n] ?? [])).toBeUndefined();
  });
  it('finds cycles', () => {
    expect(findCycles(['a', 'b', 'c'], (n) => edges[n] ?? [])).toEqual([]);
    expect(findCycles(['x'], (n) => ({ x: ['y'], y: ['x'] })[n] ?? [])).toEqual([['x', 'y', 'x']]);
  });
});
