import { commaList, guardShape, guardsFrom, integerValue, keyValueList, priorityValue, repeated } from '../../../../src/adapters/cli/argv-values.js';
import { z } from 'zod';

describe('argv value schemas', () => {
  it.each([['0', 0], ['4', 4], ['P1', 1], ['p2', 2], [' 3 ', 3]])('accepts priority %j', (raw, expected) => {
    expect(priorityValue.parse(raw)).toBe(expected);
  });

  it.each(['5', '-1', '1.5', 'high', '', '01'])('rejects priority %j with the allowed range', (raw) => {
    const result = priorityValue.safeParse(raw);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe(`invalid priority '${raw}': expected an integer from 0 (highest) to 4 (lowest)`);
  });

  it('splits repeatable comma lists, and refuses an empty entry rather than dropping it', () => {
    expect(commaList.parse(['a,b', ' c '])).toEqual(['a', 'b', 'c']);
    expect(commaList.parse(undefined)).toBeUndefined();
    expect(commaList.safeParse([',']).error?.issues[0]?.message).toBe("',' has an empty entry; give names separated by commas");
    expect(commaList.safeParse(['a,,b']).success).toBe(false);
    expect(repeated.parse(['x, y', 'z'])).toEqual(['x, y', 'z']);
    expect(repeated.parse([])).toBeUndefined();
  });

  it('parses key=value pairs, keeping = in values', () => {
    expect(keyValueList.parse(['points=3', 'note=a=b', 'empty='])).toEqual([['points', '3'], ['note', 'a=b'], ['empty', '']]);
    expect(keyValueList.safeParse(['novalue']).error!.issues[0]!.message).toBe("expected key=value, got 'novalue'");
    expect(keyValueList.safeParse(['=x']).success).toBe(false);
  });

  it('bounds integers', () => {
    const limit = integerValue('limit', 1, 500);
    expect(limit.parse('500')).toBe(500);
    for (const raw of ['0', '501', '2.5', 'ten', '-3']) expect(limit.safeParse(raw).success).toBe(false);
    expect(limit.safeParse('0').error!.issues[0]!.message).toBe("invalid limit '0': expected a whole number from 1 to 500");
  });

  it('turns guard options into mutation options', () => {
    const schema = z.object(guardShape);
    expect(guardsFrom(schema.parse({ 'expected-revision': '7', 'idempotency-key': 'k1' }))).toEqual({ expectedRevision: 7, idempotencyKey: 'k1' });
    expect(guardsFrom(schema.parse({}))).toEqual({});
    expect(schema.safeParse({ 'expected-revision': '0' }).success).toBe(false);
    expect(schema.safeParse({ 'idempotency-key': '' }).success).toBe(false);
  });
});
